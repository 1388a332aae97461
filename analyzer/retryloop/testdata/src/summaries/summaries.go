// Package summaries holds the helpers whose facts callers in other
// packages read: retry steps, wait helpers and delay helpers, and
// look-alikes that are none of them.
package summaries

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"time"
)

const retryInterval = 5 * time.Second

type stream struct{}

func (*stream) Recv() error { return nil }

type Watcher struct {
	dial func(context.Context) (*stream, error)
}

func consume(*stream) {}

// Watch dials once; where the dial fails it waits before returning, so its
// caller's loop reconnects on a fixed clock.
func (w *Watcher) Watch(ctx context.Context) { // want Watch:`step\(const\)`
	s, err := w.dial(ctx)
	if err != nil {
		log.Printf("watch: %v", err)
		time.Sleep(retryInterval)
		return
	}
	consume(s)
}

// WatchJittered waits a random time, or until the context ends.
func (w *Watcher) WatchJittered(ctx context.Context) { // want WatchJittered:`step\(random\)`
	s, err := w.dial(ctx)
	if err != nil {
		select {
		case <-ctx.Done():
		case <-time.After(time.Duration(rand.Int64N(int64(retryInterval)))):
		}
		return
	}
	consume(s)
}

// Pace waits after every attempt, success or not: a pacer, not a step.
func (w *Watcher) Pace(ctx context.Context) { // want Pace:`waits`
	if s, err := w.dial(ctx); err == nil {
		consume(s)
	}
	time.Sleep(time.Second)
}

// Once dials and reports; it never waits.
func (w *Watcher) Once(ctx context.Context) error {
	s, err := w.dial(ctx)
	if err != nil {
		return err
	}
	consume(s)
	return nil
}

var errClosed = errors.New("closed")

// Close waits for a drain after it succeeded: not a step either.
func Close(ctx context.Context, c interface{ Close() error }) error { // want Close:`waits`
	if err := c.Close(); err != nil {
		return err
	}
	time.Sleep(100 * time.Millisecond)
	return nil
}
