// Package retry is the in-house retry executor: a Strategy decides how long to
// wait and what to retry, the Executor runs the operation and logs each retry.
package retry

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net"
	"time"
)

// Strategy decides whether and when to retry.
type Strategy interface {
	Delay(attempt int) time.Duration
	ShouldRetry(err error) bool
	MaxRetries() int
}

// ExpJitter is exponential backoff with full jitter.
type ExpJitter struct {
	Base, Max time.Duration
	Retries   int
	Retryable func(error) bool
}

func (s ExpJitter) Delay(attempt int) time.Duration {
	d := s.Max
	if attempt < 32 {
		d = min(s.Base<<attempt, s.Max)
	}
	return rand.N(d + 1)
}

func (s ExpJitter) ShouldRetry(err error) bool { return s.Retryable != nil && s.Retryable(err) }
func (s ExpJitter) MaxRetries() int            { return s.Retries }

// Executor runs operations under a Strategy.
type Executor struct {
	Strategy Strategy
	OnRetry  func(attempt int, delay time.Duration, err error)
}

// Run executes op until it succeeds, the strategy gives up, or ctx ends.
func (e *Executor) Run(ctx context.Context, op func(context.Context) error) error {
	for attempt := 0; ; attempt++ {
		err := op(ctx)
		if err == nil {
			return nil
		}
		if attempt >= e.Strategy.MaxRetries() || !e.Strategy.ShouldRetry(err) {
			return err
		}
		d := e.Strategy.Delay(attempt)
		if e.OnRetry != nil {
			e.OnRetry(attempt+1, d, err)
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// RetryN calls fn up to n times.
func RetryN[T any](n int, fn func() (T, error)) (T, error) {
	var v T
	var err error
	for range n { // want `unclassified-retry: `
		if v, err = fn(); err == nil {
			return v, nil
		}
		time.Sleep(100 * time.Millisecond) // want `fixed-sleep: `
	}
	return v, err
}

// Config is the retry block of a service's YAML configuration.
type Config struct {
	Attempts int
	Base     time.Duration
	Max      time.Duration
}

// equalJitter keeps at least half of the exponential delay.
func (c Config) equalJitter(attempt int) time.Duration {
	d := min(c.Base*time.Duration(1<<min(attempt, 20)), c.Max)
	return d/2 + rand.N(d/2+1)
}

// Do retries network timeouts with equal jitter.
func (c Config) Do(ctx context.Context, op func(context.Context) error) error {
	var err error
	for attempt := range c.Attempts {
		if err = op(ctx); err == nil {
			return nil
		}
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(c.equalJitter(attempt)):
		}
	}
	return err
}

// Until retries op until the deadline passes.
func Until(deadline time.Time, retryable func(error) bool, op func() error) error {
	wait := 10 * time.Millisecond
	for time.Until(deadline) > 0 {
		err := op()
		if err == nil || !retryable(err) {
			return err
		}
		time.Sleep(min(rand.N(wait), time.Until(deadline)))
		wait = min(wait*2, time.Second)
	}
	return context.DeadlineExceeded
}

// Linear retries with a delay that grows by Base each attempt.
func (c Config) Linear(ctx context.Context, retryable func(error) bool, op func(context.Context) error) error {
	var err error
	for attempt := 1; attempt <= c.Attempts; attempt++ {
		if err = op(ctx); err == nil || !retryable(err) {
			return err
		}
		slog.Info("retrying", "attempt", attempt, "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(c.Base * time.Duration(attempt)): // want `no-jitter: ` `no-cap: `
		}
	}
	return err
}

// Forever retries op with jittered, capped backoff until it succeeds; it has no
// way to stop.
func Forever(retryable func(error) bool, op func() error) error {
	wait := 100 * time.Millisecond
	for { // want `unbounded-retry: `
		err := op()
		if err == nil || !retryable(err) {
			return err
		}
		time.Sleep(rand.N(wait))
		wait = min(wait*2, 30*time.Second)
	}
}

// DoubleCapped doubles its wait up to Max without jitter.
func (c Config) DoubleCapped(retryable func(error) bool, op func() error) error {
	wait := c.Base
	var err error
	for i := 0; i < c.Attempts; i++ {
		if err = op(); err == nil || !retryable(err) {
			return err
		}
		time.Sleep(wait) // want `no-jitter: `
		wait = min(wait*2, c.Max)
	}
	return err
}
