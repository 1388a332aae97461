// Package retry is a test stand-in for github.com/sethvargo/go-retry
// v0.5.0: the same exported API that usage needs. Only errors wrapped in
// RetryableError are retried; back-offs never stop unless wrapped.
package retry

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

type RetryFunc func(ctx context.Context) error
type RetryFuncValue[T any] func(ctx context.Context) (T, error)

type retryableError struct{ err error }

func (e *retryableError) Unwrap() error { return e.err }
func (e *retryableError) Error() string { return "retryable: " + e.err.Error() }

// RetryableError marks err as one to retry.
func RetryableError(err error) error {
	if err == nil {
		return nil
	}
	return &retryableError{err}
}

// Backoff gives the next wait, or stop.
type Backoff interface {
	Next() (next time.Duration, stop bool)
}

// BackoffFunc is a Backoff written as a function.
type BackoffFunc func() (time.Duration, bool)

func (b BackoffFunc) Next() (time.Duration, bool) { return b() }

func DoValue[T any](ctx context.Context, b Backoff, f RetryFuncValue[T]) (T, error) {
	var zero T
	for {
		if err := context.Cause(ctx); err != nil {
			return zero, err
		}
		v, err := f(ctx)
		if err == nil {
			return v, nil
		}
		var rerr *retryableError
		if !errors.As(err, &rerr) {
			return zero, err
		}
		next, stop := b.Next()
		if stop {
			return zero, rerr.Unwrap()
		}
		t := time.NewTimer(next)
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
	}
}

func Do(ctx context.Context, b Backoff, f RetryFunc) error {
	_, err := DoValue(ctx, b, func(ctx context.Context) (struct{}, error) { return struct{}{}, f(ctx) })
	return err
}

func Constant(ctx context.Context, t time.Duration, f RetryFunc) error {
	return Do(ctx, NewConstant(t), f)
}

func Exponential(ctx context.Context, base time.Duration, f RetryFunc) error {
	return Do(ctx, NewExponential(base), f)
}

func Fibonacci(ctx context.Context, base time.Duration, f RetryFunc) error {
	return Do(ctx, NewFibonacci(base), f)
}

// NewConstant waits t every time.
func NewConstant(t time.Duration) Backoff {
	return BackoffFunc(func() (time.Duration, bool) { return t, false })
}

// NewExponential doubles the wait from base.
func NewExponential(base time.Duration) Backoff {
	var n uint
	return BackoffFunc(func() (time.Duration, bool) {
		d := base << n
		n++
		return d, false
	})
}

// NewFibonacci grows the wait along the Fibonacci sequence from base.
func NewFibonacci(base time.Duration) Backoff {
	a, b := time.Duration(0), base
	return BackoffFunc(func() (time.Duration, bool) {
		a, b = b, a+b
		return b, false
	})
}

func WithJitter(j time.Duration, next Backoff) Backoff {
	return BackoffFunc(func() (time.Duration, bool) {
		d, stop := next.Next()
		if stop || j <= 0 {
			return d, stop
		}
		return max(d+time.Duration(rand.Int64N(int64(2*j)))-j, 0), false
	})
}

func WithJitterPercent(j uint64, next Backoff) Backoff {
	return BackoffFunc(func() (time.Duration, bool) {
		d, stop := next.Next()
		if stop || j == 0 {
			return d, stop
		}
		pct := 1 - float64(rand.Int64N(int64(2*j))-int64(j))/100
		return time.Duration(float64(d) * pct), false
	})
}

func WithFullJitter(next Backoff) Backoff {
	return BackoffFunc(func() (time.Duration, bool) {
		d, stop := next.Next()
		if stop || d <= 0 {
			return d, stop
		}
		return time.Duration(rand.Int64N(int64(d))), false
	})
}

// WithMaxRetries stops after max retries (attempts = max+1).
func WithMaxRetries(max uint64, next Backoff) Backoff {
	var n uint64
	return BackoffFunc(func() (time.Duration, bool) {
		if n >= max {
			return 0, true
		}
		n++
		return next.Next()
	})
}

func WithCappedDuration(cap time.Duration, next Backoff) Backoff {
	return BackoffFunc(func() (time.Duration, bool) {
		d, stop := next.Next()
		return min(d, cap), stop
	})
}

func WithMaxDuration(timeout time.Duration, next Backoff) Backoff {
	start := time.Now()
	return BackoffFunc(func() (time.Duration, bool) {
		left := timeout - time.Since(start)
		if left <= 0 {
			return 0, true
		}
		d, stop := next.Next()
		return min(d, left), stop
	})
}
