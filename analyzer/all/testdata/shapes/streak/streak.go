// Package streak holds loops with counters: one that counts successes in
// a row is no attempt limit, one that counts failures in a row is.
package streak

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"time"
)

// ErrFatal is a health check that will never pass.
var ErrFatal = errors.New("fatal")

// WaitStable waits for three healthy checks in a row. A failure starts the
// count again, so a backend that stays down keeps it looping forever.
func WaitStable(ctx context.Context, check func(context.Context) error) {
	stable := 0
	for stable < 3 { // want `unbounded-retry: ` `unclassified-retry: `
		if err := check(ctx); err == nil {
			stable++
			continue
		}
		stable = 0
		time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
}

// Settle is the same with an else and the limit tested inside.
func Settle(probe func() error) {
	ok := 0
	for { // want `unbounded-retry: ` `unclassified-retry: `
		if probe() == nil {
			ok++
		} else {
			ok = 0
			time.Sleep(2 * time.Second) // want `fixed-sleep: `
		}
		if ok >= 5 {
			return
		}
	}
}

// --- must not be flagged ---

// WaitStablePolitely ends with ctx, gives up on a fatal check and jitters.
func WaitStablePolitely(ctx context.Context, check func(context.Context) error) error {
	stable := 0
	for stable < 3 {
		err := check(ctx)
		if err == nil {
			stable++
			continue
		}
		if errors.Is(err, ErrFatal) {
			return err
		}
		stable = 0
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Second)):
		}
	}
	return nil
}

// Follow tails a feed and gives up after five failures in a row; a
// success starts the count again, which still bounds an outage.
func Follow(next func() ([]byte, error), apply func([]byte)) error {
	failures := 0
	backoff := 100 * time.Millisecond
	for failures < 5 { // want `unclassified-retry: `
		b, err := next()
		if err != nil {
			failures++
			log.Printf("feed: %v", err)
			time.Sleep(rand.N(backoff))
			backoff = min(backoff*2, 10*time.Second)
			continue
		}
		failures = 0
		backoff = 100 * time.Millisecond
		apply(b)
	}
	return errors.New("feed is down")
}

// Attempts counts attempts, not successes.
func Attempts(ctx context.Context, op func(context.Context) error) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = op(ctx); err == nil || errors.Is(err, ErrFatal) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(min(time.Second<<attempt, 8*time.Second))):
		}
	}
	return err
}
