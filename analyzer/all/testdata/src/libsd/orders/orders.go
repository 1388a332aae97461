// Package orders is an order service that retries with failsafe-go's
// retrypolicy.
package orders

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/failsafe-go/failsafe-go/timeout"
)

var (
	ErrUnavailable = errors.New("unavailable")
	ErrInvalid     = errors.New("invalid order")
)

// Client calls the order backend.
type Client struct {
	http   *http.Client
	base   string
	policy retrypolicy.RetryPolicy[any]
}

// New keeps a policy built by a constructor of the package.
func New(h *http.Client, base string) *Client {
	return &Client{http: h, base: base, policy: newPolicy()}
}

func newPolicy() retrypolicy.RetryPolicy[any] {
	return retrypolicy.NewBuilder[any]().
		HandleErrors(ErrUnavailable).
		WithMaxRetries(4).
		WithBackoff(100*time.Millisecond, 5*time.Second).
		WithJitterFactor(0.2).
		Build()
}

func (c *Client) get(ctx context.Context, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	return c.http.Do(req)
}

func (c *Client) ping(ctx context.Context) error {
	resp, err := c.get(ctx, "/ping")
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		return ErrUnavailable
	}
	return nil
}

// Ping retries through the policy kept in the client: bounded, jittered,
// capped and classified.
func (c *Client) Ping(ctx context.Context) error {
	return failsafe.With[any](c.policy).WithContext(ctx).Run(func() error {
		return c.ping(ctx)
	})
}

// Fetch uses the defaults: 2 retries, no delay, every error handled.
func (c *Client) Fetch(ctx context.Context, id string) (any, error) {
	rp := retrypolicy.NewWithDefaults[any]()
	return failsafe.With[any](rp).WithContext(ctx).Get(func() (any, error) { // want `unclassified-retry: .*HandleErrors`
		resp, err := c.get(ctx, "/orders/"+id)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		return resp.Status, nil
	})
}

// Submit retries forever on a constant delay, without a context.
func (c *Client) Submit(ctx context.Context, id string) error {
	rp := retrypolicy.NewBuilder[any]().
		HandleErrors(ErrUnavailable).
		WithMaxRetries(-1).
		WithDelay(time.Second). // want `fixed-sleep: .*WithBackoff`
		Build()
	return failsafe.With[any](rp).Run(func() error { // want `unbounded-retry: .*WithMaxRetries` `sleep-ignores-context: .*WithContext\(ctx\)`
		return c.ping(ctx)
	})
}

// Cancel grows its wait without jitter.
func (c *Client) Cancel(ctx context.Context, id string) error {
	b := retrypolicy.NewBuilder[any]()
	b.HandleErrors(ErrUnavailable)
	b.WithMaxAttempts(6)
	rp := b.WithBackoff(200*time.Millisecond, 10*time.Second).Build() // want `no-jitter: .*WithJitterFactor`
	return failsafe.With[any](rp).WithContext(ctx).Run(func() error {
		return c.ping(ctx)
	})
}

// Status retries 404s through its predicate.
func (c *Client) Status(ctx context.Context, id string) error {
	rp := retrypolicy.NewBuilder[any]().
		HandleIf(func(_ any, err error) bool {
			var se *statusError
			return errors.As(err, &se) && (se.code == http.StatusNotFound || se.code >= 500)
		}).
		WithMaxRetries(3).
		WithRandomDelay(100*time.Millisecond, time.Second).
		Build()
	return failsafe.With[any](rp).WithContext(ctx).Run(func() error { // want `retry-permanent: .*HTTP 404`
		resp, err := c.get(ctx, "/orders/"+id+"/status")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return &statusError{code: resp.StatusCode}
		}
		return nil
	})
}

type statusError struct{ code int }

func (e *statusError) Error() string { return fmt.Sprintf("status %d", e.code) }

// Refund aborts on invalid orders, and a timeout outside the retries
// bounds them all.
func (c *Client) Refund(ctx context.Context, id string) error {
	rp := retrypolicy.NewBuilder[any]().
		AbortOnErrors(ErrInvalid).
		WithMaxRetries(-1).
		WithBackoff(time.Second, 30*time.Second).
		WithJitter(100 * time.Millisecond).
		Build()
	return failsafe.With[any](timeout.New[any](time.Minute), rp).Run(func() error { // want `sleep-ignores-context: .*WithContext\(ctx\)`
		return c.ping(ctx)
	})
}

// Once makes a single attempt: no retry.
func (c *Client) Once(ctx context.Context) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxRetries(0).Build()
	return failsafe.With[any](rp).Run(func() error {
		return c.ping(ctx)
	})
}

// Breaker is composed with a policy from elsewhere: nothing to say.
func (c *Client) Breaker(ctx context.Context, p retrypolicy.RetryPolicy[any]) error {
	return failsafe.With[any](p).WithContext(ctx).Run(func() error {
		return c.ping(ctx)
	})
}
