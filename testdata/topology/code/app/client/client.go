// Package client calls the model API; it retries a 503 twice itself.
package client

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

const retries = 2

// Client calls the model API.
type Client struct{ HTTP *http.Client }

// Generate makes one request, retrying a 503 up to twice.
func (c *Client) Generate(ctx context.Context) error {
	wait := 500 * time.Millisecond
	for attempt := 0; attempt <= retries; attempt++ {
		resp, err := c.send(ctx)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusServiceUnavailable {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
			wait *= 2
			continue
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("model: %s", resp.Status)
		}
		return nil
	}
	return fmt.Errorf("model: unavailable")
}

func (c *Client) send(ctx context.Context) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://model.example.com/v1/generate", nil)
	if err != nil {
		return nil, err
	}
	return c.HTTP.Do(req)
}
