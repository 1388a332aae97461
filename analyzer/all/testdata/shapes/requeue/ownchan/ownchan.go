// Package ownchan deletes keys from a remote store with a worker that
// reads them from a channel. A worker that sends a key whose delete failed
// back on the channel it reads from runs the delete on that key again: a
// retry, paced by whatever it waits before the next round.
package ownchan

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Clock is an injected clock, as tests swap it for a fake one.
type Clock interface {
	Sleep(d time.Duration)
	After(d time.Duration) <-chan time.Time
}

// Store deletes keys remotely.
type Store interface {
	Delete(ctx context.Context, key string) error
}

// ErrNotFound is a key that is gone already.
var ErrNotFound = errors.New("not found")

type Sweeper struct {
	pending chan string
	failed  chan string
	clk     Clock
	store   Store
}

// Sweep re-queues every failed delete and sleeps on the clock, doubling up
// to a minute: every error goes round, the wait has no jitter, and the
// clock's Sleep does not end with ctx.
func (s *Sweeper) Sweep(ctx context.Context) {
	wait := time.Second
	for { // want `unclassified-retry: `
		select {
		case <-ctx.Done():
			return
		case key := <-s.pending:
			err := s.store.Delete(ctx, key)
			if err == nil {
				wait = time.Second
				continue
			}
			select {
			case s.pending <- key:
			default:
			}
			wait = min(wait*2, time.Minute)
			s.clk.Sleep(wait) // want `no-jitter: ` `sleep-ignores-context: `
		}
	}
}

// SweepOnce re-queues with a blocking send and a constant pause.
func (s *Sweeper) SweepOnce(ctx context.Context) {
	for { // want `unclassified-retry: `
		select {
		case <-ctx.Done():
			return
		case key := <-s.pending:
			if err := s.store.Delete(ctx, key); err != nil {
				s.pending <- key
				select {
				case <-ctx.Done():
					return
				case <-time.After(2 * time.Second): // want `fixed-sleep: `
				}
			}
		}
	}
}

// SweepClassified drops keys that are gone and waits a jittered, capped
// back-off with the context: nothing to report.
func (s *Sweeper) SweepClassified(ctx context.Context) {
	wait := time.Second
	for {
		select {
		case <-ctx.Done():
			return
		case key := <-s.pending:
			err := s.store.Delete(ctx, key)
			if err == nil || errors.Is(err, ErrNotFound) {
				wait = time.Second
				continue
			}
			s.pending <- key
			wait = min(wait*2, time.Minute)
			select {
			case <-ctx.Done():
				return
			case <-s.clk.After(rand.N(wait)):
			}
		}
	}
}

// SweepDeadLetter hands a failed key to another channel, which this
// worker never reads: the key moves on, it is not tried again here.
func (s *Sweeper) SweepDeadLetter(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case key := <-s.pending:
			if err := s.store.Delete(ctx, key); err != nil {
				s.failed <- key
				time.Sleep(time.Second)
			}
		}
	}
}

// SweepOther sends a different key back after a failure: the failed one
// is not tried again.
func (s *Sweeper) SweepOther(ctx context.Context, next func() string) {
	for {
		select {
		case <-ctx.Done():
			return
		case key := <-s.pending:
			if err := s.store.Delete(ctx, key); err != nil {
				s.pending <- next()
				time.Sleep(time.Second)
			}
		}
	}
}

// Drain deletes each key once and pauses after a failure: no key is
// re-queued, so nothing is retried.
func (s *Sweeper) Drain(ctx context.Context) {
	for key := range s.pending {
		if err := s.store.Delete(ctx, key); err != nil {
			time.Sleep(time.Second)
		}
	}
}
