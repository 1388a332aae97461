// Package madectx holds retry loops next to contexts the function makes
// itself: one nobody can cancel is no context a wait ignores.
package madectx

import (
	"context"
	"errors"
	"time"

	"madectx/conn"
)

var errBusy = errors.New("busy")

func try(ctx context.Context) error { return ctx.Err() }

// Background makes its own context: nothing can cancel the wait.
func Background() error {
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if err := try(ctx); !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

// CancelledOnReturn cancels its context only when it returns.
func CancelledOnReturn() error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i := 0; i < 3; i++ {
		if err := try(ctx); !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

// Timeout makes a context with a deadline: the sleep outlasts it.
func Timeout() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for i := 0; i < 3; i++ {
		if err := try(ctx); !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(time.Second) // want `sleep-ignores-context: `
	}
	return errBusy
}

// CancelledElsewhere hands its cancel to a goroutine that may call it.
func CancelledElsewhere(stop <-chan struct{}) error {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-stop
		cancel()
	}()
	for i := 0; i < 3; i++ {
		if err := try(ctx); !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(time.Second) // want `sleep-ignores-context: `
	}
	return errBusy
}

// Derived makes its context from the caller's: cancelling the caller's
// cancels it.
func Derived(parent context.Context) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	for i := 0; i < 3; i++ {
		if err := try(ctx); !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(time.Second) // want `sleep-ignores-context: `
	}
	return errBusy
}

// Pinger holds a session of another package whose context is unexported.
type Pinger struct {
	private *conn.Private
}

// Watcher holds a session of another package with an exported context.
type Watcher struct {
	session *conn.Session
}

// Ping reaches the session's exported context.
func (w *Watcher) Ping() error {
	for i := 0; i < 3; i++ {
		if err := w.session.Ping(); !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(time.Second) // want `sleep-ignores-context: .*w.session.Ctx`
	}
	return errBusy
}

// PingPrivate cannot reach the unexported context of conn.Private.
func (p *Pinger) PingPrivate() error {
	for i := 0; i < 3; i++ {
		if err := p.private.Ping(); !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(time.Second)
	}
	return errBusy
}
