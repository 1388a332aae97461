// Package gcs calls a Google Cloud API through gax-go's retries.
package gcs

import (
	"context"
	"errors"
	"net/http"
	"time"

	gax "github.com/googleapis/gax-go/v2"
	"google.golang.org/grpc/codes"
)

// CallOptions are the per-method options of the client, as generated
// clients keep them.
type CallOptions struct {
	GetObject    []gax.CallOption
	ListObjects  []gax.CallOption
	DeleteObject []gax.CallOption
}

// Client is a hand-written client over a generated transport.
type Client struct {
	opts *CallOptions
}

func (c *Client) rpc(ctx context.Context, _ gax.CallSettings) error { return nil }

// GetObject makes a call in the request's context; the retryer accepts
// only transient codes.
func (c *Client) GetObject(ctx context.Context, name string) error {
	return gax.Invoke(ctx, c.rpc, gax.WithRetry(func() gax.Retryer {
		return gax.OnCodes([]codes.Code{codes.Unavailable, codes.ResourceExhausted}, gax.Backoff{
			Initial:    100 * time.Millisecond,
			Max:        60 * time.Second,
			Multiplier: 1.3,
		})
	}))
}

// Compact runs from a timer without a context of its own.
func (c *Client) Compact() error {
	return gax.Invoke(context.Background(), c.rpc, gax.WithRetry(func() gax.Retryer { // want `unbounded-retry: .*gax.WithTimeout`
		return gax.OnCodes([]codes.Code{codes.Unavailable}, gax.Backoff{Initial: time.Second})
	}))
}

// Expire runs from a timer with a time budget.
func (c *Client) Expire() error {
	return gax.Invoke(context.Background(), c.rpc, gax.WithTimeout(2*time.Minute), gax.WithRetry(func() gax.Retryer {
		return gax.OnCodes([]codes.Code{codes.Unavailable}, gax.Backoff{Initial: time.Second})
	}))
}

// Notifications waits for a notification config that may not exist yet.
func (c *Client) Notifications(ctx context.Context) error {
	retryable := []codes.Code{codes.Unavailable, codes.NotFound}
	return gax.Invoke(ctx, c.rpc, gax.WithRetry(func() gax.Retryer { // want `retry-permanent: .*gRPC NotFound`
		return gax.OnCodes(retryable, gax.Backoff{Initial: 200 * time.Millisecond, Max: 5 * time.Second})
	}))
}

// Upload retries every failure the transport reports.
func (c *Client) Upload(ctx context.Context) error {
	return gax.Invoke(ctx, c.rpc, gax.WithRetry(func() gax.Retryer { // want `unclassified-retry: .*gax.OnCodes`
		return gax.OnErrorFunc(gax.Backoff{}, func(err error) bool { return err != nil })
	}))
}

// Rewrite is detached from the caller's context.
func (c *Client) Rewrite(ctx context.Context) error {
	return gax.Invoke(context.Background(), c.rpc, gax.WithRetry(func() gax.Retryer { // want `sleep-ignores-context: .*pass ctx to gax.Invoke` `unbounded-retry: `
		return gax.OnHTTPCodes(gax.Backoff{}, http.StatusBadGateway, http.StatusServiceUnavailable)
	}))
}

// Signed retries HTTP statuses, 403 included.
func (c *Client) Signed(ctx context.Context) error {
	return gax.Invoke(ctx, c.rpc, gax.WithRetry(func() gax.Retryer { // want `retry-permanent: .*HTTP 403`
		return gax.OnHTTPCodes(gax.Backoff{}, http.StatusForbidden, http.StatusServiceUnavailable)
	}))
}

// NewCallOptions are the client's defaults.
func NewCallOptions() *CallOptions {
	return &CallOptions{
		GetObject: []gax.CallOption{
			gax.WithTimeout(30 * time.Second),
			gax.WithRetry(func() gax.Retryer {
				return gax.OnCodes([]codes.Code{codes.Unavailable, codes.DeadlineExceeded}, gax.Backoff{
					Initial: 100 * time.Millisecond, Max: 30 * time.Second, Multiplier: 1.3,
				})
			}),
		},
		DeleteObject: []gax.CallOption{
			gax.WithRetry(func() gax.Retryer { // want `retry-permanent: .*gRPC NotFound`
				return gax.OnCodes([]codes.Code{codes.Unavailable, codes.NotFound}, gax.Backoff{})
			}),
		},
	}
}

// Objects is a generated client's method.
func (c *Client) Objects(ctx context.Context, prefix string, opts ...gax.CallOption) error {
	return nil
}

// ListAll passes a retryer of transient codes to the client's method.
func (c *Client) ListAll(ctx context.Context) error {
	return c.Objects(ctx, "", gax.WithRetry(func() gax.Retryer {
		return gax.OnCodes([]codes.Code{codes.Unavailable, codes.Aborted}, gax.Backoff{Initial: 50 * time.Millisecond, Max: 2 * time.Second})
	}))
}

func transient(err error) bool {
	var he interface{ HTTPCode() int }
	if errors.As(err, &he) {
		return he.HTTPCode() == http.StatusTooManyRequests || he.HTTPCode() >= 500
	}
	return false
}

// Compose retries what its predicate calls transient.
func (c *Client) Compose(ctx context.Context) error {
	return gax.Invoke(ctx, c.rpc, gax.WithTimeout(time.Minute), gax.WithRetry(func() gax.Retryer {
		return gax.OnErrorFunc(gax.Backoff{Initial: time.Second, Max: 32 * time.Second, Multiplier: 2}, transient)
	}))
}

// Head makes one attempt: no retryer is given.
func (c *Client) Head(ctx context.Context) error {
	return gax.Invoke(ctx, c.rpc, gax.WithTimeout(10*time.Second))
}

// Batch keeps a retryer per call, as a generated client's option does.
func (c *Client) Batch(ctx context.Context, names []string) error {
	retry := gax.WithRetry(func() gax.Retryer {
		return gax.OnCodes([]codes.Code{codes.Unavailable, codes.DeadlineExceeded}, gax.Backoff{
			Initial: 100 * time.Millisecond, Max: 10 * time.Second, Multiplier: 2,
		})
	})
	for _, n := range names {
		if err := c.Objects(ctx, n, retry); err != nil {
			return err
		}
	}
	return nil
}
