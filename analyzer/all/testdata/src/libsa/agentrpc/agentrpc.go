// Package agentrpc is a CI agent's client of its server: every call goes
// through one generic helper around github.com/cenkalti/backoff/v7, and
// what each call's function retries is decided by the function itself.
package agentrpc

import (
	"context"
	"errors"
	"time"

	"github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v7"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

var errNotConnected = errors.New("not connected")

// Conn is the server connection.
type Conn interface {
	Next(ctx context.Context) (string, error)
	Done(ctx context.Context, id string) error
	RemoveVolume(ctx context.Context, name string) error
}

// Client calls the server through Conn.
type Client struct {
	conn      Conn
	connected func() bool
	timeout   time.Duration
}

func (c *Client) options() []backoff.RetryOption {
	b := backoff.NewExponentialBackOff()
	b.MaxInterval = 10 * time.Second
	b.InitialInterval = 10 * time.Millisecond
	return []backoff.RetryOption{backoff.WithBackOff(b), backoff.WithMaxElapsedTime(c.timeout)}
}

// call runs op until it succeeds or marks its failure permanent: the
// helper itself neither reads nor retries any failure of its own.
func call[T any](ctx context.Context, c *Client, op backoff.Operation[T]) (T, error) {
	res, err := backoff.Retry(ctx, op, c.options()...)
	if err != nil {
		var zero T
		return zero, err
	}
	return res, nil
}

// classify keeps Unauthenticated among the failures retried.
func classify(err error) error {
	if err == nil {
		return nil
	}
	switch status.Code(err) {
	case codes.Aborted, codes.Unauthenticated, codes.Unavailable:
		return err
	default:
		return backoff.Permanent(err)
	}
}

// transient retries only what may pass on the next attempt.
func transient(err error) error {
	if err == nil {
		return nil
	}
	if status.Code(err) == codes.Unavailable || errors.Is(err, errNotConnected) {
		return err
	}
	return backoff.Permanent(err)
}

// Next asks for work; a revoked token is retried until the timeout.
func (c *Client) Next(ctx context.Context) (string, error) {
	return call(ctx, c, func() (string, error) { // want `retry-permanent: call retries gRPC Unauthenticated`
		if !c.connected() {
			return "", errNotConnected
		}
		id, err := c.conn.Next(ctx)
		return id, classify(err)
	})
}

// Done reports a finished job and retries only unavailability.
func (c *Client) Done(ctx context.Context, id string) error {
	_, err := call(ctx, c, func() (struct{}, error) {
		return struct{}{}, transient(c.conn.Done(ctx, id))
	})
	return err
}

// DoneChecked reports a finished job, with the check written inline.
func (c *Client) DoneChecked(ctx context.Context, id string) error {
	_, err := call(ctx, c, func() (struct{}, error) {
		err := c.conn.Done(ctx, id)
		if err != nil && status.Code(err) != codes.Unavailable {
			return struct{}{}, backoff.Permanent(err)
		}
		return struct{}{}, err
	})
	return err
}

// DoneBlind reports a finished job and retries whatever failed.
func (c *Client) DoneBlind(ctx context.Context, id string) error {
	_, err := call(ctx, c, func() (struct{}, error) { // want `unclassified-retry: call retries every error`
		return struct{}{}, c.conn.Done(ctx, id)
	})
	return err
}

// DoneDirect calls the library itself with the classifying helper.
func (c *Client) DoneDirect(ctx context.Context, id string) error {
	_, err := backoff.Retry(ctx, func() (struct{}, error) { // want `retry-permanent: backoff.Retry retries gRPC Unauthenticated`
		return struct{}{}, classify(c.conn.Done(ctx, id))
	}, c.options()...)
	return err
}

// RemoveVolume retries only while the volume is in use: any other
// failure is reported as success and not retried.
func (c *Client) RemoveVolume(ctx context.Context, name string) error {
	_, err := backoff.Retry(ctx, func() (any, error) {
		err := c.conn.RemoveVolume(ctx, name)
		if err == nil || !isInUse(err) {
			return nil, nil
		}
		return nil, err
	}, backoff.WithMaxTries(5), backoff.WithBackOff(backoff.NewExponentialBackOff()))
	return err
}

// RemoveVolumeAny tests only for success: every failure is retried.
func (c *Client) RemoveVolumeAny(ctx context.Context, name string) error {
	_, err := backoff.Retry(ctx, func() (any, error) { // want `unclassified-retry: backoff.Retry retries every error`
		err := c.conn.RemoveVolume(ctx, name)
		if err == nil {
			return nil, nil
		}
		return nil, err
	}, backoff.WithMaxTries(5), backoff.WithBackOff(backoff.NewExponentialBackOff()))
	return err
}

func isInUse(err error) bool { return status.Code(err) == codes.FailedPrecondition }

// Doubling sets no MaxInterval: from v5 on, a MaxInterval of 0 brings
// every wait back to InitialInterval, so the doubling never happens.
func (c *Client) Doubling(ctx context.Context, name string) error {
	_, err := backoff.Retry(ctx, func() (any, error) {
		return nil, transient(c.conn.RemoveVolume(ctx, name))
	}, backoff.WithMaxTries(5), backoff.WithBackOff(&backoff.ExponentialBackOff{ // want `fixed-sleep: backoff.Retry waits a constant 1s`
		InitialInterval: time.Second,
		Multiplier:      2,
	}))
	return err
}

// DoublingCapped doubles up to a cap, without jitter.
func (c *Client) DoublingCapped(ctx context.Context, name string) error {
	_, err := backoff.Retry(ctx, func() (any, error) {
		return nil, transient(c.conn.RemoveVolume(ctx, name))
	}, backoff.WithMaxTries(5), backoff.WithBackOff(&backoff.ExponentialBackOff{ // want `no-jitter: `
		InitialInterval: time.Second,
		Multiplier:      2,
		MaxInterval:     time.Minute,
	}))
	return err
}

// withPredicate hands its function to retry-go, whose RetryIf decides:
// what each caller's function returns is read through the predicate.
func withPredicate(ctx context.Context, op func() error) error {
	return retry.Do(op, retry.Context(ctx), retry.RetryIf(func(err error) bool {
		return status.Code(err) == codes.Unavailable
	}))
}

// Ping retries through withPredicate.
func (c *Client) Ping(ctx context.Context, id string) error {
	return withPredicate(ctx, func() error {
		return c.conn.Done(ctx, id)
	})
}
