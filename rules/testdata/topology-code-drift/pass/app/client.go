// Package drift retries the API three times on 429 and 503.
package drift

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

// Call makes the request, retrying a 429 or a 503 up to three times.
func Call(ctx context.Context, req *http.Request) error {
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := http.DefaultClient.Do(req.WithContext(ctx))
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Duration(rand.Int64N(int64(min(time.Second<<attempt, 20*time.Second))))):
			}
			continue
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("api: %s", resp.Status)
		}
		return nil
	}
	return fmt.Errorf("api: gave up")
}

// Once makes the request once.
func Once(ctx context.Context, req *http.Request) error {
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
