// Package pollwait polls a condition with a growing, jittered, capped
// pause (a copy of a well-known wait package), and retries an operation
// through it with an adapter that turns a retryable error into "not done
// yet".
package pollwait

import (
	"errors"
	"math/rand/v2"
	"time"
)

// Backoff grows the pause by Factor up to Cap, with Jitter.
type Backoff struct {
	Duration time.Duration
	Factor   float64
	Jitter   float64
	Steps    int
	Cap      time.Duration
}

// Step returns the next pause.
func (b *Backoff) Step() time.Duration {
	d := b.Duration
	b.Duration = min(time.Duration(float64(b.Duration)*b.Factor), b.Cap)
	b.Steps--
	return d + time.Duration(rand.Float64()*b.Jitter*float64(d))
}

// ConditionFunc says whether the wait is over.
type ConditionFunc func() (done bool, err error)

// ErrTimeout is the condition never met.
var ErrTimeout = errors.New("timed out waiting for the condition")

// ExponentialBackoff calls condition until it is done or fails, pausing
// between calls.
func ExponentialBackoff(b Backoff, condition ConditionFunc) error {
	for b.Steps > 0 {
		if ok, err := condition(); err != nil || ok {
			return err
		}
		if b.Steps == 1 {
			break
		}
		time.Sleep(b.Step())
	}
	return ErrTimeout
}

// Retry runs f until it succeeds or p says its error is not worth
// another try.
func Retry(f func() error, p func(error) bool, b Backoff) (err error) {
	condition := func() (bool, error) {
		err = f()
		if err != nil && p(err) {
			return false, nil
		}
		return true, err
	}
	if werr := ExponentialBackoff(b, condition); werr != nil && err == nil {
		err = werr
	}
	return err
}
