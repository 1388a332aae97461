// Package accept serves connections: accept loops that back off on a
// temporary error and leave on any other, the work done on each accepted
// connection (whose failure drops that connection, not a retry), and
// workers that stop when their close channel is closed.
package accept

import (
	"context"
	"errors"
	"log"
	"net"
	"time"
)

type temporary interface{ Temporary() bool }

// Serve doubles its pause after a temporary error up to 1s, never
// randomised; any other error (the listener closed) ends it.
func Serve(l net.Listener, handle func(net.Conn)) {
	var delay time.Duration
	for {
		c, err := l.Accept()
		if err != nil {
			if te, ok := err.(temporary); ok && te.Temporary() {
				if delay == 0 {
					delay = 5 * time.Millisecond
				} else {
					delay *= 2
				}
				if max := time.Second; delay > max {
					delay = max
				}
				time.Sleep(delay) // want `no-jitter: `
				continue
			}
			log.Printf("accept: %v", err)
			return
		}
		delay = 0
		go handle(c)
	}
}

type route struct{ name string }

func lookup(src *net.TCPAddr) (*route, error) { return nil, errors.New("no route") }

// Accept waits a growing pause after a temporary accept error; a
// connection it cannot route is closed and the next one accepted.
func Accept(l net.Listener, closed <-chan struct{}) (net.Conn, *route, error) {
	var retries int
	for {
		conn, err := l.Accept()
		if err != nil {
			if te, ok := err.(temporary); !ok || !te.Temporary() {
				return nil, nil, err
			}
			retries++
			timer := time.NewTimer(time.Duration(retries) * 5 * time.Millisecond) // want `no-cap: ` `no-jitter: `
			select {
			case <-timer.C:
			case <-closed:
				timer.Stop()
			}
			continue
		}
		retries = 0
		src, ok := conn.RemoteAddr().(*net.TCPAddr)
		if !ok {
			conn.Close()
			continue
		}
		r, err := lookup(src)
		if err != nil {
			conn.Close()
			continue
		}
		return conn, r, nil
	}
}

type encoder struct{ c net.Conn }

func newEncoder(c net.Conn, timeout time.Duration) (*encoder, error) {
	if timeout <= 0 {
		return nil, errors.New("no timeout")
	}
	return &encoder{c}, nil
}

// Listen pauses a constant 100ms after any accept error until quit is
// closed; a client whose encoder fails is dropped.
func Listen(ln net.Listener, quit chan struct{}, clients chan<- *encoder) {
	for { // want `unclassified-retry: .*ln.Accept`
		select {
		case <-quit:
			return
		default:
		}
		conn, err := ln.Accept()
		if err != nil {
			select {
			case <-quit:
				return
			default:
				time.Sleep(100 * time.Millisecond) // want `fixed-sleep: `
				continue
			}
		}
		enc, err := newEncoder(conn, time.Second)
		if err != nil {
			conn.Close()
			continue
		}
		clients <- enc
	}
}

type pool struct {
	closeCh chan struct{}
	get     func() (net.Conn, error)
}

// Work waits 1s after any failure to get a connection, and stops once its
// close channel is closed.
func (p *pool) Work(out chan<- net.Conn) {
	for { // want `unclassified-retry: `
		c, err := p.get()
		if err != nil {
			time.Sleep(time.Second) // want `fixed-sleep: `
			select {
			case _, ok := <-p.closeCh:
				if !ok {
					return
				}
			default:
			}
			continue
		}
		out <- c
	}
}

// WorkForever has nothing that ends it.
func (p *pool) WorkForever(out chan<- net.Conn) {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		c, err := p.get()
		if err != nil {
			time.Sleep(time.Second) // want `fixed-sleep: `
			continue
		}
		out <- c
	}
}

var errPoolClosed = errors.New("pool closed")

type subscriber struct {
	receive func(context.Context) (string, error)
	out     chan string
}

// Receive stops when the pool is closed (errPoolClosed, unexported, names
// a closed resource as ErrClosed does) and pauses a constant 100ms after
// any other failure.
func (s *subscriber) Receive(ctx context.Context) {
	var errs int
	for {
		msg, err := s.receive(ctx)
		if err != nil {
			if err == errPoolClosed {
				close(s.out)
				return
			}
			if errs > 0 {
				time.Sleep(100 * time.Millisecond) // want `fixed-sleep: ` `sleep-ignores-context: `
			}
			errs++
			continue
		}
		errs = 0
		s.out <- msg
	}
}

var errTimeout = errors.New("timeout")

// ReceiveTimeouts retries only timeouts; anything else ends it.
func (s *subscriber) ReceiveTimeouts(ctx context.Context) {
	for {
		msg, err := s.receive(ctx)
		if err != nil {
			if !errors.Is(err, errTimeout) {
				close(s.out)
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(100 * time.Millisecond): // want `fixed-sleep: `
			}
			continue
		}
		s.out <- msg
	}
}
