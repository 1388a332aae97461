// Package breaker combines the retry layer with the circuit breakers in front
// of the pricing and tax services.
package breaker

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"platform/third_party/github.com/afex/hystrix-go/hystrix"
	"platform/third_party/github.com/sony/gobreaker"
)

var (
	ErrTimeout     = errors.New("upstream timeout")
	ErrUnavailable = errors.New("upstream unavailable")
	ErrBreakerOpen = errors.New("breaker: open, failing fast")
)

// CircuitOpenError is returned by the in-house breaker in front of the tax API.
type CircuitOpenError struct {
	Name  string
	Until time.Time
}

func (e *CircuitOpenError) Error() string {
	return fmt.Sprintf("circuit %s open until %s", e.Name, e.Until.Format(time.RFC3339))
}

type HTTPError struct{ Status int }

func (e *HTTPError) Error() string { return fmt.Sprintf("HTTP %d", e.Status) }

func backoff(attempt int) time.Duration {
	ceil := min(100*time.Millisecond<<min(attempt, 10), 5*time.Second)
	return rand.N(ceil)
}

func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

type Pricing struct {
	cb    *gobreaker.CircuitBreaker
	quote func(ctx context.Context, sku string) (float64, error)
}

func NewPricing(q func(ctx context.Context, sku string) (float64, error)) *Pricing {
	return &Pricing{
		cb:    gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "pricing", Timeout: 60 * time.Second}),
		quote: q,
	}
}

// Quote retries transient failures but gives up at once when the breaker is open.
func (p *Pricing) Quote(ctx context.Context, sku string) (float64, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var v any
		v, err = p.cb.Execute(func() (any, error) { return p.quote(ctx, sku) })
		if err == nil {
			return v.(float64), nil
		}
		if errors.Is(err, gobreaker.ErrOpenState) || !errors.Is(err, ErrTimeout) {
			return 0, err
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(backoff(attempt)):
		}
	}
	return 0, err
}

// QuoteEager is the older variant still used by the catalogue importer.
func (p *Pricing) QuoteEager(ctx context.Context, sku string) (float64, error) {
	var err error
	for attempt := 0; attempt < 5; attempt++ { // want `retry-permanent: `
		var v any
		v, err = p.cb.Execute(func() (any, error) { return p.quote(ctx, sku) })
		if err == nil {
			return v.(float64), nil
		}
		if !errors.Is(err, gobreaker.ErrOpenState) && !errors.Is(err, ErrTimeout) {
			return 0, err
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(backoff(attempt)):
		}
	}
	return 0, err
}

// TaxForOrder calls the tax service through hystrix.
func TaxForOrder(ctx context.Context, orderID string, call func(context.Context) error) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: `
		err = hystrix.DoC(ctx, "tax", call, nil)
		if err == nil {
			return nil
		}
		if err != hystrix.ErrCircuitOpen && err != hystrix.ErrTimeout {
			return fmt.Errorf("tax for %s: %w", orderID, err)
		}
		if werr := wait(ctx, backoff(attempt)); werr != nil {
			return werr
		}
	}
	return err
}

// TaxWithFallback gives up immediately when hystrix short-circuits.
func TaxWithFallback(ctx context.Context, call func(context.Context) error) error {
	var err error
	for attempt := range 3 {
		err = hystrix.DoC(ctx, "tax", call, nil)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, hystrix.ErrCircuitOpen), errors.Is(err, hystrix.ErrMaxConcurrency):
			return err
		case errors.Is(err, hystrix.ErrTimeout):
		default:
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff(attempt)):
		}
	}
	return err
}

// Shipping wraps the carrier API behind the in-house breaker.
type Shipping struct {
	call       func(ctx context.Context) error
	maxRetries int
}

// Rates retries the carrier call.
func (s *Shipping) Rates(ctx context.Context) error {
	var err error
	for i := 0; i <= s.maxRetries; i++ { // want `retry-permanent: `
		err = s.call(ctx)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, ErrBreakerOpen), errors.Is(err, ErrUnavailable):
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(backoff(i)):
			}
		default:
			return err
		}
	}
	return err
}

// Label buys a shipping label; the tax breaker's CircuitOpenError says when to come back.
func (s *Shipping) Label(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry-permanent: `
		err = s.call(ctx)
		if err == nil {
			return nil
		}
		var coe *CircuitOpenError
		var he *HTTPError
		switch {
		case errors.As(err, &coe):
		case errors.As(err, &he) && he.Status >= 500:
		default:
			return err
		}
		if werr := wait(ctx, backoff(i)); werr != nil {
			return werr
		}
	}
	return err
}

// Validate posts the address to the validation service and retries server errors.
func (s *Shipping) Validate(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = s.call(ctx)
		var he *HTTPError
		var coe *CircuitOpenError
		switch {
		case err == nil:
			return nil
		case errors.As(err, &coe):
			return err
		case errors.As(err, &he) && (he.Status == http.StatusServiceUnavailable || he.Status == http.StatusBadGateway || he.Status == http.StatusInternalServerError):
		default:
			return err
		}
		if werr := wait(ctx, backoff(i)); werr != nil {
			return werr
		}
	}
	return err
}
