package reconnect

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"time"
)

// Join registers with a pool every hour; a failed join, whatever its
// status but 401, is tried again a constant minute later, forever. The
// body read between the request and the status test is part of the
// attempt.
func Join(c *http.Client, pool string, register func([]byte)) {
	for { // want `retry-permanent: .*HTTP 400` `unbounded-retry: `
		resp, err := c.Post(pool, "application/json", &bytes.Buffer{})
		if err != nil {
			time.Sleep(time.Minute) // want `fixed-sleep: `
			continue
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			time.Sleep(time.Minute) // want `fixed-sleep: `
			continue
		}
		switch resp.StatusCode {
		case http.StatusOK:
			register(body)
			time.Sleep(time.Hour)
			continue
		case http.StatusUnauthorized:
			return
		default:
			time.Sleep(time.Minute) // want `fixed-sleep: `
			continue
		}
	}
}

// Fetch reads the answer and retries only server errors, a few times,
// jittered and capped.
func Fetch(ctx context.Context, c *http.Client, url string) ([]byte, error) {
	var last error
	for attempt := 0; attempt < 4; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if resp.StatusCode < 500 {
			return body, nil
		}
		last = errStatus(resp.StatusCode)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(rand.N(min(100*time.Millisecond<<attempt, 2*time.Second))):
		}
	}
	return nil, last
}

type errStatus int

func (e errStatus) Error() string { return http.StatusText(int(e)) }
