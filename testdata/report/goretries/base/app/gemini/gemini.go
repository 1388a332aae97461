// Package gemini calls the model, retrying a 429 with a growing, jittered
// and capped wait.
package gemini

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

const maxRetries = 3

// Generate makes the request, retrying a 429 up to maxRetries times.
func Generate(ctx context.Context, c *http.Client, req *http.Request) error {
	for attempt := 0; attempt <= maxRetries; attempt++ {
		resp, err := c.Do(req.WithContext(ctx))
		if err != nil {
			return err
		}
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusOK:
			return nil
		case http.StatusTooManyRequests, http.StatusServiceUnavailable:
			bound := min(time.Second<<attempt, 30*time.Second)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Duration(rand.Int64N(int64(bound)))):
			}
			continue
		}
		return fmt.Errorf("gemini: %s", resp.Status)
	}
	return fmt.Errorf("gemini: gave up")
}
