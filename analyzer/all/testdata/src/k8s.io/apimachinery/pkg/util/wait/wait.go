// Package wait is a stand-in for k8s.io/apimachinery/pkg/util/wait v0.37.2:
// the exported API that client code uses, with the same semantics.
package wait

import (
	"context"
	"errors"
	"math/rand"
	"time"
)

// ErrWaitTimeout is returned when the condition was not satisfied in time.
var ErrWaitTimeout = errors.New("timed out waiting for the condition")

// Interrupted returns true if the error indicates a Poll, ExponentialBackoff,
// or Until loop exited for any reason besides the condition returning true
// or an error.
func Interrupted(err error) bool {
	return errors.Is(err, ErrWaitTimeout) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// NeverStop may be passed to Until to make it never stop.
var NeverStop <-chan struct{} = make(chan struct{})

// ConditionFunc returns true if the condition is satisfied, or an error if
// the loop should be aborted.
type ConditionFunc func() (done bool, err error)

// ConditionWithContextFunc is a ConditionFunc that takes a context.
type ConditionWithContextFunc func(context.Context) (done bool, err error)

// WithContext converts a ConditionFunc into a ConditionWithContextFunc.
func (cf ConditionFunc) WithContext() ConditionWithContextFunc {
	return func(context.Context) (bool, error) { return cf() }
}

// Jitter returns a time.Duration between duration and duration + maxFactor * duration.
func Jitter(duration time.Duration, maxFactor float64) time.Duration {
	if maxFactor <= 0.0 {
		maxFactor = 1.0
	}
	return duration + time.Duration(rand.Float64()*maxFactor*float64(duration))
}

// Backoff holds parameters applied to a Backoff function.
type Backoff struct {
	Duration time.Duration
	Factor   float64
	Jitter   float64
	Steps    int
	Cap      time.Duration
}

// Step returns an amount of time to sleep and advances the backoff.
func (b *Backoff) Step() time.Duration {
	if b == nil {
		return 0
	}
	var next time.Duration
	next, b.Duration, b.Steps = delay(b.Steps, b.Duration, b.Cap, b.Factor, b.Jitter)
	return next
}

// DelayFunc returns a function computing the next interval to wait.
type DelayFunc func() time.Duration

// DelayFunc returns a function that will compute the next interval to wait.
func (b Backoff) DelayFunc() DelayFunc {
	steps, duration := b.Steps, b.Duration
	return func() time.Duration {
		var next time.Duration
		next, duration, steps = delay(steps, duration, b.Cap, b.Factor, b.Jitter)
		return next
	}
}

func delay(steps int, duration, cap time.Duration, factor, jitter float64) (time.Duration, time.Duration, int) {
	if steps < 1 {
		if jitter > 0 {
			return Jitter(duration, jitter), duration, 0
		}
		return duration, duration, 0
	}
	steps--
	next := duration
	if factor != 0 {
		next = time.Duration(float64(duration) * factor)
		if cap > 0 && next > cap {
			next = cap
			steps = 0
		}
	}
	if jitter > 0 {
		duration = Jitter(duration, jitter)
	}
	return duration, next, steps
}

// ExponentialBackoff repeats a condition check with exponential backoff,
// at most backoff.Steps times.
func ExponentialBackoff(backoff Backoff, condition ConditionFunc) error {
	for backoff.Steps > 0 {
		if ok, err := condition(); err != nil || ok {
			return err
		}
		if backoff.Steps == 1 {
			break
		}
		time.Sleep(backoff.Step())
	}
	return ErrWaitTimeout
}

// ExponentialBackoffWithContext repeats a condition check with exponential
// backoff until the context ends or backoff.Steps checks were done.
func ExponentialBackoffWithContext(ctx context.Context, backoff Backoff, condition ConditionWithContextFunc) error {
	for backoff.Steps > 0 {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if ok, err := condition(ctx); err != nil || ok {
			return err
		}
		if backoff.Steps == 1 {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff.Step()):
		}
	}
	return ErrWaitTimeout
}

// loop runs condition every interval until it is done, fails, or ctx ends.
func loop(ctx context.Context, interval time.Duration, immediate bool, condition ConditionWithContextFunc) error {
	if !immediate {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(interval):
		}
	}
	for {
		if ok, err := condition(ctx); err != nil || ok {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(interval):
		}
	}
}

func withTimeout(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout == 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, timeout)
}

func stopContext(stopCh <-chan struct{}) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-stopCh:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// PollUntilContextCancel polls condition every interval until ctx ends.
func PollUntilContextCancel(ctx context.Context, interval time.Duration, immediate bool, condition ConditionWithContextFunc) error {
	return loop(ctx, interval, immediate, condition)
}

// PollUntilContextTimeout polls condition every interval until timeout.
func PollUntilContextTimeout(ctx context.Context, interval, timeout time.Duration, immediate bool, condition ConditionWithContextFunc) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return loop(ctx, interval, immediate, condition)
}

// Poll tries a condition func until it returns true, an error, or the timeout is reached.
func Poll(interval, timeout time.Duration, condition ConditionFunc) error {
	return PollWithContext(context.Background(), interval, timeout, condition.WithContext())
}

// PollWithContext tries a condition func until it returns true, an error, or the timeout is reached.
func PollWithContext(ctx context.Context, interval, timeout time.Duration, condition ConditionWithContextFunc) error {
	ctx, cancel := withTimeout(ctx, timeout)
	defer cancel()
	return loop(ctx, interval, false, condition)
}

// PollUntil tries a condition func until it returns true, an error or stopCh is closed.
func PollUntil(interval time.Duration, condition ConditionFunc, stopCh <-chan struct{}) error {
	ctx, cancel := stopContext(stopCh)
	defer cancel()
	return loop(ctx, interval, false, condition.WithContext())
}

// PollUntilWithContext tries a condition func until it returns true, an error or ctx ends.
func PollUntilWithContext(ctx context.Context, interval time.Duration, condition ConditionWithContextFunc) error {
	return loop(ctx, interval, false, condition)
}

// PollInfinite tries a condition func until it returns true or an error.
func PollInfinite(interval time.Duration, condition ConditionFunc) error {
	return loop(context.Background(), interval, false, condition.WithContext())
}

// PollInfiniteWithContext tries a condition func until it returns true or an error.
func PollInfiniteWithContext(ctx context.Context, interval time.Duration, condition ConditionWithContextFunc) error {
	return loop(ctx, interval, false, condition)
}

// PollImmediate tries a condition func until it returns true, an error, or the timeout is reached.
func PollImmediate(interval, timeout time.Duration, condition ConditionFunc) error {
	return PollImmediateWithContext(context.Background(), interval, timeout, condition.WithContext())
}

// PollImmediateWithContext tries a condition func until it returns true, an error, or the timeout is reached.
func PollImmediateWithContext(ctx context.Context, interval, timeout time.Duration, condition ConditionWithContextFunc) error {
	ctx, cancel := withTimeout(ctx, timeout)
	defer cancel()
	return loop(ctx, interval, true, condition)
}

// PollImmediateUntil tries a condition func until it returns true, an error or stopCh is closed.
func PollImmediateUntil(interval time.Duration, condition ConditionFunc, stopCh <-chan struct{}) error {
	ctx, cancel := stopContext(stopCh)
	defer cancel()
	return loop(ctx, interval, true, condition.WithContext())
}

// PollImmediateUntilWithContext tries a condition func until it returns true, an error or ctx ends.
func PollImmediateUntilWithContext(ctx context.Context, interval time.Duration, condition ConditionWithContextFunc) error {
	return loop(ctx, interval, true, condition)
}

// PollImmediateInfinite tries a condition func until it returns true or an error.
func PollImmediateInfinite(interval time.Duration, condition ConditionFunc) error {
	return loop(context.Background(), interval, true, condition.WithContext())
}

// PollImmediateInfiniteWithContext tries a condition func until it returns true or an error.
func PollImmediateInfiniteWithContext(ctx context.Context, interval time.Duration, condition ConditionWithContextFunc) error {
	return loop(ctx, interval, true, condition)
}

// Until loops until stop channel is closed, running f every period.
func Until(f func(), period time.Duration, stopCh <-chan struct{}) {
	JitterUntil(f, period, 0.0, true, stopCh)
}

// UntilWithContext loops until context is done, running f every period.
func UntilWithContext(ctx context.Context, f func(context.Context), period time.Duration) {
	JitterUntilWithContext(ctx, f, period, 0.0, true)
}

// NonSlidingUntil is like Until but the period includes f's run time.
func NonSlidingUntil(f func(), period time.Duration, stopCh <-chan struct{}) {
	JitterUntil(f, period, 0.0, false, stopCh)
}

// Forever calls f every period for ever.
func Forever(f func(), period time.Duration) {
	Until(f, period, NeverStop)
}

// JitterUntil loops until stop channel is closed, running f every period
// with jitter.
func JitterUntil(f func(), period time.Duration, jitterFactor float64, sliding bool, stopCh <-chan struct{}) {
	for {
		select {
		case <-stopCh:
			return
		default:
		}
		f()
		d := period
		if jitterFactor > 0.0 {
			d = Jitter(period, jitterFactor)
		}
		select {
		case <-stopCh:
			return
		case <-time.After(d):
		}
	}
}

// JitterUntilWithContext loops until context is done, running f every period with jitter.
func JitterUntilWithContext(ctx context.Context, f func(context.Context), period time.Duration, jitterFactor float64, sliding bool) {
	JitterUntil(func() { f(ctx) }, period, jitterFactor, sliding, ctx.Done())
}
