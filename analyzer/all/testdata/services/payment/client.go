// Package payment talks to the card-processing provider.
//
// Every call to the provider goes Request -> Retry -> CircuitBreaker -> API.
// The breaker protects the provider; the retry layer must give up as soon as
// the breaker reports that it is open.
package payment

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"time"

	"services/internal/gobreaker"
)

var (
	// ErrDeclined is a final answer from the issuer. Never retried.
	ErrDeclined = errors.New("payment: card declined")
	// ErrInvalidRequest means the provider rejected the payload (HTTP 400).
	ErrInvalidRequest = errors.New("payment: invalid request")
	// ErrProviderUnavailable is a 503 or a connection failure.
	ErrProviderUnavailable = errors.New("payment: provider unavailable")
	// ErrRateLimited is a 429 from the provider.
	ErrRateLimited = errors.New("payment: rate limited")
)

// ChargeRequest is one card charge.
type ChargeRequest struct {
	IdempotencyKey string
	AmountCents    int64
	Currency       string
	CardToken      string
}

// Receipt is what the provider returns for an authorized charge.
type Receipt struct {
	ID         string
	Authorized time.Time
}

// Provider is the provider's API.
type Provider interface {
	Charge(ctx context.Context, req ChargeRequest) (*Receipt, error)
	Capture(ctx context.Context, receiptID string) error
	Refund(ctx context.Context, receiptID string, amountCents int64) error
	Void(ctx context.Context, receiptID string) error
}

// Client is the retrying, breaker-protected provider client.
type Client struct {
	provider Provider
	breaker  *gobreaker.CircuitBreaker
	strategy RetryStrategy
	log      *slog.Logger
}

// NewClient wires a client with the production defaults: 3 retries,
// 1s base, 60s cap, breaker trips after 5 consecutive failures for 60s.
func NewClient(p Provider, log *slog.Logger) *Client {
	return &Client{
		provider: p,
		breaker: gobreaker.NewCircuitBreaker(gobreaker.Settings{
			Name:    "payment-provider",
			Timeout: 60 * time.Second,
			ReadyToTrip: func(c gobreaker.Counts) bool {
				return c.ConsecutiveFailures >= 5
			},
		}),
		strategy: RetryStrategy{BaseDelay: time.Second, MaxDelay: 60 * time.Second, MaxRetries: 3},
		log:      log,
	}
}

func (c *Client) chargeThroughBreaker(ctx context.Context, req ChargeRequest) (*Receipt, error) {
	res, err := c.breaker.Execute(func() (interface{}, error) {
		return c.provider.Charge(ctx, req)
	})
	if err != nil {
		return nil, err
	}
	return res.(*Receipt), nil
}

// isTransient reports whether err is worth another attempt. Declines,
// validation errors and an open breaker are not.
func isTransient(err error) bool {
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return false
	}
	if errors.Is(err, ErrProviderUnavailable) || errors.Is(err, ErrRateLimited) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
