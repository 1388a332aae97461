// Package attempts runs an operation a few times, pausing with
// time.Sleep: no context can cut a pause short. Retry takes the operation
// and a predicate and hands the runner an adapter of both.
package attempts

import (
	"context"
	"math/rand/v2"
	"time"
)

// run calls step until it succeeds, n times at most.
func run(n int, step func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = step(); err == nil {
			return nil
		}
		time.Sleep(rand.N(min(time.Duration(1<<i)*100*time.Millisecond, 2*time.Second)))
	}
	return err
}

// permanent wraps an error the runner must not retry.
type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }

// Retry runs f through run, asking retryable whether to go on.
func Retry(f func() error, retryable func(error) bool) error {
	step := func() error {
		err := f()
		if err != nil && !retryable(err) {
			return permanent{err}
		}
		return err
	}
	return run(5, step)
}

// RetryCtx pauses in a select on ctx: a caller's cancellation ends it.
// It retries whatever f returns: each caller's attempt classifies.
func RetryCtx(ctx context.Context, f func() error) error {
	var err error
	for i := 0; i < 5; i++ { // want `unclassified-retry: `
		if err = f(); err == nil {
			return nil
		}
		t := time.NewTimer(rand.N(min(time.Duration(1<<i)*100*time.Millisecond, 2*time.Second)))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return err
}
