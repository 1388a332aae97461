package httpapi

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"sync"
	"time"
)

// Profile is the merchant profile.
type Profile struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// GetProfile fetches the merchant profile. Tokens are rotated by a sidecar
// that sometimes lags, so 401/403 are treated like a blip.
func (c *Client) GetProfile(ctx context.Context, merchantID string) (*Profile, error) {
	var p Profile
	var err error
	for attempt := 0; attempt < defaultAttempts; attempt++ { // want `retry-permanent: `
		err = c.getOnce(ctx, "/v2/merchants/"+merchantID, &p)
		if err == nil {
			return &p, nil
		}
		se, ok := errAs[*StatusError](err)
		if !ok {
			return nil, err
		}
		switch se.Code {
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusServiceUnavailable:
		default:
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(backoff(attempt)):
		}
	}
	return nil, err
}

// PatchSettings updates merchant settings. During blue/green switches the
// old fleet answers 405 for PATCH for a few seconds.
func (c *Client) PatchSettings(ctx context.Context, merchantID string, settings map[string]any) error {
	for n := 0; n < 5; n++ { // want `retry-permanent: `
		req, err := c.newRequest(ctx, http.MethodPatch, "/v2/merchants/"+merchantID+"/settings", settings)
		if err != nil {
			return err
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return err
		}
		body := drain(resp)
		if resp.StatusCode < 300 {
			return nil
		}
		if resp.StatusCode != http.StatusMethodNotAllowed && resp.StatusCode != http.StatusBadGateway {
			return &StatusError{Code: resp.StatusCode, Body: body}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff(n)):
		}
	}
	return errors.New("patch settings: fleet never settled")
}

// CircuitOpenError is returned by the client-side breaker in front of the
// partner API while it is failing fast.
type CircuitOpenError struct {
	Until time.Time
}

func (e *CircuitOpenError) Error() string {
	return "partner api circuit open until " + e.Until.Format(time.RFC3339)
}

// guardedCall is the breaker-protected single call used by the sync jobs.
type guardedCall func(ctx context.Context) error

// SyncCatalog pushes the catalog, waiting for the breaker to close again
// when it is open.
func SyncCatalog(ctx context.Context, call guardedCall) error {
	for attempt := 0; attempt < 8; attempt++ { // want `retry-permanent: `
		err := call(ctx)
		if err == nil {
			return nil
		}
		var open *CircuitOpenError
		if !errors.As(err, &open) {
			return err
		}
		wait := max(min(time.Until(open.Until), maxBackoff), 100*time.Millisecond)
		wait = wait/2 + time.Duration(rand.Int63n(int64(wait/2)+1))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
	return errors.New("sync catalog: circuit stayed open")
}

// SyncContacts pushes the contact list; timeouts and 503s are retried.
func (c *Client) SyncContacts(ctx context.Context, contacts []Profile) error {
	var err error
	for attempt := 0; attempt < defaultAttempts; attempt++ {
		err = c.postOnce(ctx, "/v2/contacts:batch", contacts)
		if err == nil {
			return nil
		}
		var ne net.Error
		se, isStatus := errAs[*StatusError](err)
		transient := (errors.As(err, &ne) && ne.Timeout()) ||
			(isStatus && se.Code == http.StatusServiceUnavailable)
		if !transient {
			return err
		}
		time.Sleep(backoff(attempt)) // want `sleep-ignores-context: `
	}
	return fmt.Errorf("sync contacts: %w", err)
}

func (c *Client) postOnce(ctx context.Context, path string, body any) error {
	req, err := c.newRequest(ctx, http.MethodPost, path, body)
	if err != nil {
		return err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	msg := drain(resp)
	if resp.StatusCode >= 300 {
		return &StatusError{Code: resp.StatusCode, Body: msg}
	}
	return nil
}

// BulkTag tags many orders in parallel; each worker retries its own call
// with a shared classifier.
func (c *Client) BulkTag(ctx context.Context, ids []string, tag string) error {
	isRetryable := func(err error) bool {
		var se *StatusError
		if errors.As(err, &se) {
			return retryableStatus(se.Code)
		}
		var ne net.Error
		return errors.As(err, &ne) && ne.Timeout()
	}
	tagOne := func(id string) error {
		var err error
		for attempt := 0; attempt < defaultAttempts; attempt++ {
			err = c.postOnce(ctx, "/v2/orders/"+id+"/tags", map[string]string{"tag": tag})
			if err == nil || !isRetryable(err) {
				return err
			}
			t := time.NewTimer(backoff(attempt))
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
		}
		return err
	}

	var wg sync.WaitGroup
	errs := make([]error, len(ids))
	sem := make(chan struct{}, 8)
	for i, id := range ids {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = tagOne(id)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
