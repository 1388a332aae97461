package payment

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"services/internal/gobreaker"
)

// Capture settles an authorized charge.
func (c *Client) Capture(ctx context.Context, receiptID string) error {
	backoff := 200 * time.Millisecond
	const maxBackoff = 5 * time.Second
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: ` `unclassified-retry: `
		_, err := c.breaker.Execute(func() (interface{}, error) {
			return nil, c.provider.Capture(ctx, receiptID)
		})
		if err == nil {
			return nil
		}
		// equal jitter
		wait := backoff/2 + rand.N(backoff/2)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		backoff = min(backoff*2, maxBackoff)
	}
	return fmt.Errorf("capture %s: giving up", receiptID)
}

// Refund waits out an open breaker: the provider usually recovers within a
// minute and refunds are not latency sensitive.
func (c *Client) Refund(ctx context.Context, receiptID string, amountCents int64) error {
	delay := 500 * time.Millisecond
	for attempt := 0; attempt < 5; attempt++ { // want `retry-permanent: `
		_, err := c.breaker.Execute(func() (interface{}, error) {
			return nil, c.provider.Refund(ctx, receiptID, amountCents)
		})
		switch {
		case err == nil:
			return nil
		case errors.Is(err, gobreaker.ErrOpenState), errors.Is(err, ErrProviderUnavailable):
			// try again below
		default:
			return err
		}
		sleep := rand.N(delay)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(sleep):
		}
		delay = min(2*delay, 30*time.Second)
	}
	return fmt.Errorf("refund %s: provider unavailable", receiptID)
}

// Void cancels an authorization. An open breaker ends the attempt at once:
// the breaker is failing fast on purpose.
func (c *Client) Void(ctx context.Context, receiptID string) error {
	delay := 250 * time.Millisecond
	for attempt := 1; ; attempt++ {
		_, err := c.breaker.Execute(func() (interface{}, error) {
			return nil, c.provider.Void(ctx, receiptID)
		})
		if err == nil {
			return nil
		}
		if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
			return fmt.Errorf("void %s: %w", receiptID, err)
		}
		if !isTransient(err) || attempt == 3 {
			return err
		}
		t := time.NewTimer(rand.N(delay))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		delay = min(delay*2, 10*time.Second)
	}
}
