package runner

import (
	"context"
	"errors"

	"shapes/runner/retrier"
)

var errUnavailable = errors.New("unavailable")

func heartbeat(ctx context.Context) error { return errUnavailable }

func isUnavailable(err error) bool { return errors.Is(err, errUnavailable) }

func always(error) bool { return true }

// HeartbeatAny gives Retry a predicate that never looks at the failure.
func HeartbeatAny(ctx context.Context, p retrier.Policy) error {
	op := func() error { return heartbeat(ctx) }
	any := func(_ error) bool {
		select {
		case <-ctx.Done():
			return false
		default:
			return true
		}
	}
	return retrier.Retry(ctx, op, p, any) // want `unclassified-retry: .*heartbeat`
}

// HeartbeatNil gives it no predicate at all.
func HeartbeatNil(ctx context.Context, p retrier.Policy) error {
	return retrier.Retry(ctx, func() error { return heartbeat(ctx) }, p, nil) // want `unclassified-retry: `
}

// HeartbeatAlways names a predicate that ignores its argument.
func HeartbeatAlways(ctx context.Context, p retrier.Policy) error {
	return retrier.Retry(ctx, func() error { return heartbeat(ctx) }, p, always) // want `unclassified-retry: `
}

// HeartbeatTransient retries only the unavailable error.
func HeartbeatTransient(ctx context.Context, p retrier.Policy) error {
	return retrier.Retry(ctx, func() error { return heartbeat(ctx) }, p, isUnavailable)
}

// HeartbeatLiteral reads the failure in its literal.
func HeartbeatLiteral(ctx context.Context, p retrier.Policy) error {
	return retrier.Retry(ctx, func() error { return heartbeat(ctx) }, p, func(err error) bool {
		return errors.Is(err, errUnavailable)
	})
}

// HeartbeatNonNil gives a predicate that only asks whether there was an
// error: every failure goes round.
func HeartbeatNonNil(ctx context.Context, p retrier.Policy) error {
	return retrier.Retry(ctx, func() error { return heartbeat(ctx) }, p, func(err error) bool { return err != nil }) // want `unclassified-retry: `
}

// RetryAll passes its caller's operation on with a predicate that only
// asks whether there was an error: whatever op is, every failure of it
// goes round, at this call.
func RetryAll(ctx context.Context, op func() error, p retrier.Policy) error {
	return retrier.Retry(ctx, op, p, func(err error) bool { return err != nil }) // want `unclassified-retry: retrier.Retry retries every error of op`
}

// RetryUnavailable passes the operation on with a predicate that reads
// the failure.
func RetryUnavailable(ctx context.Context, op func() error, p retrier.Policy) error {
	return retrier.Retry(ctx, op, p, isUnavailable)
}
