// Package pacing waits through helpers of its own: a sleep that answers
// whether it ran its course, a back-off worked out by a loop that doubles,
// a wait chosen on the failure path before the timer at the top of the
// loop is re-armed with it.
package pacing

import (
	"context"
	"errors"
	"time"
)

var errBusy = errors.New("busy")

func commit(ctx context.Context) error { return errBusy }

// sleep waits d unless ctx ends first; false when it did.
func sleep(ctx context.Context, d time.Duration) bool {
	if d == 0 {
		select {
		case <-ctx.Done():
			return false
		default:
			return true
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// quadratic grows with the square of the attempt, up to max.
func quadratic(attempt int, min, max time.Duration) time.Duration {
	d := time.Duration(attempt*attempt) * min
	if d > max {
		d = max
	}
	return d
}

// doubling doubles base once a round past the second, rounds clamped to
// limit first: the growth stops at base<<(limit-2).
func doubling(base time.Duration, round, limit uint64) time.Duration {
	power := min(round, limit)
	for power > 2 {
		base *= 2
		power--
	}
	return base
}

// unclamped doubles with every round it is given.
func unclamped(base time.Duration, round uint64) time.Duration {
	power := round
	for power > 0 {
		base *= 2
		power--
	}
	return base
}

// CommitQuadratic waits in the sleep helper for a growing, capped delay
// that nothing randomises.
func CommitQuadratic(ctx context.Context, retries int) error {
	var err error
	for attempt := 0; attempt < retries; attempt++ {
		if attempt != 0 {
			if !sleep(ctx, quadratic(attempt, 100*time.Millisecond, 5*time.Second)) { // want `no-jitter: `
				return ctx.Err()
			}
		}
		if err = commit(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
	}
	return err
}

// CommitFixed waits the same 100ms in the sleep helper every time.
func CommitFixed(ctx context.Context, retries int) error {
	var err error
	for attempt := 0; attempt < retries; attempt++ {
		if err = commit(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		if !sleep(ctx, 100*time.Millisecond) { // want `fixed-sleep: `
			return ctx.Err()
		}
	}
	return err
}

// CommitSpread draws its wait at random below a capped quadratic bound.
func CommitSpread(ctx context.Context, retries int, jitter func(time.Duration) time.Duration) error {
	var err error
	for attempt := 0; attempt < retries; attempt++ {
		if err = commit(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		if !sleep(ctx, jitter(quadratic(attempt, 100*time.Millisecond, 5*time.Second))) {
			return ctx.Err()
		}
	}
	return err
}

// Replicate waits doubling(...) on its follower's failure count: it grows,
// is clamped by the round limit, and has no jitter.
func Replicate(ctx context.Context, stop <-chan struct{}) {
	var failures uint64
	for {
		if err := commit(ctx); err != nil {
			if !errors.Is(err, errBusy) {
				return
			}
			failures++
			select {
			case <-time.After(doubling(10*time.Millisecond, failures, 8)): // want `no-jitter: `
			case <-stop:
				return
			}
			continue
		}
		return
	}
}

// ReplicateUnclamped doubles without a bound.
func ReplicateUnclamped(ctx context.Context, stop <-chan struct{}) {
	var failures uint64
	for {
		if err := commit(ctx); err != nil {
			if !errors.Is(err, errBusy) {
				return
			}
			failures++
			select {
			case <-time.After(unclamped(10*time.Millisecond, failures)): // want `no-cap: ` `no-jitter: `
			case <-stop:
				return
			}
			continue
		}
		return
	}
}

// waitOrShutdown waits d; true when shutdown came first.
func waitOrShutdown(shutdown chan bool, d time.Duration) bool {
	select {
	case <-shutdown:
		return true
	case <-time.After(d):
		return false
	}
}

// Transfer doubles its wait up to a cap, without jitter, and stops when
// it is shut down through the helper's channel.
func Transfer(ctx context.Context, shutdown chan bool) {
	d, max := 250*time.Millisecond, 10*time.Second
	for {
		err := commit(ctx)
		if err == nil || !errors.Is(err, errBusy) {
			return
		}
		if waitOrShutdown(shutdown, d) { // want `no-jitter: ` `sleep-ignores-context: .*waitOrShutdown`
			return
		}
		d <<= 1
		if d > max {
			d = max
		}
	}
}

// Probe re-arms the timer at the top of its loop with the interval the
// last round chose: a short one after a failure, a long one after a
// success. The failure's 1s is its own wait, the same every time.
func Probe(ctx context.Context, quit chan struct{}) {
	interval := time.Second
	timer := time.NewTimer(interval)
	defer timer.Stop()
	for { // want `unclassified-retry: `
		timer.Reset(interval) // want `fixed-sleep: `
		select {
		case <-quit:
			return
		case <-timer.C:
		}
		if err := commit(ctx); err != nil {
			goto again
		}
		interval = 5 * time.Second
		continue
	again:
		interval = time.Second
	}
}

// Heartbeat re-arms its timer with one interval whatever happened: a
// periodic check, not a retry.
func Heartbeat(ctx context.Context, quit chan struct{}) {
	interval := time.Second
	timer := time.NewTimer(interval)
	defer timer.Stop()
	for {
		timer.Reset(interval)
		select {
		case <-quit:
			return
		case <-timer.C:
		}
		if err := commit(ctx); err != nil {
			interval = time.Second
			continue
		}
		interval = time.Second
	}
}

// Run runs f until ctx ends, resetting the timer to zero when f asks for
// it: a zero wait is no pause, and the back-off f is given is unknown.
func Run(ctx context.Context, f func() error, backoff func(int) time.Duration) {
	attempt := 0
	timer := time.NewTimer(0)
	for ctx.Err() == nil {
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return
		}
		err := f()
		if errors.Is(err, errBusy) {
			timer.Reset(0)
			attempt = 0
			continue
		}
		if err != nil {
			return
		}
		timer.Reset(backoff(attempt))
		attempt++
	}
}

func load() ([]byte, error) { return nil, errBusy }

// WatchFile checks the file on every tick and goes on to the next tick
// whether the read failed or found nothing new; it leaves once the file
// changed. The tick paces the check, no failure: periodic.
func WatchFile(quit chan struct{}, every time.Duration, last string, changed chan<- []byte) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			b, err := load()
			if err != nil {
				continue
			}
			if string(b) == last {
				continue
			}
			changed <- b
			return
		case <-quit:
			return
		}
	}
}

// WatchFileRetrying waits a second of its own after a failed read before
// the next tick.
func WatchFileRetrying(quit chan struct{}, every time.Duration, last string, changed chan<- []byte) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for { // want `unclassified-retry: `
		select {
		case <-tick.C:
			b, err := load()
			if err != nil {
				time.Sleep(time.Second) // want `fixed-sleep: `
				continue
			}
			if string(b) != last {
				changed <- b
				return
			}
		case <-quit:
			return
		}
	}
}
