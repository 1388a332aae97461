// Package retry is a test stand-in for github.com/avast/retry-go/v4
// v4.7.0: the same exported API that usage needs, with the same defaults
// (10 attempts, 100ms, CombineDelay(BackOffDelay, RandomDelay) with a 100ms
// MaxJitter, no MaxDelay, RetryIf IsRecoverable).
package retry

import (
	"context"
	"errors"
	"math/rand"
	"strings"
	"time"
)

type RetryableFunc func() error
type RetryableFuncWithData[T any] func() (T, error)
type RetryIfFunc func(error) bool
type OnRetryFunc func(attempt uint, err error)
type DelayTypeFunc func(n uint, err error, config *Config) time.Duration

// Timer waits between attempts.
type Timer interface {
	After(time.Duration) <-chan time.Time
}

// Config is what the options set.
type Config struct {
	attempts         uint
	attemptsForError map[error]uint
	delay            time.Duration
	maxDelay         time.Duration
	maxJitter        time.Duration
	onRetry          OnRetryFunc
	retryIf          RetryIfFunc
	delayType        DelayTypeFunc
	lastErrorOnly    bool
	context          context.Context
}

// Option configures Do.
type Option func(*Config)

func LastErrorOnly(on bool) Option { return func(c *Config) { c.lastErrorOnly = on } }

// Attempts sets the attempts, the first included; 0 retries until success.
func Attempts(n uint) Option { return func(c *Config) { c.attempts = n } }

// UntilSucceeded retries without an attempt limit.
func UntilSucceeded() Option { return func(c *Config) { c.attempts = 0 } }

func AttemptsForError(n uint, err error) Option {
	return func(c *Config) { c.attemptsForError[err] = n }
}

func Delay(d time.Duration) Option     { return func(c *Config) { c.delay = d } }
func MaxDelay(d time.Duration) Option  { return func(c *Config) { c.maxDelay = d } }
func MaxJitter(d time.Duration) Option { return func(c *Config) { c.maxJitter = d } }

func DelayType(f DelayTypeFunc) Option {
	if f == nil {
		return func(*Config) {}
	}
	return func(c *Config) { c.delayType = f }
}

func OnRetry(f OnRetryFunc) Option {
	if f == nil {
		return func(*Config) {}
	}
	return func(c *Config) { c.onRetry = f }
}

func RetryIf(f RetryIfFunc) Option {
	if f == nil {
		return func(*Config) {}
	}
	return func(c *Config) { c.retryIf = f }
}

func Context(ctx context.Context) Option { return func(c *Config) { c.context = ctx } }

func WithTimer(t Timer) Option { return func(*Config) {} }

func WrapContextErrorWithLastError(on bool) Option { return func(*Config) {} }

// BackOffDelay doubles the delay on every attempt.
func BackOffDelay(n uint, _ error, c *Config) time.Duration {
	if n > 30 {
		n = 30
	}
	return c.delay << (n - 1)
}

// FixedDelay waits the delay every time.
func FixedDelay(_ uint, _ error, c *Config) time.Duration { return c.delay }

// RandomDelay waits a random time below MaxJitter.
func RandomDelay(_ uint, _ error, c *Config) time.Duration {
	return time.Duration(rand.Int63n(int64(c.maxJitter)))
}

// FullJitterBackoffDelay waits a random time below min(delay*2^n, maxDelay).
func FullJitterBackoffDelay(n uint, _ error, c *Config) time.Duration {
	ceiling := c.delay << n
	if c.maxDelay > 0 && ceiling > c.maxDelay {
		ceiling = c.maxDelay
	}
	if ceiling <= 0 {
		return 0
	}
	return time.Duration(rand.Int63n(int64(ceiling)))
}

// CombineDelay adds the delays.
func CombineDelay(delays ...DelayTypeFunc) DelayTypeFunc {
	return func(n uint, err error, c *Config) time.Duration {
		var total time.Duration
		for _, d := range delays {
			total += d(n, err, c)
		}
		return total
	}
}

func newDefaultRetryConfig() *Config {
	return &Config{
		attempts:         10,
		attemptsForError: map[error]uint{},
		delay:            100 * time.Millisecond,
		maxJitter:        100 * time.Millisecond,
		onRetry:          func(uint, error) {},
		retryIf:          IsRecoverable,
		delayType:        CombineDelay(BackOffDelay, RandomDelay),
		context:          context.Background(),
	}
}

func Do(f RetryableFunc, opts ...Option) error {
	_, err := DoWithData(func() (any, error) { return nil, f() }, opts...)
	return err
}

func DoWithData[T any](f RetryableFuncWithData[T], opts ...Option) (T, error) {
	var zero T
	c := newDefaultRetryConfig()
	for _, opt := range opts {
		opt(c)
	}
	var log Error
	for n := uint(0); ; {
		v, err := f()
		if err == nil {
			return v, nil
		}
		log = append(log, err)
		if !IsRecoverable(err) || !c.retryIf(err) {
			break
		}
		c.onRetry(n, err)
		if c.attempts != 0 && n == c.attempts-1 {
			break
		}
		n++
		d := c.delayType(n, err, c)
		if c.maxDelay > 0 && d > c.maxDelay {
			d = c.maxDelay
		}
		select {
		case <-time.After(d):
		case <-c.context.Done():
			return zero, append(log, context.Cause(c.context))
		}
	}
	if c.lastErrorOnly {
		return zero, log[len(log)-1]
	}
	return zero, log
}

// Error lists the errors of every attempt.
type Error []error

func (e Error) Error() string {
	parts := make([]string, len(e))
	for i, err := range e {
		parts[i] = err.Error()
	}
	return "All attempts fail:\n" + strings.Join(parts, "\n")
}

func (e Error) Unwrap() error          { return e[len(e)-1] }
func (e Error) WrappedErrors() []error { return e }

type unrecoverableError struct{ error }

func (e unrecoverableError) Unwrap() error { return e.error }

// Unrecoverable wraps err so that it is not retried.
func Unrecoverable(err error) error { return unrecoverableError{err} }

// IsRecoverable reports whether err is not marked Unrecoverable.
func IsRecoverable(err error) bool {
	var u unrecoverableError
	return !errors.As(err, &u)
}
