// Package flagdelay holds loops that wait on every round, but for a time
// worked out from whether the attempt failed: a flag set on the failure,
// or the error itself, handed to what picks the next pause. The failure
// path's pause is its own, so the loop retries; next to periodic loops
// whose pause no failure changes.
package flagdelay

import (
	"context"
	"errors"
	"log"
	"net"
	"time"
)

// Pacer picks the pause before the next run from the last one and from
// whether the last run failed.
type Pacer interface {
	Pause(last time.Duration, failed bool) time.Duration
}

// Keep runs f until it reports done or stop closes, pausing between runs
// for what the pacer says after a failure or a success.
func Keep(f func() (done bool, err error), p Pacer, stop <-chan struct{}) {
	var pause time.Duration
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		<-t.C
		failed := false
		done, err := f()
		if done {
			return
		}
		if err != nil {
			failed = true
		}
		pause = p.Pause(pause, failed)
		t.Reset(pause)
		select {
		case <-stop:
			return
		default:
		}
	}
}

// ErrDenied is the server refusing the client's credentials.
var ErrDenied = errors.New("denied")

type session struct{ conn net.Conn }

func login(addr string) (*session, error) { return nil, nil }

func (s *session) serve() {}

// Agent keeps a session to its server.
type Agent struct {
	addr  string
	pacer Pacer
	stop  chan struct{}
}

// Connect logs in again after every failure, a refused login included.
func (a *Agent) Connect() {
	Keep(func() (bool, error) { // want `unclassified-retry: Keep retries every error of login`
		s, err := login(a.addr)
		if err != nil {
			log.Printf("login: %v", err)
			return false, err
		}
		s.serve()
		return false, nil
	}, a.pacer, a.stop)
}

// Reconnect names its attempt before handing it over.
func (a *Agent) Reconnect() {
	attempt := func() (bool, error) {
		s, err := login(a.addr)
		if err != nil {
			return false, err
		}
		s.serve()
		return false, nil
	}
	go Keep(attempt, a.pacer, a.stop) // want `unclassified-retry: Keep retries every error of login`
}

func sync(ctx context.Context) error { return nil }

// next is a minute after a failure, an hour after a success.
func next(failed bool) time.Duration {
	if failed {
		return time.Minute
	}
	return time.Hour
}

// Mirror syncs every hour, and a minute after a failed sync, whatever
// the failure.
func Mirror(ctx context.Context) {
	for { // want `unclassified-retry: retry loop retries every error of sync`
		err := sync(ctx)
		if err != nil {
			log.Printf("sync: %v", err)
		}
		d := next(err != nil)
		select {
		case <-ctx.Done():
			return
		case <-time.After(d): // want `fixed-sleep: retry loop waits a constant d`
		}
	}
}

// --- must not be flagged ---

// Every runs f every period until stop closes: no failure changes the
// pause.
func Every(f func() error, period time.Duration, stop <-chan struct{}) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		if err := f(); err != nil {
			log.Printf("run: %v", err)
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}

// ConnectChecked gives up on a refused login.
func (a *Agent) ConnectChecked() {
	Keep(func() (bool, error) {
		s, err := login(a.addr)
		if errors.Is(err, ErrDenied) {
			return true, err
		}
		if err != nil {
			return false, err
		}
		s.serve()
		return false, nil
	}, a.pacer, a.stop)
}

// Watch only runs something that cannot fail.
func (a *Agent) Watch(tick func()) {
	Keep(func() (bool, error) {
		tick()
		return false, nil
	}, a.pacer, a.stop)
}

// Health notes whether the last check failed, to report it, and checks
// again on the same schedule either way.
func Health(ctx context.Context, interval time.Duration, report func(bool)) {
	healthy := true
	for {
		if err := sync(ctx); err != nil {
			healthy = false
		} else {
			healthy = true
		}
		report(healthy)
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

// ReconnectChecked names an attempt that gives up on a refused login.
func (a *Agent) ReconnectChecked() {
	attempt := func() (bool, error) {
		_, err := login(a.addr)
		switch {
		case errors.Is(err, ErrDenied):
			return true, err
		case err != nil:
			return false, err
		}
		return true, nil
	}
	go Keep(attempt, a.pacer, a.stop)
}

// errBusy says another transaction is still running.
var errBusy = errors.New("concurrent transactions")

// endTxn raises its wait in steps the longer the stall lasts, up to 1s,
// with no randomness.
func endTxn(ctx context.Context, fn func() error) error {
	start := time.Now()
	backoff := 20 * time.Millisecond
	for {
		err := fn()
		if !errors.Is(err, errBusy) {
			return err
		}
		since := time.Since(start)
		switch {
		case since > 5*time.Second:
			if backoff < time.Second {
				backoff = time.Second
			}
		case since > time.Second:
			if backoff < 200*time.Millisecond {
				backoff = 200 * time.Millisecond
			}
		}
		select {
		case <-time.After(backoff): // want `no-jitter: `
		case <-ctx.Done():
			return err
		}
	}
}

// endTxnPerError picks its wait by the failure, the same each time: a
// constant per kind of failure.
func endTxnPerError(ctx context.Context, fn func() error) error {
	backoff := 20 * time.Millisecond
	for {
		err := fn()
		if err == nil {
			return nil
		}
		if !errors.Is(err, errBusy) {
			return err
		}
		backoff = time.Second
		select {
		case <-time.After(backoff): // want `fixed-sleep: `
		case <-ctx.Done():
			return err
		}
	}
}
