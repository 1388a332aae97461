// Package lock takes a lock, trying again after the interval its caller
// gives.
package lock

import (
	"errors"
	"math/rand/v2"
	"sync"
	"time"
)

// ErrHeld is the lock held by another owner.
var ErrHeld = errors.New("held")

// CAS is a lock with an owner.
type CAS struct {
	mu    sync.Mutex
	owner string
}

// Begin takes the lock once.
func (c *CAS) Begin(owner string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.owner != "" {
		return ErrHeld
	}
	c.owner = owner
	return nil
}

// BeginWithRetry tries until timeout, waiting interval between tries: its
// callers choose the interval.
func (c *CAS) BeginWithRetry(owner string, timeout, interval time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := c.Begin(owner)
		if err == nil || !errors.Is(err, ErrHeld) {
			return err
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(interval) // its callers choose interval: reported where one gives a constant
	}
}

// BeginJittered waits a random part of interval between tries: the
// interval its caller gives is no lock-step.
func (c *CAS) BeginJittered(owner string, tries int, interval time.Duration) error {
	var err error
	for i := 0; i < tries; i++ {
		if err = c.Begin(owner); err == nil || !errors.Is(err, ErrHeld) {
			return err
		}
		time.Sleep(rand.N(interval))
	}
	return err
}
