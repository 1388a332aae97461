// Package backoff is a test stand-in for github.com/cenkalti/backoff/v4
// v4.3.0: the same exported API that usage needs, with the same defaults.
package backoff

import (
	"context"
	"errors"
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

// Clock tells the current time.
type Clock interface {
	Now() time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// SystemClock is the wall clock.
var SystemClock = systemClock{}

// ExponentialBackOff grows the wait by Multiplier up to MaxInterval,
// randomised by RandomizationFactor, and stops after MaxElapsedTime
// (0: never stops).
type ExponentialBackOff struct {
	InitialInterval     time.Duration
	RandomizationFactor float64
	Multiplier          float64
	MaxInterval         time.Duration
	MaxElapsedTime      time.Duration
	Stop                time.Duration
	Clock               Clock

	currentInterval time.Duration
	startTime       time.Time
}

// ExponentialBackOffOpts configures an ExponentialBackOff.
type ExponentialBackOffOpts func(*ExponentialBackOff)

// Defaults of NewExponentialBackOff.
const (
	DefaultInitialInterval     = 500 * time.Millisecond
	DefaultRandomizationFactor = 0.5
	DefaultMultiplier          = 1.5
	DefaultMaxInterval         = 60 * time.Second
	DefaultMaxElapsedTime      = 15 * time.Minute
)

// NewExponentialBackOff returns a back-off with the defaults, changed by opts.
func NewExponentialBackOff(opts ...ExponentialBackOffOpts) *ExponentialBackOff {
	b := &ExponentialBackOff{
		InitialInterval:     DefaultInitialInterval,
		RandomizationFactor: DefaultRandomizationFactor,
		Multiplier:          DefaultMultiplier,
		MaxInterval:         DefaultMaxInterval,
		MaxElapsedTime:      DefaultMaxElapsedTime,
		Stop:                Stop,
		Clock:               SystemClock,
	}
	for _, fn := range opts {
		fn(b)
	}
	b.Reset()
	return b
}

func WithInitialInterval(d time.Duration) ExponentialBackOffOpts {
	return func(b *ExponentialBackOff) { b.InitialInterval = d }
}

func WithRandomizationFactor(f float64) ExponentialBackOffOpts {
	return func(b *ExponentialBackOff) { b.RandomizationFactor = f }
}

func WithMultiplier(m float64) ExponentialBackOffOpts {
	return func(b *ExponentialBackOff) { b.Multiplier = m }
}

func WithMaxInterval(d time.Duration) ExponentialBackOffOpts {
	return func(b *ExponentialBackOff) { b.MaxInterval = d }
}

func WithMaxElapsedTime(d time.Duration) ExponentialBackOffOpts {
	return func(b *ExponentialBackOff) { b.MaxElapsedTime = d }
}

func WithRetryStopDuration(d time.Duration) ExponentialBackOffOpts {
	return func(b *ExponentialBackOff) { b.Stop = d }
}

func WithClockProvider(c Clock) ExponentialBackOffOpts {
	return func(b *ExponentialBackOff) { b.Clock = c }
}

func (b *ExponentialBackOff) Reset() {
	b.currentInterval = b.InitialInterval
	b.startTime = b.Clock.Now()
}

func (b *ExponentialBackOff) GetElapsedTime() time.Duration {
	return b.Clock.Now().Sub(b.startTime)
}

func (b *ExponentialBackOff) NextBackOff() time.Duration {
	elapsed := b.GetElapsedTime()
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
	if b.MaxElapsedTime != 0 && elapsed+next > b.MaxElapsedTime {
		return b.Stop
	}
	return next
}

// WithMaxRetries stops the wrapped back-off after max retries.
func WithMaxRetries(b BackOff, max uint64) BackOff {
	return &backOffTries{delegate: b, maxTries: max}
}

type backOffTries struct {
	delegate BackOff
	maxTries uint64
	numTries uint64
}

func (b *backOffTries) NextBackOff() time.Duration {
	if b.numTries >= b.maxTries {
		return Stop
	}
	b.numTries++
	return b.delegate.NextBackOff()
}

func (b *backOffTries) Reset() {
	b.numTries = 0
	b.delegate.Reset()
}

// BackOffContext is a back-off that stops when its context is done.
type BackOffContext interface {
	BackOff
	Context() context.Context
}

type backOffContext struct {
	BackOff
	ctx context.Context
}

// WithContext stops the wrapped back-off, and the waits, when ctx is done.
func WithContext(b BackOff, ctx context.Context) BackOffContext {
	return &backOffContext{BackOff: b, ctx: ctx}
}

func (b *backOffContext) Context() context.Context { return b.ctx }

func (b *backOffContext) NextBackOff() time.Duration {
	if b.ctx.Err() != nil {
		return Stop
	}
	return b.BackOff.NextBackOff()
}

func contextOf(b BackOff) context.Context {
	switch b := b.(type) {
	case BackOffContext:
		return b.Context()
	case *backOffTries:
		return contextOf(b.delegate)
	}
	return context.Background()
}

// Operation is retried until it succeeds or returns a PermanentError.
type Operation func() error

// OperationWithData is an Operation that returns a value.
type OperationWithData[T any] func() (T, error)

// Notify is told of every failed attempt and the wait before the next.
type Notify func(error, time.Duration)

// Timer waits between attempts.
type Timer interface {
	Start(duration time.Duration)
	Stop()
	C() <-chan time.Time
}

func Retry(o Operation, b BackOff) error { return RetryNotify(o, b, nil) }

func RetryWithData[T any](o OperationWithData[T], b BackOff) (T, error) {
	return RetryNotifyWithData(o, b, nil)
}

func RetryNotify(o Operation, b BackOff, notify Notify) error {
	return RetryNotifyWithTimer(o, b, notify, nil)
}

func RetryNotifyWithData[T any](o OperationWithData[T], b BackOff, notify Notify) (T, error) {
	return RetryNotifyWithTimerAndData(o, b, notify, nil)
}

func RetryNotifyWithTimer(o Operation, b BackOff, notify Notify, t Timer) error {
	_, err := RetryNotifyWithTimerAndData(func() (struct{}, error) { return struct{}{}, o() }, b, notify, t)
	return err
}

func RetryNotifyWithTimerAndData[T any](o OperationWithData[T], b BackOff, notify Notify, t Timer) (T, error) {
	ctx := contextOf(b)
	b.Reset()
	for {
		res, err := o()
		if err == nil {
			return res, nil
		}
		var permanent *PermanentError
		if errors.As(err, &permanent) {
			return res, permanent.Err
		}
		next := b.NextBackOff()
		if next == Stop {
			if cerr := ctx.Err(); cerr != nil {
				return res, cerr
			}
			return res, err
		}
		if notify != nil {
			notify(err, next)
		}
		timer := time.NewTimer(next)
		select {
		case <-ctx.Done():
			timer.Stop()
			return res, ctx.Err()
		case <-timer.C:
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

// Ticker ticks on the back-off's schedule until it stops.
type Ticker struct {
	C    <-chan time.Time
	stop chan struct{}
}

// NewTicker returns a ticker whose first tick is immediate.
func NewTicker(b BackOff) *Ticker {
	c := make(chan time.Time)
	t := &Ticker{C: c, stop: make(chan struct{})}
	ctx := contextOf(b)
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
			case <-ctx.Done():
				return
			}
		}
	}()
	return t
}

// Stop ends the ticker.
func (t *Ticker) Stop() { close(t.stop) }
