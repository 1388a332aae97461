// Package clean retries well: retrylint must report nothing.
package clean

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

var errTransient = errors.New("transient")

func call(ctx context.Context) error { return ctx.Err() }

// Fetch retries the transient failures of call up to 3 times, with capped
// exponential backoff and full jitter, and stops when ctx is done.
func Fetch(ctx context.Context) error {
	backoff := 100 * time.Millisecond
	for attempt := 0; ; attempt++ {
		err := call(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errTransient) || attempt == 3 {
			return err
		}
		t := time.NewTimer(rand.N(backoff))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}
