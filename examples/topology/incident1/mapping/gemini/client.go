// Package gemini is the mapping app's client for the Gemini API.
package gemini

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

const endpoint = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent"

// maxRetries is how often a rate-limited request is sent again.
const maxRetries = 3

// Client calls Gemini with an API key.
type Client struct {
	HTTP *http.Client
	Key  string
}

// Generate sends the prompt and returns Gemini's answer. A 429 is retried
// up to maxRetries times with a doubling wait; any other failure, a 503
// included, is returned at once.
func (c *Client) Generate(ctx context.Context, prompt []byte) ([]byte, error) {
	wait := time.Second
	for attempt := 0; attempt <= maxRetries; attempt++ {
		resp, err := c.post(ctx, prompt)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			resp.Body.Close()
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(wait):
			}
			wait *= 2
			continue
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("gemini: %s", resp.Status)
		}
		return io.ReadAll(resp.Body)
	}
	return nil, errors.New("gemini: still rate limited after retries")
}

// post sends one request.
func (c *Client) post(ctx context.Context, prompt []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(prompt))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-goog-api-key", c.Key)
	return c.HTTP.Do(req)
}
