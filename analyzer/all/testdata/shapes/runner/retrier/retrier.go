// Package retrier runs an operation under a policy and asks a predicate
// its caller gives whether a failure is worth another try.
package retrier

import (
	"context"
	"time"
)

// Policy says how long to wait before the next try; 0 stops.
type Policy interface {
	Next(attempt int) time.Duration
}

// Retry runs op until it succeeds, the policy stops, the predicate says
// no, or ctx ends.
func Retry(ctx context.Context, op func() error, policy Policy, isRetryable func(error) bool) error {
	for attempt := 0; ; attempt++ {
		err := op()
		if err == nil {
			return nil
		}
		next := policy.Next(attempt)
		if next == 0 {
			return err
		}
		if isRetryable != nil && !isRetryable(err) {
			return err
		}
		t := time.NewTimer(next)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}
