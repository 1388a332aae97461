// Package report sends reports; two callers retry it, one after the other.
package report

import (
	"context"
	"net/http"
	"time"
)

// Send makes one request.
func Send(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://reports.example.com/v1", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Daily sends the daily report, retrying once.
func Daily(ctx context.Context) error {
	var err error
	for i := 0; i < 2; i++ {
		if err = Send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * time.Second)
	}
	return err
}

// Final sends the final report, retrying 4 times: the worst case of a
// call to Send is these 5 attempts, not 2×5.
func Final(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = Send(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * time.Second)
	}
	return err
}
