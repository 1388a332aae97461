// Package payment is the payment client of retrylint's seed incident, as it
// was before the incident: every retry loop here is one that retrylint flags.
//
// The client ran on 10 instances. When the payment provider had a 10-second
// outage during a deploy, all 10 retried in lock-step every second (up to 10
// calls a second, 50 in 5 seconds); the burst landed just as the provider
// recovered, its circuit breaker (5 failures, 60 s open) tripped, and the
// 10-second outage became a 60-second stop.
//
// Run "retrylint code ./examples/payment" to see the findings, and compare
// with package [github.com/retrylint/retrylint/examples/payment/fixed].
package payment

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrCircuitOpen is returned by the circuit breaker in front of the
// provider while it is open: it fails fast on purpose.
var ErrCircuitOpen = errors.New("payment: circuit breaker is open")

// StatusError is a provider response with a non-2xx HTTP status.
type StatusError struct {
	Code int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("payment: provider answered HTTP %d", e.Code)
}

// Request is a payment to make.
type Request struct {
	ID          string // idempotency key
	AmountCents int64
	Currency    string
}

// Receipt confirms a payment.
type Receipt struct {
	ID string
}

// Provider is the payment provider's API, behind a circuit breaker.
type Provider interface {
	Charge(ctx context.Context, req Request) (Receipt, error)
	Refund(ctx context.Context, receiptID string) error
}

// Client calls the provider with retries.
type Client struct {
	Provider Provider
}

// Charge is the loop of the incident: up to 5 attempts, a fixed second
// between them, any error retried (the breaker's ErrCircuitOpen and a
// rejected card alike), and a sleep that the request's context cannot
// interrupt.
func (c *Client) Charge(ctx context.Context, req Request) (Receipt, error) {
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		r, err := c.Provider.Charge(ctx, req)
		if err == nil {
			return r, nil
		}
		lastErr = err
		time.Sleep(1 * time.Second)
	}
	return Receipt{}, fmt.Errorf("charge %s: %w", req.ID, lastErr)
}

// Refund is the first attempt at a fix: errors are classified, but 401 and
// an open breaker count as retryable, and the backoff has neither jitter nor
// a cap: the instances still fire together, the 10th try after 4 minutes.
func (c *Client) Refund(ctx context.Context, receiptID string) error {
	delay := time.Second
	for attempt := 0; ; attempt++ {
		err := c.Provider.Refund(ctx, receiptID)
		if err == nil {
			return nil
		}
		var se *StatusError
		switch {
		case errors.Is(err, ErrCircuitOpen):
			// "The breaker closes again soon": wait for it.
		case errors.As(err, &se) && (se.Code == 401 || se.Code == 429 || se.Code >= 500):
			// An expired token, throttling or a server error: try again.
		default:
			return fmt.Errorf("refund %s: %w", receiptID, err)
		}
		if attempt == 9 {
			return fmt.Errorf("refund %s: %w", receiptID, err)
		}
		time.Sleep(delay)
		delay *= 2
	}
}
