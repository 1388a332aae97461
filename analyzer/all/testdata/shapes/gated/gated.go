// Package gated retries through helpers that wait only when the error they
// are given is not nil: the call is made on every path, the wait only on
// the failing one.
package gated

import (
	"context"
	"errors"
	"time"

	"shapes/gated/backoff"
)

// Client talks to a control server.
type Client struct{}

// Poll asks for the next map.
func (c *Client) Poll(ctx context.Context) error { return nil }

// ErrTemporary marks a failure worth another try.
var ErrTemporary = errors.New("temporary")

// MapRoutine hands every outcome to the back-off, which waits only after a
// failure: every error is retried.
func MapRoutine(ctx context.Context, c *Client) {
	bo := backoff.New(30 * time.Second)
	for ctx.Err() == nil { // want `unclassified-retry: `
		err := c.Poll(ctx)
		bo.BackOff(ctx, err)
	}
}

// MapRoutineClassified gives up on what is not temporary.
func MapRoutineClassified(ctx context.Context, c *Client) error {
	bo := backoff.New(30 * time.Second)
	for ctx.Err() == nil {
		err := c.Poll(ctx)
		if err != nil && !errors.Is(err, ErrTemporary) {
			return err
		}
		bo.BackOff(ctx, err)
	}
	return ctx.Err()
}

// Pump waits a constant second after a failed poll.
func Pump(ctx context.Context, c *Client) {
	for ctx.Err() == nil { // want `unclassified-retry: `
		err := c.Poll(ctx)
		backoff.Pause(err, time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
}

// Ticker polls once a second whatever the outcome: periodic.
func Ticker(ctx context.Context, c *Client) {
	for ctx.Err() == nil {
		err := c.Poll(ctx)
		_ = err
		backoff.Tick(ctx)
	}
}

// PumpNil hands the back-off a nil error: it never waits.
func PumpNil(ctx context.Context, c *Client, out chan<- error) {
	bo := backoff.New(time.Second)
	for ctx.Err() == nil {
		out <- c.Poll(ctx)
		bo.BackOff(ctx, nil)
	}
}
