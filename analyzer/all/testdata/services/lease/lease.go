// Package lease implements a distributed lock on top of the coordination
// store. Time comes from an injected clock so the tests run instantly.
package lease

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"services/internal/clock"
)

var (
	// ErrHeld means someone else holds the lease.
	ErrHeld = errors.New("lease: held by another owner")
	// ErrStoreBusy is a transient store failure.
	ErrStoreBusy = errors.New("lease: store busy")
	// ErrFenced means our token is stale; the lease was taken over.
	ErrFenced = errors.New("lease: fenced")
)

// Store is the coordination store.
type Store interface {
	CompareAndSwap(key, oldOwner, newOwner string, ttl time.Duration) error
	Delete(key, owner string) error
	Touch(key, owner string, ttl time.Duration) error
	Get(key string) (owner string, err error)
}

// Lock is one named lease.
type Lock struct {
	store Store
	clk   clock.Clock
	key   string
	owner string
	ttl   time.Duration
}

// New returns a lock bound to key.
func New(s Store, clk clock.Clock, key, owner string, ttl time.Duration) *Lock {
	return &Lock{store: s, clk: clk, key: key, owner: owner, ttl: ttl}
}

// Acquire tries to take the lease, waiting while another owner holds it.
func (l *Lock) Acquire(maxWait time.Duration) error {
	deadline := l.clk.Now().Add(maxWait)
	backoff := 20 * time.Millisecond
	for {
		err := l.store.CompareAndSwap(l.key, "", l.owner, l.ttl)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrHeld) && !errors.Is(err, ErrStoreBusy) {
			return err
		}
		if l.clk.Now().After(deadline) {
			return fmt.Errorf("acquire %s: %w", l.key, err)
		}
		l.clk.Sleep(backoff/2 + rand.N(backoff/2))
		backoff = min(backoff*2, time.Second)
	}
}

// Extend pushes the expiry out by one TTL.
func (l *Lock) Extend() error {
	var err error
	for i := 0; i < 3; i++ { // want `unclassified-retry: `
		if err = l.store.Touch(l.key, l.owner, l.ttl); err == nil {
			return nil
		}
		l.clk.Sleep(2 * time.Second) // want `fixed-sleep: `
	}
	return err
}

// Release gives the lease up. A busy store is retried with doubling waits.
func (l *Lock) Release() error {
	wait := 10 * time.Millisecond
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		err = l.store.Delete(l.key, l.owner)
		if err == nil || errors.Is(err, ErrFenced) {
			return err
		}
		if !errors.Is(err, ErrStoreBusy) {
			return err
		}
		<-l.clk.After(wait) // want `no-jitter: `
		wait *= 2
	}
	return fmt.Errorf("release %s: %w", l.key, err)
}

// Owner reads the current owner, retrying briefly on a busy store.
func (l *Lock) Owner() (string, error) {
	d := 5 * time.Millisecond
	for attempt := 1; ; attempt++ {
		owner, err := l.store.Get(l.key)
		if err == nil {
			return owner, nil
		}
		if !errors.Is(err, ErrStoreBusy) || attempt >= 4 {
			return "", err
		}
		<-l.clk.After(rand.N(d) + time.Millisecond)
		d = min(d*2, 100*time.Millisecond)
	}
}

// WaitFree blocks until nobody holds the lease; a plain poll on the owner.
func (l *Lock) WaitFree(poll time.Duration, isFree func() bool) {
	for !isFree() {
		l.clk.Sleep(poll)
	}
}
