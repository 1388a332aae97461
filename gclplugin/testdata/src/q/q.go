package q

import (
	"context"
	"time"
)

type Store interface {
	Release(ctx context.Context) error
}

type Client struct{ Store Store }

// retryable is no classifier: no settings name it.
func (c *Client) retryable(attempt int) bool { return attempt < 5 && c.Store != nil }

// Release is not classified without settings, and its delay grows
// without jitter or cap.
func (c *Client) Release(ctx context.Context) error {
	delay := 100 * time.Millisecond
	for attempt := 0; ; attempt++ { // want `unclassified-retry: retry loop retries every error`
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
		case <-time.After(delay): // want `no-cap: retry wait \(delay\) grows` `no-jitter: retry wait \(delay\) grows`
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
		// want +1 `invalid-suppression: retrylint:ignore suppresses nothing: "fixed-slep" is no rule \(did you mean fixed-sleep\?\)`
		//retrylint:ignore fixed-slep the store asks for one second
		case <-time.After(time.Second): // want `fixed-sleep: retry loop waits a constant 1s`
		}
	}
	return err
}
