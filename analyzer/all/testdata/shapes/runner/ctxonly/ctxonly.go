// Package ctxonly holds functions that retry work of their own until the
// context they are given ends, and their callers: a caller that gives
// one nobody cancels retries for ever.
package ctxonly

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

var ErrConflict = errors.New("conflict")

type Store struct{ version int }

func (s *Store) write(ctx context.Context, v int) error {
	if v != s.version {
		return ErrConflict
	}
	return nil
}

// SaveWithRetry writes v again while the write conflicts, until ctx
// ends; mutate only prepares the value and never fails.
func (s *Store) SaveWithRetry(ctx context.Context, mutate func(int) int) error {
	d := 10 * time.Millisecond
	for {
		err := s.write(ctx, mutate(s.version))
		if err == nil || !errors.Is(err, ErrConflict) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d + rand.N(d)):
		}
		d = min(2*d, time.Second)
	}
}

// MarkFailed records a failure on a path that must not be cancelled, and
// so gives the retry a context that never ends.
func MarkFailed(s *Store) error {
	return s.SaveWithRetry(context.Background(), func(v int) int { return v + 1 }) // want `unbounded-retry: `
}

// MarkDone gives the retry the caller's context.
func MarkDone(ctx context.Context, s *Store) error {
	return s.SaveWithRetry(ctx, func(v int) int { return v + 1 })
}

// MarkWithin bounds the retry by a deadline of its own.
func MarkWithin(s *Store) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return s.SaveWithRetry(ctx, func(v int) int { return v + 1 })
}

// saveTries retries a bounded number of times: its context is not its
// only bound, and a context nobody cancels is no harm.
func (s *Store) saveTries(ctx context.Context, v int) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = s.write(ctx, v); err == nil || !errors.Is(err, ErrConflict) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(i+1)*100*time.Millisecond + rand.N(100*time.Millisecond)):
		}
	}
	return err
}

func MarkTried(s *Store) error { return s.saveTries(context.Background(), 1) }
