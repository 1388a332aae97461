// Package callers gives the retriers of package retrier their waits.
package callers

import (
	"math/rand/v2"
	"time"

	"retrier"
)

const chargeInterval = 500 * time.Millisecond

// Charge gives a constant: reported at the argument.
func Charge(op func() error) error {
	return retrier.Retry(3,
		time.Second, // want `fixed-sleep: retrier.Retry is given a constant 1s to wait between its attempts \(its loop at retrier/retrier.go:\d+\)`
		op)
}

// Named gives a named constant.
func Named(op func() error) error {
	return retrier.Retry(3,
		chargeInterval, // want `fixed-sleep: retrier.Retry is given a constant 500ms`
		op)
}

// Method gives the method its interval.
func Method(c *retrier.Client, op func() error) error {
	return c.Do(op,
		2*time.Second) // want `fixed-sleep: c.Do is given a constant 2s`
}

// Spread gives each caller its own interval: no lock-step.
func Spread(op func() error) error {
	return retrier.Retry(3, time.Second+rand.N(time.Second), op)
}

// Configured passes on what it is given: its own callers choose.
func Configured(op func() error, d time.Duration) error {
	return retrier.Retry(3, d, op)
}

// Backoff gives the constructor a constant: reported at the argument.
func Backoff(op func() error) error {
	b := retrier.New(
		2*time.Second, // want `fixed-sleep: retrier.New is given a constant 2s to wait between its attempts \(its loop at retrier/retrier.go:\d+\)`
		5)
	return b.Retry(op)
}

// BackoffSpread gives the constructor its own random interval.
func BackoffSpread(op func() error) error {
	return retrier.New(time.Second+rand.N(time.Second), 5).Retry(op)
}
