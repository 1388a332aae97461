package upstream

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/sony/gobreaker"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// retryableStatus is read: it retries 401 besides 429 and 5xx.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusUnauthorized, http.StatusTooManyRequests:
		return true
	}
	return code >= 500
}

// transientStatus is read: 429 and 5xx only.
func transientStatus(code int) bool {
	return code == http.StatusTooManyRequests || code/100 == 5
}

func (c *Client) ThroughPredicate(ctx context.Context, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: retry loop retries HTTP 401`
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusOK {
			return resp, nil
		}
		resp.Body.Close()
		if !retryableStatus(resp.StatusCode) {
			return nil, errors.New(resp.Status)
		}
		_ = pause(ctx, attempt)
	}
	return nil, errors.New("gave up")
}

// breakerRetryable lists the breaker's open error among what it retries.
func breakerRetryable(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, gobreaker.ErrOpenState)
}

func (c *Client) BreakerPredicate(ctx context.Context, sku string) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: retry loop retries the circuit breaker's open error`
		_, err = c.breaker.Execute(func() (interface{}, error) { return nil, c.inv.Reserve(ctx, sku) })
		if err == nil || !breakerRetryable(err) {
			return err
		}
		_ = pause(ctx, attempt)
	}
	return err
}

// A table of codes to retry, PermissionDenied among them.
var retryCodes = map[codes.Code]bool{
	codes.Unavailable:      true,
	codes.PermissionDenied: true,
}

func (c *Client) Table(ctx context.Context, sku string) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: retry loop retries gRPC PermissionDenied`
		if err = c.inv.Reserve(ctx, sku); err == nil {
			return nil
		}
		if !retryCodes[status.Code(err)] {
			return err
		}
		_ = pause(ctx, attempt)
	}
	return err
}

// The code is read into a variable first.
func (c *Client) CodeVar(ctx context.Context, sku string) error {
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: retry loop retries gRPC Unauthenticated`
		err := c.inv.Reserve(ctx, sku)
		if err == nil {
			return nil
		}
		if code := status.Code(err); code != codes.Unauthenticated && code != codes.Unavailable {
			return err
		}
		time.Sleep(rand.N(time.Second))
	}
	return errors.New("gave up")
}

// --- must not be flagged ---

func (c *Client) TransientPredicate(ctx context.Context, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if !transientStatus(resp.StatusCode) {
			return resp, nil
		}
		resp.Body.Close()
		_ = pause(ctx, attempt)
	}
	return nil, errors.New("gave up")
}

// A predicate that cannot be read is trusted.
func (c *Client) OpaquePredicate(ctx context.Context, req *http.Request, retry func(int) bool) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusOK || !retry(resp.StatusCode) {
			return resp, nil
		}
		resp.Body.Close()
		_ = pause(ctx, attempt)
	}
	return nil, errors.New("gave up")
}

var transientCodes = map[codes.Code]bool{
	codes.Unavailable:       true,
	codes.ResourceExhausted: true,
}

func (c *Client) TransientTable(ctx context.Context, sku string) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = c.inv.Reserve(ctx, sku); err == nil {
			return nil
		}
		if !transientCodes[status.Code(err)] {
			return err
		}
		_ = pause(ctx, attempt)
	}
	return err
}

// A breaker predicate that gives up on the open error.
func giveUpWhenOpen(err error) bool {
	if errors.Is(err, gobreaker.ErrOpenState) {
		return false
	}
	return errors.Is(err, context.DeadlineExceeded)
}

func (c *Client) BreakerGivesUp(ctx context.Context, sku string) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		_, err = c.breaker.Execute(func() (interface{}, error) { return nil, c.inv.Reserve(ctx, sku) })
		if err == nil || !giveUpWhenOpen(err) {
			return err
		}
		_ = pause(ctx, attempt)
	}
	return err
}

// Only 503 goes round: the error check and the status check exclude each
// other, so no path retries a 400.
func (c *Client) OnlyUnavailable(ctx context.Context, req *http.Request) (*http.Response, error) {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var resp *http.Response
		resp, err = c.hc.Do(req)
		if err == nil && resp.StatusCode == http.StatusOK {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusServiceUnavailable {
				return nil, errors.New(resp.Status)
			}
		}
		_ = pause(ctx, attempt)
	}
	return nil, err
}

// shouldRetry looks at the response: 429 and 5xx gateways only.
func shouldRetry(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable:
		return true
	}
	return false
}

// retryAuth also retries 401 through the response.
func retryAuth(resp *http.Response) bool {
	return resp.StatusCode == http.StatusUnauthorized || resp.StatusCode >= 500
}

func (c *Client) ResponsePredicate(ctx context.Context, req *http.Request) error {
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode < 300 {
			return nil
		}
		if !shouldRetry(resp) {
			return errors.New(resp.Status)
		}
		_ = pause(ctx, attempt)
	}
	return errors.New("gave up")
}

func (c *Client) ResponsePredicateAuth(ctx context.Context, req *http.Request) error {
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: retry loop retries HTTP 401`
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		if !retryAuth(resp) {
			return errors.New(resp.Status)
		}
		_ = pause(ctx, attempt)
	}
	return errors.New("gave up")
}
