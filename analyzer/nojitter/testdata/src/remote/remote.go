// Package remote waits with delays computed in another package.
package remote

import (
	"context"
	"errors"
	"time"

	"pacing"
)

var errBusy = errors.New("busy")

func call(ctx context.Context) error { return errBusy }

func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Exponential grows with the attempt but nothing random enters it.
func Exponential(ctx context.Context) error {
	var err error
	for attempt := range 6 {
		if err = call(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		if err := wait(ctx, pacing.Exponential(100*time.Millisecond, 5*time.Second, attempt)); err != nil { // want `no-jitter: retry wait \(pacing.Exponential\(100 \* time.Millisecond, 5 \* time.Second, attempt\)\) grows with the attempt but nothing random enters it`
			return err
		}
	}
	return err
}

// Linear grows too.
func Linear(ctx context.Context) error {
	var err error
	for attempt := range 6 {
		if err = call(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(pacing.Linear(time.Second, attempt)) // want `no-jitter: retry wait \(pacing.Linear\(time.Second, attempt\)\)`
	}
	return err
}

// Jittered is fine.
func Jittered(ctx context.Context) error {
	var err error
	for attempt := range 6 {
		if err = call(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		if err := wait(ctx, pacing.Jittered(100*time.Millisecond, 5*time.Second, attempt)); err != nil {
			return err
		}
	}
	return err
}

// SameBase passes a constant attempt: the wait does not grow.
func SameBase(ctx context.Context) error {
	var err error
	for range 6 {
		if err = call(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		if err := wait(ctx, pacing.Exponential(100*time.Millisecond, 5*time.Second, 2)); err != nil {
			return err
		}
	}
	return err
}

type stream struct{ backoffDelay time.Duration }

// backoffIfBusy sleeps on a busy error and returns the next, longer wait.
func (s *stream) backoffIfBusy(backoff time.Duration, err error) time.Duration {
	if errors.Is(err, errBusy) {
		if backoff < time.Second {
			backoff = backoff + backoff/4
			if backoff > time.Second {
				backoff = time.Second
			}
		}
		time.Sleep(backoff)
	}
	return backoff
}

func open(ctx context.Context) (*stream, error) { return nil, errBusy }

// Open feeds the wait back through a helper that grows it by a quarter.
func (s *stream) Open(ctx context.Context) (*stream, error) {
	backoff := time.Millisecond
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		default:
		}
		st, err := open(ctx)
		if err == nil {
			return st, nil
		}
		if !errors.Is(err, errBusy) {
			return nil, err
		}
		backoff = s.backoffIfBusy(backoff, err) // want `no-jitter: retry wait \(backoff\) grows with the attempt`
	}
}

// OpenElsewhere does the same through a helper of another package.
func OpenElsewhere(ctx context.Context) (*stream, error) {
	d := 10 * time.Millisecond
	for {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		st, err := open(ctx)
		if err == nil {
			return st, nil
		}
		if !errors.Is(err, errBusy) {
			return nil, err
		}
		d = pacing.Stretch(d, time.Second, err) // want `no-jitter: retry wait \(d\) grows with the attempt`
	}
}

// Resend reuses one timer, draining it in a select that does not block
// before each Reset: the drain is not a wait, the receive after it is.
func Resend(ctx context.Context) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	var err error
	for attempt := range 6 {
		if err = call(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(100 * time.Millisecond << attempt) // want `no-jitter: retry wait \(100 \* time.Millisecond << attempt\) grows`
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
	}
	return err
}
