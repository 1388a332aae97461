// Package nilctx waits with time.Sleep only where its context is nil or
// cannot be cancelled, and gives each attempt a deadline of its own.
package nilctx

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"time"
)

var errNoResponders = errors.New("no responders")

func request(ctx context.Context) error { return errNoResponders }

type options struct {
	ctx  context.Context
	wait time.Duration
}

// Publish selects on its context when it has one and sleeps only when it
// has none: no cancellation is ignored.
func (o *options) Publish() error {
	err := request(o.ctx)
	for r := 0; errors.Is(err, errNoResponders) && r < 3; r++ {
		if o.ctx != nil {
			select {
			case <-o.ctx.Done():
				return o.ctx.Err()
			case <-time.After(o.wait): // want `fixed-sleep: `
			}
		} else {
			time.Sleep(o.wait) // want `fixed-sleep: `
		}
		err = request(o.ctx)
	}
	return err
}

// Retry waits on a timer against ctx.Done() when the context can end,
// and sleeps only when ctx.Done() is nil.
func Retry(ctx context.Context, next func() time.Duration) error {
	var err error
	for r := 0; r < 5; r++ {
		if err = request(ctx); !errors.Is(err, errNoResponders) {
			return err
		}
		if done := ctx.Done(); done != nil {
			t := time.NewTimer(next())
			select {
			case <-done:
				t.Stop()
				return err
			case <-t.C:
				continue
			}
		}
		time.Sleep(next())
	}
	return err
}

// RetrySleeping sleeps whatever the context.
func RetrySleeping(ctx context.Context, next func() time.Duration) error {
	var err error
	for r := 0; r < 5; r++ {
		if err = request(ctx); !errors.Is(err, errNoResponders) {
			return err
		}
		time.Sleep(next()) // want `sleep-ignores-context: `
	}
	return err
}

// PublishNilOnly sleeps in the branch where the context is not nil.
func (o *options) PublishNilOnly() error {
	err := request(o.ctx)
	for r := 0; errors.Is(err, errNoResponders) && r < 3; r++ {
		if o.ctx == nil {
			return err
		}
		time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
		err = request(o.ctx)
	}
	return err
}

type pool struct {
	closed  atomic.Bool
	dial    func(context.Context) (net.Conn, error)
	timeout time.Duration
	conns   chan net.Conn
}

// Probe dials under a deadline of its own every attempt and waits a
// constant second after any failure, until the pool is closed.
func (p *pool) Probe() {
	for { // want `unclassified-retry: `
		if p.closed.Load() {
			return
		}
		ctx := context.Background()
		var cancel context.CancelFunc
		if p.timeout > 0 {
			ctx, cancel = context.WithTimeout(ctx, p.timeout)
		}
		conn, err := p.dial(ctx)
		if cancel != nil {
			cancel()
		}
		if err != nil {
			time.Sleep(time.Second) // want `fixed-sleep: `
			continue
		}
		p.conns <- conn
		return
	}
}

// ProbeOnce gives up on the first failed dial.
func (p *pool) ProbeOnce() error {
	for {
		if p.closed.Load() {
			return nil
		}
		ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
		conn, err := p.dial(ctx)
		cancel()
		if err != nil {
			return err
		}
		p.conns <- conn
		time.Sleep(time.Second)
	}
}

// RetryTwice waits on the timer and then sleeps as well: the break ends
// only the select, and the sleep runs with a context that can end.
func RetryTwice(ctx context.Context, next func() time.Duration) error {
	var err error
	for r := 0; r < 5; r++ {
		if err = request(ctx); !errors.Is(err, errNoResponders) {
			return err
		}
		if done := ctx.Done(); done != nil {
			t := time.NewTimer(next())
			select {
			case <-done:
				t.Stop()
				return err
			case <-t.C:
				break
			}
		}
		time.Sleep(next()) // want `sleep-ignores-context: `
	}
	return err
}
