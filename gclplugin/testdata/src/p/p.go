package p

import (
	"context"
	"time"
)

type Store interface {
	Release(ctx context.Context) error
}

type Client struct{ Store Store }

// retryable is a classifier only because the settings name it.
func (c *Client) retryable(attempt int) bool { return attempt < 5 && c.Store != nil }

// Release is classified through the configured classifier; its delay grows
// without jitter, and without a cap, but no-cap is off.
func (c *Client) Release(ctx context.Context) error {
	delay := 100 * time.Millisecond
	for attempt := 0; ; attempt++ {
		err := c.Store.Release(ctx)
		if err == nil {
			return nil
		}
		if !c.retryable(attempt) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay): // want `no-jitter: retry wait \(delay\) grows`
		}
		delay *= 2
	}
}

// Plain retries every error: the configured classifier is not called.
func (c *Client) Plain(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `unclassified-retry: retry loop retries every error of c.Store.Release`
		if err = c.Store.Release(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second): // want `fixed-sleep: retry loop waits a constant 1s`
		}
	}
	return err
}
