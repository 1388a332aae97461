// Package upstream holds HTTP and gRPC clients whose retries classify
// failures, some of them wrongly.
package upstream

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/afex/hystrix-go/hystrix"
	"github.com/sony/gobreaker"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type Inventory interface {
	Reserve(ctx context.Context, sku string) error
}

type Client struct {
	hc      *http.Client
	inv     Inventory
	breaker *gobreaker.CircuitBreaker
}

var ErrBreakerOpen = errors.New("payment breaker open")

func pause(ctx context.Context, attempt int) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(rand.N(min(time.Duration(100<<attempt)*time.Millisecond, 5*time.Second))):
		return nil
	}
}

// Every 4xx is retried, including 400, 401 and 403.
func (c *Client) AnyClientError(ctx context.Context, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: retry loop retries HTTP 400, 401, 403, 404, 405, 410, 422`
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode >= 400 {
			resp.Body.Close()
			_ = pause(ctx, attempt)
			continue
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

// A status switch that lists 401 among the retryable codes.
func (c *Client) Switch(ctx context.Context, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: retry loop retries HTTP 401,`
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusOK, http.StatusCreated:
			return resp, nil
		case http.StatusUnauthorized, http.StatusTooManyRequests, http.StatusServiceUnavailable:
			resp.Body.Close()
			_ = pause(ctx, attempt)
		default:
			return resp, errors.New(resp.Status)
		}
	}
	return nil, errors.New("gave up")
}

// Anything but 200 is retried.
func (c *Client) NotOK(ctx context.Context, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 3; attempt++ { // want `retry-permanent`
		resp, err := c.hc.Do(req)
		if err == nil && resp.StatusCode == http.StatusOK {
			return resp, nil
		}
		_ = pause(ctx, attempt)
	}
	return nil, errors.New("gave up")
}

// gRPC: retrying InvalidArgument cannot help.
func (c *Client) GRPC(ctx context.Context, sku string) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: retry loop retries gRPC InvalidArgument`
		err = c.inv.Reserve(ctx, sku)
		if err == nil {
			return nil
		}
		switch status.Code(err) {
		case codes.Unavailable, codes.InvalidArgument, codes.DeadlineExceeded:
			_ = pause(ctx, attempt)
		default:
			return err
		}
	}
	return err
}

// gRPC: everything but NotFound is retried, PermissionDenied included.
func (c *Client) GRPCExcept(ctx context.Context, sku string) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: retry loop retries gRPC InvalidArgument, gRPC PermissionDenied, gRPC Unauthenticated`
		err = c.inv.Reserve(ctx, sku)
		if err == nil {
			return nil
		}
		if st, ok := status.FromError(err); ok && st.Code() == codes.NotFound {
			return err
		}
		_ = pause(ctx, attempt)
	}
	return err
}

// The seed: Request -> Retry -> CircuitBreaker -> API, and the retry does
// not give up when the breaker is open.
func (c *Client) ThroughBreaker(ctx context.Context, sku string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry-permanent: retry loop retries the circuit breaker's open error`
		_, err = c.breaker.Execute(func() (interface{}, error) {
			return nil, c.inv.Reserve(ctx, sku)
		})
		if err == nil {
			return nil
		}
		_ = pause(ctx, attempt)
	}
	return err
}

// Waiting out an open breaker on purpose.
func (c *Client) WaitOutBreaker(ctx context.Context, sku string) error {
	for attempt := 0; attempt < 5; attempt++ { // want `retry-permanent: retry loop retries the circuit breaker's open error`
		err := hystrix.Do("inventory", func() error { return c.inv.Reserve(ctx, sku) }, nil)
		if err == nil {
			return nil
		}
		if errors.Is(err, hystrix.ErrCircuitOpen) {
			time.Sleep(rand.N(2 * time.Second))
			continue
		}
		return err
	}
	return errors.New("inventory unavailable")
}

// --- must not be flagged ---

// 429 and 5xx only.
func (c *Client) Transient(ctx context.Context, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			resp.Body.Close()
			_ = pause(ctx, attempt)
			continue
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

// 408, 409, 425 and 5xx with a switch.
func (c *Client) Conflicts(ctx context.Context, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooEarly,
			http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			resp.Body.Close()
			_ = pause(ctx, attempt)
		default:
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

// 4xx returned at once, the rest retried.
func (c *Client) FourHundredsOut(ctx context.Context, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := c.hc.Do(req)
		if err != nil {
			_ = pause(ctx, attempt)
			continue
		}
		if resp.StatusCode < 500 {
			return resp, nil
		}
		resp.Body.Close()
		_ = pause(ctx, attempt)
	}
	return nil, errors.New("gave up")
}

// 5xx by hundreds.
func (c *Client) Hundreds(ctx context.Context, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode/100 != 5 {
			return resp, nil
		}
		resp.Body.Close()
		_ = pause(ctx, attempt)
	}
	return nil, errors.New("gave up")
}

// gRPC transient codes only.
func (c *Client) GRPCTransient(ctx context.Context, sku string) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		err = c.inv.Reserve(ctx, sku)
		if err == nil {
			return nil
		}
		switch status.Code(err) {
		case codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted, codes.Aborted:
			_ = pause(ctx, attempt)
		default:
			return err
		}
	}
	return err
}

// The breaker's open error ends the retry at once.
func (c *Client) BreakerAware(ctx context.Context, sku string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		_, err = c.breaker.Execute(func() (interface{}, error) {
			return nil, c.inv.Reserve(ctx, sku)
		})
		if err == nil || errors.Is(err, gobreaker.ErrOpenState) {
			return err
		}
		_ = pause(ctx, attempt)
	}
	return err
}

// A same-package breaker whose open error is classified as permanent.
func (c *Client) callWithBreaker(ctx context.Context, sku string) error {
	if rand.N(10) == 0 {
		return ErrBreakerOpen
	}
	return c.inv.Reserve(ctx, sku)
}

func (c *Client) OwnBreaker(ctx context.Context, sku string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = c.callWithBreaker(ctx, sku)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, ErrBreakerOpen):
			return err
		}
		_ = pause(ctx, attempt)
	}
	return err
}

// No retry at all: a 400 is just returned.
func (c *Client) Once(req *http.Request) (*http.Response, error) {
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 400 {
		return nil, errors.New(resp.Status)
	}
	return resp, nil
}
