// Package gemini is the mapping app's client for the Gemini API.
package gemini

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"time"
)

const endpoint = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent"

const (
	maxRetries = 2                // a transient failure is sent again twice
	baseWait   = time.Second      // the first wait's upper bound
	maxWait    = 30 * time.Second // no wait is longer
)

// Client calls Gemini with an API key.
type Client struct {
	HTTP *http.Client
	Key  string
}

// Generate sends the prompt and returns Gemini's answer. The transient
// answers, 429, 500 and 503, are retried up to maxRetries times, each wait
// drawn at random below a doubling bound capped at maxWait (full jitter);
// any other failure is returned at once.
func (c *Client) Generate(ctx context.Context, prompt []byte) ([]byte, error) {
	var last string
	for attempt := 0; attempt <= maxRetries; attempt++ {
		resp, err := c.post(ctx, prompt)
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusServiceUnavailable:
			last = resp.Status
			resp.Body.Close()
			bound := min(baseWait<<attempt, maxWait)
			wait := time.Duration(rand.Int64N(int64(bound)))
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(wait):
			}
			continue
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("gemini: %s", resp.Status)
		}
		return io.ReadAll(resp.Body)
	}
	return nil, fmt.Errorf("gemini: %s after %d retries", last, maxRetries)
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
