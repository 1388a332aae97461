// Package wrap retries the function value it is given.
package wrap

import (
	"context"
	"math/rand/v2"
	"time"
)

// Do calls f until it succeeds, at most three times.
func Do(ctx context.Context, f func(context.Context) error) error { // want Do:`retries\(3 at wrap/wrap.go:\d+, param 1, blind\)`
	var err error
	for range 3 {
		if err = f(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(200 * time.Millisecond)))):
		}
	}
	return err
}

// Once calls f once.
func Once(ctx context.Context, f func(context.Context) error) error {
	return f(ctx)
}
