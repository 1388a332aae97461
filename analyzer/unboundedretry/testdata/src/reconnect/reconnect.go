// Package reconnect holds reconnect loops for brokers and databases.
package reconnect

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"time"
)

type Conn struct{ net.Conn }

func dial(addr string) (*Conn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &Conn{c}, nil
}

func jittered(d time.Duration) time.Duration { return rand.N(d) }

// Reconnect until it works, however long that takes.
func Forever(addr string) *Conn {
	for { // want `unbounded-retry: retry loop has no attempt limit, deadline or context exit`
		c, err := dial(addr)
		if err == nil {
			return c
		}
		var ne net.Error
		if errors.As(err, &ne) && !ne.Timeout() {
			println("dial:", err.Error())
		}
		time.Sleep(jittered(time.Second))
	}
}

// A classification that never gives up on transient errors is unbounded too.
func UntilPermanent(addr string) (*Conn, error) {
	for { // want `unbounded-retry`
		c, err := dial(addr)
		if err == nil {
			return c, nil
		}
		if errors.Is(err, net.ErrClosed) {
			return nil, err
		}
		time.Sleep(jittered(2 * time.Second))
	}
}

// A context in scope that the loop never looks at does not bound it.
func IgnoresContext(ctx context.Context, addr string) *Conn {
	var c *Conn
	var err error
	for c, err = dial(addr); err != nil; c, err = dial(addr) { // want `unbounded-retry`
		time.Sleep(jittered(time.Second))
	}
	return c
}

// A success flag is not a bound.
func Flag(addr string) *Conn {
	var c *Conn
	connected := false
	for !connected { // want `unbounded-retry`
		var err error
		c, err = dial(addr)
		if err != nil {
			time.Sleep(jittered(time.Second))
			continue
		}
		connected = true
	}
	return c
}

// Retry with goto, no limit.
func Goto(addr string) *Conn {
retry: // want `unbounded-retry`
	c, err := dial(addr)
	if err != nil {
		time.Sleep(jittered(time.Second))
		goto retry
	}
	return c
}

// --- must not be flagged ---

func Attempts(addr string) (*Conn, error) {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var c *Conn
		if c, err = dial(addr); err == nil {
			return c, nil
		}
		time.Sleep(jittered(time.Second))
	}
	return nil, err
}

func AttemptsInside(addr string) (*Conn, error) {
	attempt := 0
	for {
		c, err := dial(addr)
		if err == nil {
			return c, nil
		}
		attempt++
		if attempt >= 5 {
			return nil, err
		}
		time.Sleep(jittered(time.Second))
	}
}

func Context(ctx context.Context, addr string) (*Conn, error) {
	for {
		c, err := dial(addr)
		if err == nil {
			return c, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(jittered(time.Second)):
		}
	}
}

func ContextErr(ctx context.Context, addr string) (*Conn, error) {
	for {
		c, err := dial(addr)
		if err == nil {
			return c, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		time.Sleep(jittered(time.Second))
	}
}

func Deadline(addr string, budget time.Duration) (*Conn, error) {
	start := time.Now()
	for {
		c, err := dial(addr)
		if err == nil {
			return c, nil
		}
		if time.Since(start) > budget {
			return nil, err
		}
		time.Sleep(jittered(time.Second))
	}
}

func DeadlineCond(addr string, deadline time.Time) (*Conn, error) {
	var err error
	for time.Now().Before(deadline) {
		var c *Conn
		if c, err = dial(addr); err == nil {
			return c, nil
		}
		time.Sleep(jittered(time.Second))
	}
	return nil, err
}

func RangeN(addr string) (*Conn, error) {
	var err error
	for range 3 {
		var c *Conn
		if c, err = dial(addr); err == nil {
			return c, nil
		}
		time.Sleep(jittered(time.Second))
	}
	return nil, err
}

func Stop(addr string, stop <-chan struct{}) (*Conn, error) {
	for {
		c, err := dial(addr)
		if err == nil {
			return c, nil
		}
		select {
		case <-stop:
			return nil, errors.New("stopped")
		case <-time.After(jittered(time.Second)):
		}
	}
}

// A server loop that accepts forever spins on a closed listener.
func Serve(l net.Listener, handle func(net.Conn)) {
	for { // want `unbounded-retry: `
		c, err := l.Accept()
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		go handle(c)
	}
}

// A server loop that stops when its listener is closed.
func ServeUntilClosed(l net.Listener, handle func(net.Conn)) error {
	for {
		c, err := l.Accept()
		if errors.Is(err, net.ErrClosed) {
			return err
		}
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		go handle(c)
	}
}

// A recursive retry bounded by its attempt parameter.
func Recursive(addr string, left int) (*Conn, error) {
	c, err := dial(addr)
	if err != nil && left > 0 {
		time.Sleep(jittered(time.Second))
		return Recursive(addr, left-1)
	}
	return c, err
}

// The context is checked through an error variable.
func ContextErrVar(ctx context.Context, addr string) (*Conn, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c, err := dial(addr)
		if err == nil {
			return c, nil
		}
		time.Sleep(jittered(time.Second))
	}
}
