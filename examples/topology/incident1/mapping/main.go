// Command mapping maps one batch of records with Gemini; the Cloud Run job
// mapping-job runs it. It reports a failure to the SAGA coordinator and
// exits 1.
package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"time"

	"example.com/mapping/gemini"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := &gemini.Client{HTTP: http.DefaultClient, Key: os.Getenv("GEMINI_API_KEY")}
	if _, err := client.Generate(ctx, []byte(os.Getenv("MAPPING_PROMPT"))); err != nil {
		fmt.Fprintln(os.Stderr, "mapping:", err)
		notifySaga(ctx, "failed")
		os.Exit(1)
	}
	notifySaga(ctx, "done")
}

// notifySaga reports the outcome of the batch.
func notifySaga(ctx context.Context, outcome string) {
	body := bytes.NewBufferString(`{"outcome":"` + outcome + `"}`)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, os.Getenv("SAGA_URL"), body)
	if err != nil {
		return
	}
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
}
