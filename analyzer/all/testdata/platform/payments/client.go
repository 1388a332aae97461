// Package payments is a small client for the card-processing provider.
package payments

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Config holds the retry settings read from the service configuration.
type Config struct {
	MaxAttempts int
	BaseDelay   time.Duration
	MaxDelay    time.Duration
	RetryDelay  time.Duration
}

// Client talks to the provider's REST API.
type Client struct {
	http    *http.Client
	baseURL string
	cfg     Config
	log     *slog.Logger
}

// ChargeRequest is a single card charge.
type ChargeRequest struct {
	ID     string `json:"id"`
	Amount int64  `json:"amount"`
	Token  string `json:"token"`
}

// StatusError carries a non-2xx answer from the provider.
type StatusError struct {
	Code       int
	RetryAfter time.Duration
}

func (e *StatusError) Error() string { return fmt.Sprintf("payments: HTTP %d", e.Code) }

var (
	ErrDeclined  = errors.New("payments: card declined")
	ErrDuplicate = errors.New("payments: duplicate charge")
)

func New(baseURL string, cfg Config) *Client {
	return &Client{http: &http.Client{Timeout: 10 * time.Second}, baseURL: baseURL, cfg: cfg, log: slog.Default()}
}

func (c *Client) send(ctx context.Context, method, path string, v any) (*http.Response, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, c.baseURL+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", fmt.Sprint(v))
	return c.http.Do(req)
}

func (c *Client) charge(ctx context.Context, r ChargeRequest) error {
	resp, err := c.send(ctx, http.MethodPost, "/v1/charges", r)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	switch {
	case resp.StatusCode == http.StatusPaymentRequired:
		return ErrDeclined
	case resp.StatusCode >= 300:
		return &StatusError{Code: resp.StatusCode, RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"))}
	}
	return nil
}

func (c *Client) chargeSync(r ChargeRequest) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return c.charge(ctx, r)
}

func isTransient(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	var se *StatusError
	if errors.As(err, &se) {
		return se.Code == http.StatusTooManyRequests || se.Code >= 500
	}
	return errors.Is(err, io.ErrUnexpectedEOF)
}

// ChargeLegacy is the original implementation kept for the batch importer.
func (c *Client) ChargeLegacy(r ChargeRequest) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ { // want `unclassified-retry: `
		err = c.chargeSync(r)
		if err == nil {
			return nil
		}
		c.log.Warn("charge failed, retrying", "attempt", attempt, "err", err)
		time.Sleep(1 * time.Second) // want `fixed-sleep: `
	}
	return fmt.Errorf("charge %s: %w", r.ID, err)
}

// Charge retries transient failures with capped, jittered exponential backoff.
func (c *Client) Charge(ctx context.Context, r ChargeRequest) error {
	var err error
	for attempt := 0; attempt < c.cfg.MaxAttempts; attempt++ {
		err = c.charge(ctx, r)
		if err == nil {
			return nil
		}
		if !isTransient(err) {
			return err
		}
		time.Sleep(fullJitter(c.cfg.BaseDelay, c.cfg.MaxDelay, attempt)) // want `sleep-ignores-context: `
	}
	return err
}

// ChargeWithContext is the cancellable variant used by the checkout handler.
func (c *Client) ChargeWithContext(ctx context.Context, r ChargeRequest) error {
	var err error
	for attempt := 0; attempt < c.cfg.MaxAttempts; attempt++ {
		if err = c.charge(ctx, r); err == nil || !isTransient(err) {
			return err
		}
		t := time.NewTimer(fullJitter(c.cfg.BaseDelay, c.cfg.MaxDelay, attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return fmt.Errorf("charge %s: giving up after %d attempts: %w", r.ID, c.cfg.MaxAttempts, err)
}

// Refund retries the refund endpoint.
func (c *Client) Refund(ctx context.Context, chargeID string, amount int64) error {
	body := map[string]any{"charge": chargeID, "amount": amount}
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: `
		resp, err := c.send(ctx, http.MethodPost, "/v1/refunds", body)
		if err != nil {
			return err
		}
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusOK, http.StatusCreated:
			return nil
		case http.StatusUnauthorized, http.StatusTooManyRequests, http.StatusServiceUnavailable:
			// the token cache is sometimes stale right after rotation
		default:
			return &StatusError{Code: resp.StatusCode}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(fullJitter(200*time.Millisecond, 5*time.Second, attempt)):
		}
	}
	return errors.New("payments: refund not accepted")
}

// Capture doubles the delay after every failure, up to MaxDelay.
func (c *Client) Capture(ctx context.Context, chargeID string) error {
	delay := c.cfg.BaseDelay
	var err error
	for attempt := 0; attempt < c.cfg.MaxAttempts; attempt++ {
		var resp *http.Response
		resp, err = c.send(ctx, http.MethodPost, "/v1/charges/"+chargeID+"/capture", nil)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 300 {
				return nil
			}
			err = &StatusError{Code: resp.StatusCode}
		}
		if !isTransient(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay): // want `no-jitter: `
		}
		delay *= 2
		if delay > c.cfg.MaxDelay {
			delay = c.cfg.MaxDelay
		}
	}
	return err
}

// Void cancels an authorisation, backing off linearly.
func (c *Client) Void(ctx context.Context, chargeID string) error {
	var err error
	for attempt := 1; attempt <= c.cfg.MaxAttempts; attempt++ {
		var resp *http.Response
		resp, err = c.send(ctx, http.MethodDelete, "/v1/charges/"+chargeID, nil)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 300 || resp.StatusCode == http.StatusNotFound {
				return nil
			}
			err = &StatusError{Code: resp.StatusCode}
		}
		if !isTransient(err) {
			return err
		}
		timer := time.NewTimer(time.Duration(attempt) * c.cfg.BaseDelay) // want `no-cap: ` `no-jitter: `
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
	}
	return err
}

// WaitSettled polls the charge until the provider reports it settled.
func (c *Client) WaitSettled(ctx context.Context, chargeID string) error {
	ticker := time.NewTicker(2 * time.Second)
	defer ticker.Stop()
	for {
		resp, err := c.send(ctx, http.MethodGet, "/v1/charges/"+chargeID, nil)
		if err != nil {
			return err
		}
		var out struct {
			Status string `json:"status"`
		}
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if out.Status == "settled" {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ticker.C:
		}
	}
}

// ChargeIdempotent retries only what the provider documents as safe to repeat and
// honours Retry-After on throttling.
func (c *Client) ChargeIdempotent(ctx context.Context, r ChargeRequest) error {
	const maxAttempts = 4
	var err error
	for attempt := 0; attempt < maxAttempts; attempt++ {
		err = c.charge(ctx, r)
		switch {
		case err == nil, errors.Is(err, ErrDuplicate):
			return nil
		case errors.Is(err, ErrDeclined):
			return err
		case !isTransient(err):
			return err
		}
		wait := fullJitter(c.cfg.BaseDelay, c.cfg.MaxDelay, attempt)
		var se *StatusError
		if errors.As(err, &se) && se.RetryAfter > wait {
			wait = min(se.RetryAfter, c.cfg.MaxDelay)
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(wait):
		}
	}
	return err
}
