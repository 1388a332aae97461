// Package ctxallow holds retry loops whose classification is an allow-list
// of transient failures: when the operation is given the loop's context,
// its context.Canceled is not on the list, so the loop leaves when the
// context ends. Without the context, or with a list that takes the
// context's error too, nothing ends the loop.
package ctxallow

import (
	"context"
	"errors"
	"io"
	"log"
	"math/rand/v2"
	"strings"
	"time"
)

var (
	errNotReady   = errors.New("not ready")
	errQuorumLost = errors.New("quorum lost")
)

// QuorumError is a write that did not reach its quorum.
type QuorumError struct{ Have, Want int }

func (e QuorumError) Error() string { return "insufficient quorum" }

// retriable lists the failures that go away by themselves.
func retriable(err error) bool {
	if err == nil {
		return false
	}
	starting := strings.Contains(err.Error(), "server not initialized") || errors.Is(err, errNotReady)
	q := QuorumError{}
	return errors.Is(err, errQuorumLost) ||
		errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.As(err, &q) ||
		transientText(err) ||
		starting
}

func transientText(err error) bool {
	return strings.HasSuffix(err.Error(), "try again")
}

// anyButClosed retries everything except a closed store.
func anyButClosed(err error) bool {
	return !errors.Is(err, errClosed)
}

var errClosed = errors.New("closed")

// everything names a retry of every failure, the context's included.
func everything(err error) bool {
	return err != nil || errors.Is(err, context.Canceled)
}

// Store is a remote store.
type Store interface {
	Load(ctx context.Context) error
	Ping() error
}

func jitter() time.Duration { return time.Duration(rand.Int64N(int64(time.Second))) }

// Init loads the store until it is ready; the loop ends with its context,
// as Load then fails with context.Canceled, which retriable rejects.
func Init(ctx context.Context, s Store) {
	for {
		if err := s.Load(ctx); err != nil {
			if retriable(err) {
				log.Printf("store not ready: %v", err)
				time.Sleep(jitter()) // want `sleep-ignores-context: `
				continue
			}
			log.Printf("store failed: %v", err)
			return
		}
		return
	}
}

// InitNegated is Init with the test the other way round.
func InitNegated(ctx context.Context, s Store) error {
	for {
		err := s.Load(ctx)
		if err == nil {
			return nil
		}
		if !retriable(err) {
			return err
		}
		select {
		case <-time.After(jitter()):
		}
	}
}

// WaitReady pings until the store answers: Ping takes no context, so
// nothing ends the loop while the store is down.
func WaitReady(s Store) error {
	for { // want `unbounded-retry: `
		err := s.Ping()
		if err == nil {
			return nil
		}
		if !retriable(err) {
			return err
		}
		time.Sleep(jitter())
	}
}

// Reload retries every failure but a closed store, context.Canceled
// included: the context does not end it.
func Reload(ctx context.Context, s Store) error {
	for { // want `unbounded-retry: `
		err := s.Load(ctx)
		if err == nil {
			return nil
		}
		if !anyButClosed(err) {
			return err
		}
		time.Sleep(jitter()) // want `sleep-ignores-context: `
	}
}

// Refresh names the context's error among those it retries.
func Refresh(ctx context.Context, s Store) error {
	for { // want `unbounded-retry: `
		err := s.Load(ctx)
		if err == nil {
			return nil
		}
		if !everything(err) {
			return err
		}
		time.Sleep(jitter()) // want `sleep-ignores-context: `
	}
}

// Sync asks a predicate it cannot read (a field holding a function):
// whether the context ends the loop is not known, so it is not assumed.
type Sync struct {
	store     Store
	retryable func(error) bool
}

func (s *Sync) Run(ctx context.Context) error {
	for { // want `unbounded-retry: `
		err := s.store.Load(ctx)
		if err == nil {
			return nil
		}
		if !s.retryable(err) {
			return err
		}
		time.Sleep(jitter()) // want `sleep-ignores-context: `
	}
}
