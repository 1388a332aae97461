// Package closings holds retries closed without a loop statement: a
// function that re-launches itself in a new goroutine, a watchdog that
// wakes its own loop again after a failure, and a Read that waits and
// asks its caller to read again; next to the same shapes that are not
// retries.
package closings

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"time"
)

// Client keeps one connection to a server.
type Client struct {
	addr     string
	conn     net.Conn
	kick     chan struct{}
	attempts int
}

// Connect re-launches itself after a constant second on any dial error.
func (c *Client) Connect() {
	conn, err := net.Dial("tcp", c.addr)
	if err != nil {
		time.Sleep(time.Second) // want `fixed-sleep: `
		go c.Connect()          // want `unbounded-retry: ` `unclassified-retry: `
		return
	}
	c.conn = conn
}

// Redial starts a goroutine that waits and dials again.
func (c *Client) Redial() {
	conn, err := net.Dial("tcp", c.addr)
	if err != nil {
		go func() {
			time.Sleep(2 * time.Second) // want `fixed-sleep: `
			c.Redial()                  // want `unbounded-retry: ` `unclassified-retry: `
		}()
		return
	}
	c.conn = conn
}

func (c *Client) sync() error { return nil }

// Watch re-runs a failed sync by waking its own loop five seconds later.
func (c *Client) Watch(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.kick:
			if err := c.sync(); err != nil {
				go func() { // want `unclassified-retry: `
					time.Sleep(5 * time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
					c.kick <- struct{}{}
				}()
			}
		}
	}
}

// Stream reads a body that it reopens after a failure.
type Stream struct {
	body   io.ReadCloser
	reopen func() (io.ReadCloser, error)
	tries  int
}

// Read waits a constant second after a failed read, reopens the body and
// returns no error, so the caller's read loop tries again, for ever.
func (s *Stream) Read(p []byte) (int, error) { // want `unbounded-retry: `
	n, err := s.body.Read(p)
	if err != nil && err != io.EOF {
		time.Sleep(time.Second) // want `fixed-sleep: `
		b, err := s.reopen()
		if err != nil {
			return 0, err
		}
		s.body = b
		return 0, nil
	}
	return n, err
}

// --- must not be flagged ---

// Serve hands every accepted connection to a new goroutine: go with
// another function is no re-launch.
func (c *Client) Serve(l net.Listener) error {
	for {
		conn, err := l.Accept()
		if err != nil {
			return err
		}
		go c.handle(conn)
	}
}

func (c *Client) handle(conn net.Conn) { conn.Close() }

// Run starts itself again only after it succeeded: a periodic job.
func (c *Client) Run() {
	if err := c.sync(); err != nil {
		return
	}
	go func() {
		time.Sleep(time.Minute)
		c.Run()
	}()
}

// ConnectBounded re-launches itself a few times with a jittered, capped
// delay, and only for timeouts.
func (c *Client) ConnectBounded(ctx context.Context) {
	conn, err := net.Dial("tcp", c.addr)
	if err != nil {
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() || c.attempts >= 5 {
			return
		}
		c.attempts++
		d := min(time.Second<<c.attempts, 30*time.Second)
		go func() {
			select {
			case <-ctx.Done():
				return
			case <-time.After(rand.N(d)):
			}
			c.ConnectBounded(ctx)
		}()
		return
	}
	c.conn = conn
}

// Notify wakes the loop of another channel than the one it receives:
// a hand-off, not a retry.
func (c *Client) Notify(ctx context.Context, done chan<- struct{}) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.kick:
			if err := c.sync(); err != nil {
				go func() {
					time.Sleep(time.Second)
					done <- struct{}{}
				}()
			}
		}
	}
}

// Tick wakes its own loop after every sync, failed or not: periodic.
func (c *Client) Tick(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.kick:
			_ = c.sync()
			go func() {
				time.Sleep(time.Minute)
				c.kick <- struct{}{}
			}()
		}
	}
}

// Paced is a reader that waits before every read: a rate limit, not a
// retry.
type Paced struct {
	src  io.Reader
	wait time.Duration
}

// Read waits, then reads.
func (r *Paced) Read(p []byte) (int, error) {
	time.Sleep(r.wait)
	if len(p) == 0 {
		return 0, nil
	}
	return r.src.Read(p)
}

// Plain returns its source's error: the caller decides.
type Plain struct{ src io.Reader }

// Read passes failures on.
func (r *Plain) Read(p []byte) (int, error) {
	n, err := r.src.Read(p)
	if err != nil {
		return 0, err
	}
	return n, nil
}
