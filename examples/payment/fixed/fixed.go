// Package fixed is the payment client of retrylint's seed incident after
// the fix: 3 retries instead of 5, exponential backoff with full jitter and a
// cap, only transient failures retried (an open circuit breaker gives up at
// once), and waits that end when the request's context does. retrylint
// reports nothing here.
//
// Compare with package [github.com/retrylint/retrylint/examples/payment].
package fixed

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"syscall"
	"time"

	"github.com/retrylint/retrylint/examples/payment"
)

// Policy is the retry strategy: how many retries, and the backoff between
// them. The wait before retry n (from 0) is random in
// [0, min(MaxDelay, BaseDelay·2^n)]. The zero Policy never retries.
type Policy struct {
	MaxRetries int
	BaseDelay  time.Duration
	MaxDelay   time.Duration
	// OnRetry, if set, is told about every retry: retries are load that is
	// invisible unless logged.
	OnRetry func(attempt int, delay time.Duration, err error)
}

// DefaultPolicy retries 3 times, waiting up to 1 s, 2 s, 4 s (cap 60 s).
var DefaultPolicy = Policy{MaxRetries: 3, BaseDelay: time.Second, MaxDelay: 60 * time.Second}

// Client calls the provider with retries.
type Client struct {
	Provider payment.Provider
	Policy   Policy
}

// Charge makes the payment, retrying transient failures.
func (c *Client) Charge(ctx context.Context, req payment.Request) (payment.Receipt, error) {
	var r payment.Receipt
	err := Do(ctx, c.Policy, func(ctx context.Context) error {
		var err error
		r, err = c.Provider.Charge(ctx, req)
		return err
	})
	if err != nil {
		return payment.Receipt{}, fmt.Errorf("charge %s: %w", req.ID, err)
	}
	return r, nil
}

// Refund refunds a payment, retrying transient failures.
func (c *Client) Refund(ctx context.Context, receiptID string) error {
	err := Do(ctx, c.Policy, func(ctx context.Context) error {
		return c.Provider.Refund(ctx, receiptID)
	})
	if err != nil {
		return fmt.Errorf("refund %s: %w", receiptID, err)
	}
	return nil
}

// Do runs op until it succeeds, fails with an error that is not
// [Transient], has been retried p.MaxRetries times, or ctx is done.
// It returns op's last error, or ctx's error when ctx ended the wait.
func Do(ctx context.Context, p Policy, op func(context.Context) error) error {
	backoff := min(p.BaseDelay, p.MaxDelay)
	for attempt := 0; ; attempt++ {
		err := op(ctx)
		if err == nil {
			return nil
		}
		if !Transient(err) || attempt >= p.MaxRetries {
			return err
		}
		// Full jitter: a random wait in [0, backoff].
		delay := rand.N(backoff + 1)
		if p.OnRetry != nil {
			p.OnRetry(attempt+1, delay, err)
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		backoff = min(2*backoff, p.MaxDelay)
	}
}

// Transient reports whether err may go away on a later attempt: a timeout,
// a refused or reset connection, HTTP 429 or a 5xx other than 501. An open
// circuit breaker is not transient: it fails fast on purpose, and the retry
// layer must give up at once.
func Transient(err error) bool {
	if errors.Is(err, payment.ErrCircuitOpen) {
		return false
	}
	var se *payment.StatusError
	if errors.As(err, &se) {
		switch se.Code {
		case 429, 500, 502, 503, 504:
			return true
		}
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
}
