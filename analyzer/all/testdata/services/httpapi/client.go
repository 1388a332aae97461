// Package httpapi is the client for the partner REST API (orders,
// invoices, webhooks, exports).
package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"time"
)

const (
	defaultAttempts = 4
	baseBackoff     = 250 * time.Millisecond
	maxBackoff      = 20 * time.Second
)

// Client calls the partner API.
type Client struct {
	BaseURL string
	HTTP    *http.Client
	Token   string
}

// StatusError is a non-2xx answer.
type StatusError struct {
	Code int
	Body string
}

func (e *StatusError) Error() string { return fmt.Sprintf("partner api: %d: %s", e.Code, e.Body) }

// backoff returns a full-jitter delay for the given attempt (0-based).
func backoff(attempt int) time.Duration {
	ceiling := maxBackoff
	if attempt < 16 {
		ceiling = min(maxBackoff, baseBackoff<<attempt)
	}
	return time.Duration(rand.Int63n(int64(ceiling)))
}

// retryableStatus is the set of answers that may succeed on a later attempt.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooEarly, http.StatusTooManyRequests,
		http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

func (c *Client) newRequest(ctx context.Context, method, path string, body any) (*http.Request, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, r)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

func drain(resp *http.Response) string {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	resp.Body.Close()
	return string(b)
}

// getJSON fetches path into out, retrying throttling and server errors.
func (c *Client) getJSON(ctx context.Context, path string, out any) error {
	var lastErr error
	for attempt := 0; attempt < defaultAttempts; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(backoff(attempt - 1)):
			}
		}
		req, err := c.newRequest(ctx, http.MethodGet, path, nil)
		if err != nil {
			return err
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			lastErr = err
			continue
		}
		if resp.StatusCode == http.StatusOK {
			defer resp.Body.Close()
			return json.NewDecoder(resp.Body).Decode(out)
		}
		body := drain(resp)
		lastErr = &StatusError{Code: resp.StatusCode, Body: body}
		if !retryableStatus(resp.StatusCode) {
			return lastErr
		}
	}
	return fmt.Errorf("GET %s: %w", path, lastErr)
}

// getOnce is a single GET without retries, for callers that run their own
// loop.
func (c *Client) getOnce(ctx context.Context, path string, out any) error {
	req, err := c.newRequest(ctx, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return &StatusError{Code: resp.StatusCode, Body: drain(resp)}
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(out)
}

// errAs is a tiny helper so call sites read well.
func errAs[T error](err error) (T, bool) {
	var t T
	ok := errors.As(err, &t)
	return t, ok
}
