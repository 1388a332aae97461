// Package ctxfield holds types that keep their context in a field: a
// time.Sleep in their methods cannot be cancelled by it either.
package ctxfield

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// ErrConflict is a write that lost a race; a retry after a re-read wins.
var ErrConflict = errors.New("conflict")

// Syncer pushes local changes upstream for the life of its context.
type Syncer struct {
	ctx  context.Context
	push func(context.Context) error
}

// Flush retries a conflicting push, but sleeps through cancellation.
func (s *Syncer) Flush() error {
	for attempt := 0; attempt < 5; attempt++ {
		err := s.push(s.ctx)
		if err == nil || !errors.Is(err, ErrConflict) {
			return err
		}
		time.Sleep(rand.N(min(50*time.Millisecond<<attempt, time.Second))) // want `sleep-ignores-context: retry loop waits with time.Sleep although s.ctx is in scope; .* wait in a select on s.ctx.Done\(\) and a timer`
	}
	return ErrConflict
}

// Options configure an agent.
type Options struct {
	Context context.Context
	Every   time.Duration
}

// Agent reports to a collector.
type Agent struct {
	opts   Options
	report func() error
}

// Report reaches the context through the options.
func (a *Agent) Report() error {
	var err error
	for i := range 3 {
		if err = a.report(); err == nil || errors.Is(err, ErrConflict) {
			return err
		}
		time.Sleep(rand.N(min(time.Duration(i+1)*100*time.Millisecond, time.Second))) // want `sleep-ignores-context: .* although a.opts.Context is in scope`
	}
	return err
}

// --- must not be flagged ---

// FlushSelect waits on the field's Done channel.
func (s *Syncer) FlushSelect() error {
	for attempt := 0; attempt < 5; attempt++ {
		err := s.push(s.ctx)
		if err == nil || !errors.Is(err, ErrConflict) {
			return err
		}
		select {
		case <-s.ctx.Done():
			return s.ctx.Err()
		case <-time.After(rand.N(min(50*time.Millisecond<<attempt, time.Second))):
		}
	}
	return ErrConflict
}

// Mirror holds no context.
type Mirror struct {
	copy func() error
}

// Copy sleeps, and has no context to honour.
func (m *Mirror) Copy() error {
	var err error
	for attempt := range 4 {
		if err = m.copy(); err == nil || !errors.Is(err, ErrConflict) {
			return err
		}
		time.Sleep(rand.N(min(time.Second<<attempt, 10*time.Second)))
	}
	return err
}
