// Package backoff is a test stand-in for github.com/cenkalti/backoff/v7
// v7.0.0: the same exported API that usage needs, with the same defaults.
// It keeps v5's Retry, options and ExponentialBackOff; RetryAfter takes
// the cause, and Permanent is told apart with errors.Is(err, ErrPermanent).
package backoff

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"time"
)

// BackOff computes the wait before the next retry; Stop ends the retries.
type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

// Stop is returned by NextBackOff when no more retries should be made.
const Stop time.Duration = -1

// ZeroBackOff retries at once.
type ZeroBackOff struct{}

func (b *ZeroBackOff) Reset()                     {}
func (b *ZeroBackOff) NextBackOff() time.Duration { return 0 }

// StopBackOff never retries.
type StopBackOff struct{}

func (b *StopBackOff) Reset()                     {}
func (b *StopBackOff) NextBackOff() time.Duration { return Stop }

// ConstantBackOff waits the same Interval every time.
type ConstantBackOff struct {
	Interval time.Duration
}

func (b *ConstantBackOff) Reset()                     {}
func (b *ConstantBackOff) NextBackOff() time.Duration { return b.Interval }

// NewConstantBackOff returns a back-off that always waits d.
func NewConstantBackOff(d time.Duration) *ConstantBackOff {
	return &ConstantBackOff{Interval: d}
}

// ExponentialBackOff grows the wait by Multiplier up to MaxInterval,
// randomised by RandomizationFactor. It never stops by itself.
type ExponentialBackOff struct {
	InitialInterval     time.Duration
	RandomizationFactor float64
	Multiplier          float64
	MaxInterval         time.Duration

	currentInterval time.Duration
}

// Defaults of NewExponentialBackOff.
const (
	DefaultInitialInterval     = 500 * time.Millisecond
	DefaultRandomizationFactor = 0.5
	DefaultMultiplier          = 1.5
	DefaultMaxInterval         = 60 * time.Second
)

// NewExponentialBackOff returns a back-off with the defaults.
func NewExponentialBackOff() *ExponentialBackOff {
	return &ExponentialBackOff{
		InitialInterval:     DefaultInitialInterval,
		RandomizationFactor: DefaultRandomizationFactor,
		Multiplier:          DefaultMultiplier,
		MaxInterval:         DefaultMaxInterval,
	}
}

func (b *ExponentialBackOff) Reset() { b.currentInterval = b.InitialInterval }

func (b *ExponentialBackOff) NextBackOff() time.Duration {
	if b.currentInterval == 0 {
		b.currentInterval = b.InitialInterval
	}
	next := b.currentInterval
	if b.RandomizationFactor != 0 {
		delta := b.RandomizationFactor * float64(next)
		next = time.Duration(float64(next) - delta + rand.Float64()*(2*delta+1))
	}
	if float64(b.currentInterval) >= float64(b.MaxInterval)/b.Multiplier {
		b.currentInterval = b.MaxInterval
	} else {
		b.currentInterval = time.Duration(float64(b.currentInterval) * b.Multiplier)
	}
	return next
}

// DefaultMaxElapsedTime is the elapsed-time limit of Retry.
const DefaultMaxElapsedTime = 15 * time.Minute

// Operation is retried until it succeeds or returns a PermanentError.
type Operation[T any] func() (T, error)

// Notify is told of every failed attempt and the wait before the next.
type Notify func(error, time.Duration)

type retryOptions struct {
	BackOff        BackOff
	Notify         Notify
	MaxTries       uint
	MaxElapsedTime time.Duration
}

// RetryOption configures Retry.
type RetryOption func(*retryOptions)

func WithBackOff(b BackOff) RetryOption {
	return func(o *retryOptions) { o.BackOff = b }
}

func WithNotify(n Notify) RetryOption {
	return func(o *retryOptions) { o.Notify = n }
}

// WithMaxTries limits the attempts, the first included; 0 is no limit.
func WithMaxTries(n uint) RetryOption {
	return func(o *retryOptions) { o.MaxTries = n }
}

// WithMaxElapsedTime limits the time spent retrying; 0 is no limit.
func WithMaxElapsedTime(d time.Duration) RetryOption {
	return func(o *retryOptions) { o.MaxElapsedTime = d }
}

// Retry runs operation until it succeeds, returns a PermanentError, ctx
// is done or the options stop it.
func Retry[T any](ctx context.Context, operation Operation[T], opts ...RetryOption) (T, error) {
	o := &retryOptions{BackOff: NewExponentialBackOff(), MaxElapsedTime: DefaultMaxElapsedTime}
	for _, opt := range opts {
		opt(o)
	}
	start := time.Now()
	o.BackOff.Reset()
	for tries := uint(1); ; tries++ {
		res, err := operation()
		if err == nil {
			return res, nil
		}
		if o.MaxTries > 0 && tries >= o.MaxTries {
			return res, err
		}
		var permanent *PermanentError
		if errors.As(err, &permanent) {
			return res, permanent.Unwrap()
		}
		if cerr := context.Cause(ctx); cerr != nil {
			return res, cerr
		}
		next := o.BackOff.NextBackOff()
		if next == Stop {
			return res, err
		}
		var after *RetryAfterError
		if errors.As(err, &after) {
			next = after.Duration
			o.BackOff.Reset()
		}
		if o.MaxElapsedTime > 0 && time.Since(start)+next > o.MaxElapsedTime {
			return res, err
		}
		if o.Notify != nil {
			o.Notify(err, next)
		}
		timer := time.NewTimer(next)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return res, context.Cause(ctx)
		}
	}
}

// PermanentError stops the retries.
type PermanentError struct {
	Err error
}

func (e *PermanentError) Error() string { return e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

// Permanent wraps err so that it is not retried.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &PermanentError{Err: err}
}

// ErrPermanent is the cause of a RetryError after a permanent failure.
var ErrPermanent = errors.New("permanent error")

// RetryAfterError asks for the next attempt after Duration.
type RetryAfterError struct {
	Duration time.Duration
	Err      error
}

// RetryAfter asks for the next attempt after d, keeping cause.
func RetryAfter(d time.Duration, cause error) error {
	return &RetryAfterError{Duration: d, Err: cause}
}

func (e *RetryAfterError) Unwrap() error { return e.Err }

func (e *RetryAfterError) Error() string { return fmt.Sprintf("retry after %s", e.Duration) }

// Ticker ticks on the back-off's schedule until it stops.
type Ticker struct {
	C    <-chan time.Time
	stop chan struct{}
}

// NewTicker returns a ticker whose first tick is immediate.
func NewTicker(b BackOff) *Ticker {
	c := make(chan time.Time)
	t := &Ticker{C: c, stop: make(chan struct{})}
	b.Reset()
	go func() {
		defer close(c)
		for {
			select {
			case c <- time.Now():
			case <-t.stop:
				return
			}
			next := b.NextBackOff()
			if next == Stop {
				return
			}
			select {
			case <-time.After(next):
			case <-t.stop:
				return
			}
		}
	}()
	return t
}

// Stop ends the ticker.
func (t *Ticker) Stop() { close(t.stop) }
