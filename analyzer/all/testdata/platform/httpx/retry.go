// Package httpx wraps net/http with the retry behaviour shared by our services.
package httpx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Doer is satisfied by *http.Client.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Retrier retries idempotent requests.
type Retrier struct {
	Client     Doer
	MaxRetries int
	Base       time.Duration
	Cap        time.Duration
}

var errRetriesExhausted = errors.New("httpx: retries exhausted")

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

func retryableNetErr(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == "dial"
}

func shouldRetry(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

func retryAfter(resp *http.Response, fallback, limit time.Duration) time.Duration {
	if s := resp.Header.Get("Retry-After"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 {
			return min(time.Duration(n)*time.Second, limit)
		}
	}
	return fallback
}

// Do sends the request built by newReq, retrying throttling, gateway errors and
// dial/timeouts. Retry-After is honoured up to Cap.
func (r *Retrier) Do(ctx context.Context, newReq func(context.Context) (*http.Request, error)) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt <= r.MaxRetries; attempt++ {
		if attempt > 0 {
			wait := jitter(r.Base, r.Cap, attempt-1)
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(wait):
			}
		}
		req, err := newReq(ctx)
		if err != nil {
			return nil, err
		}
		resp, err := r.Client.Do(req)
		if err != nil {
			if !retryableNetErr(err) {
				return nil, err
			}
			lastErr = err
			continue
		}
		if !shouldRetry(resp) {
			return resp, nil
		}
		lastErr = fmt.Errorf("httpx: %s %s: %s", req.Method, req.URL, resp.Status)
		drain(resp)
	}
	return nil, errors.Join(errRetriesExhausted, lastErr)
}

// GetJSON fetches url and decodes the body into v.
func GetJSON(url string, v any) error {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		resp, err := http.Get(url)
		if err == nil {
			defer resp.Body.Close()
			return json.NewDecoder(resp.Body).Decode(v)
		}
		time.Sleep(2 * time.Second) // want `fixed-sleep: `
	}
}

// FetchObject downloads an object that may have been written a moment ago by
// another region.
func FetchObject(ctx context.Context, c Doer, url string) ([]byte, error) {
	for attempt := 0; attempt < 6; attempt++ { // want `retry-permanent: `
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusOK {
			defer resp.Body.Close()
			return io.ReadAll(resp.Body)
		}
		drain(resp)
		if resp.StatusCode != http.StatusNotFound && resp.StatusCode < 500 {
			return nil, fmt.Errorf("fetch %s: %s", url, resp.Status)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(jitter(100*time.Millisecond, 3*time.Second, attempt)):
		}
	}
	return nil, errRetriesExhausted
}

// PostIdempotent posts body with an idempotency key, retrying per shouldRetry.
func PostIdempotent(ctx context.Context, c Doer, url string, body []byte, key string) (*http.Response, error) {
	const maxAttempts = 5
	delay := 250 * time.Millisecond
	for attempt := 1; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytesReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if !shouldRetry(resp) || attempt == maxAttempts {
			return resp, nil
		}
		wait := retryAfter(resp, jitterAround(delay), 30*time.Second)
		drain(resp)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		delay = min(delay*2, 10*time.Second)
	}
}

// Upload sends a document to the indexing service.
func Upload(ctx context.Context, c Doer, url string, doc []byte) error {
	for attempt := range 5 { // want `retry-permanent: `
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytesReader(doc))
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		drain(resp)
		switch resp.StatusCode {
		case http.StatusOK, http.StatusCreated, http.StatusNoContent:
			return nil
		case http.StatusBadRequest, http.StatusTooManyRequests, http.StatusBadGateway:
			// the indexer returns 400 while it is re-sharding
		default:
			return fmt.Errorf("upload: %s", resp.Status)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitter(500*time.Millisecond, 20*time.Second, attempt)):
		}
	}
	return errRetriesExhausted
}

// PatchWithConflict re-reads and re-applies a patch when the server reports a
// version conflict.
func PatchWithConflict(ctx context.Context, c Doer, url string, mutate func(etag string) ([]byte, error)) error {
	for attempt := 0; attempt < 8; attempt++ {
		etag, err := head(ctx, c, url)
		if err != nil {
			return err
		}
		body, err := mutate(etag)
		if err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPatch, url, bytesReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("If-Match", etag)
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		drain(resp)
		switch resp.StatusCode {
		case http.StatusOK, http.StatusNoContent:
			return nil
		case http.StatusConflict, http.StatusPreconditionFailed:
		default:
			return fmt.Errorf("patch %s: %s", url, resp.Status)
		}
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(jitter(20*time.Millisecond, time.Second, attempt)):
			}
		}
	}
	return fmt.Errorf("patch %s: too many conflicts", url)
}

// Probe retries request timeouts and "too early" answers from the edge.
func Probe(ctx context.Context, c Doer, url string) (int, error) {
	var status int
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return 0, err
		}
		resp, err := c.Do(req)
		if err != nil {
			return 0, err
		}
		drain(resp)
		status = resp.StatusCode
		if status != http.StatusRequestTimeout && status != http.StatusTooEarly {
			return status, nil
		}
		t := time.NewTimer(jitter(50*time.Millisecond, 2*time.Second, attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			return 0, ctx.Err()
		case <-t.C:
		}
	}
	return status, nil
}

// Notify delivers a webhook, backing off as 2^attempt seconds: six
// attempts, 16 s before the last one.
func Notify(ctx context.Context, c Doer, url string, payload []byte) error {
	var err error
	for attempt := 0; attempt < 6; attempt++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, url, bytesReader(payload))
		if err != nil {
			return err
		}
		var resp *http.Response
		resp, err = c.Do(req)
		if err == nil {
			drain(resp)
			if resp.StatusCode < 300 {
				return nil
			}
			if !shouldRetry(resp) {
				return fmt.Errorf("webhook %s: %s", url, resp.Status)
			}
			err = fmt.Errorf("webhook %s: %s", url, resp.Status)
		} else if !retryableNetErr(err) {
			return err
		}
		backoff := time.Duration(math.Pow(2, float64(attempt))) * time.Second
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff): // want `no-jitter: `
		}
	}
	return err
}

func head(ctx context.Context, c Doer, url string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	drain(resp)
	return resp.Header.Get("ETag"), nil
}
