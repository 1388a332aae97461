package httpx

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// FormError is returned for non-2xx answers from the forms backend.
type FormError struct {
	StatusCode int
}

func (e *FormError) Error() string { return fmt.Sprintf("forms: HTTP %d", e.StatusCode) }

func postForm(ctx context.Context, c Doer, u string, v url.Values) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(v.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	drain(resp)
	if resp.StatusCode >= 300 {
		return &FormError{StatusCode: resp.StatusCode}
	}
	return nil
}

// SubmitForm posts a form; validation sometimes fails while the schema cache warms up.
func SubmitForm(ctx context.Context, c Doer, u string, v url.Values) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: `
		err = postForm(ctx, c, u, v)
		if err == nil {
			return nil
		}
		var fe *FormError
		if !errors.As(err, &fe) {
			return err
		}
		if fe.StatusCode != http.StatusUnprocessableEntity && fe.StatusCode != http.StatusServiceUnavailable {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitter(200*time.Millisecond, 5*time.Second, attempt)):
		}
	}
	return err
}

// GetSigned downloads through a signed URL.
func GetSigned(ctx context.Context, c Doer, signedURL string) (*http.Response, error) {
	for attempt := 0; attempt < 3; attempt++ { // want `retry-permanent: `
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, signedURL, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusServiceUnavailable {
			return resp, nil
		}
		drain(resp)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(jitter(time.Second, 10*time.Second, attempt)):
		}
	}
	return nil, errRetriesExhausted
}

// GetRateLimited retries 429 answers, waiting as long as Retry-After asks (capped)
// and otherwise a jittered backoff.
func GetRateLimited(ctx context.Context, c Doer, u string) (*http.Response, error) {
	const maxAttempts = 5
	for attempt := 0; attempt < maxAttempts; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return resp, nil
		}
		d := retryAfter(resp, jitter(500*time.Millisecond, 30*time.Second, attempt), time.Minute)
		drain(resp)
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	return nil, errRetriesExhausted
}

// Failover tries each mirror in turn, moving on only when a mirror is down.
func Failover(ctx context.Context, c Doer, mirrors []string, path string) (*http.Response, error) {
	var errs []error
	for _, m := range mirrors {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, m+path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err != nil {
			if !retryableNetErr(err) {
				return nil, err
			}
			errs = append(errs, err)
			continue
		}
		if resp.StatusCode >= 500 {
			drain(resp)
			errs = append(errs, fmt.Errorf("%s: %s", m, resp.Status))
			continue
		}
		return resp, nil
	}
	return nil, errors.Join(errs...)
}
