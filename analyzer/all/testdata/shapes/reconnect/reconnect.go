// Package reconnect holds watch, stream, subscription and supervisor
// loops: the success path goes round too, and only some of them wait
// after a failure in a way that storms the dependency.
package reconnect

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"net"
	"time"
)

// Event is a change notification.
type Event struct {
	Key   string
	Value []byte
}

// Stream delivers the events of one watch until it breaks.
type Stream interface {
	Recv() (*Event, error)
	Close() error
}

// Store is a key-value store with watches.
type Store interface {
	Watch(ctx context.Context, prefix string) (Stream, error)
}

const retryInterval = 2 * time.Second

// Cache mirrors a prefix of the store.
type Cache struct {
	store  Store
	prefix string
	items  map[string][]byte
}

func (c *Cache) consume(s Stream) {
	defer s.Close()
	for {
		ev, err := s.Recv()
		if err != nil {
			return
		}
		c.items[ev.Key] = ev.Value
	}
}

// Run keeps the watch open for the life of the process: when the store
// goes down, every replica re-watches on the same two-second clock, and
// nothing ends the loop once ctx is cancelled.
func (c *Cache) Run(ctx context.Context) {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		s, err := c.store.Watch(ctx, c.prefix)
		if err != nil {
			log.Printf("watch %s: %v", c.prefix, err)
			time.Sleep(retryInterval) // want `fixed-sleep: ` `sleep-ignores-context: `
			continue
		}
		c.consume(s)
	}
}

// RunUntilDone ends with ctx, but still re-watches in lock-step.
func (c *Cache) RunUntilDone(ctx context.Context) error {
	for { // want `unclassified-retry: `
		s, err := c.store.Watch(ctx, c.prefix)
		if err != nil {
			log.Printf("watch %s: %v", c.prefix, err)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(retryInterval): // want `fixed-sleep: `
			}
			continue
		}
		c.consume(s)
	}
}

// Subscriber holds a broker subscription.
type Subscriber struct {
	Dial   func(ctx context.Context) (net.Conn, error)
	Handle func(net.Conn) error
	stop   chan struct{}
}

// Loop redials with a doubling delay that nothing randomises or caps.
func (s *Subscriber) Loop(ctx context.Context) {
	delay := 100 * time.Millisecond
	for { // want `unclassified-retry: `
		conn, err := s.Dial(ctx)
		if err != nil {
			select {
			case <-s.stop:
				return
			case <-time.After(delay): // want `no-jitter: ` `no-cap: `
			}
			delay *= 2
			continue
		}
		delay = 100 * time.Millisecond
		_ = s.Handle(conn)
	}
}

// Supervise restarts a worker that returns, waiting only after it failed.
func Supervise(run func() error) {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		if err := run(); err != nil {
			log.Printf("worker exited: %v; restarting", err)
			time.Sleep(5 * time.Second) // want `fixed-sleep: `
			continue
		}
		log.Printf("worker finished; starting again")
	}
}

// --- must not be flagged ---

// ErrForbidden is a watch the store will never allow.
var ErrForbidden = errors.New("forbidden")

// RunJittered backs off with full jitter and a cap, gives up on what
// cannot succeed, and ends with ctx.
func (c *Cache) RunJittered(ctx context.Context) error {
	backoff := 100 * time.Millisecond
	for {
		s, err := c.store.Watch(ctx, c.prefix)
		if errors.Is(err, ErrForbidden) {
			return err
		}
		if err != nil {
			t := time.NewTimer(rand.N(backoff))
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
			backoff = min(2*backoff, 30*time.Second)
			continue
		}
		backoff = 100 * time.Millisecond
		c.consume(s)
	}
}

// Periodic syncs on a fixed clock whatever the outcome: both paths wait
// alike, so it is a daemon, not a retry.
func (c *Cache) Periodic(ctx context.Context, sync func(context.Context) error) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		if err := sync(ctx); err != nil {
			log.Printf("sync: %v", err)
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Poll waits after a failure and after a success, but not as long: a
// failure is retried on a clock of its own, every 30 s.
func Poll(ctx context.Context, fetch func(context.Context) ([]byte, error), apply func([]byte)) {
	for ctx.Err() == nil { // want `unclassified-retry: `
		b, err := fetch(ctx)
		if err != nil {
			log.Printf("poll: %v", err)
			time.Sleep(30 * time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
			continue
		}
		apply(b)
		time.Sleep(time.Minute)
	}
}

// Serve accepts connections and stops when the listener is closed; the
// constant wait after a failed accept (too many open files) makes every
// instance accept again in lock-step.
func Serve(l net.Listener, handle func(net.Conn)) error {
	for {
		conn, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			time.Sleep(50 * time.Millisecond) // want `fixed-sleep: `
			continue
		}
		go handle(conn)
	}
}

// ServeTCP accepts through a concrete listener type; a closed listener
// makes it spin forever.
func ServeTCP(l *net.TCPListener, handle func(net.Conn)) {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		conn, err := l.AcceptTCP()
		if err != nil {
			time.Sleep(50 * time.Millisecond) // want `fixed-sleep: `
			continue
		}
		go handle(conn)
	}
}

// ServeBackoff backs off after a failed accept as net/http does, with
// jitter and a cap, and stops with the listener.
func ServeBackoff(l net.Listener, out chan<- net.Conn) error {
	var delay time.Duration
	for {
		conn, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			time.Sleep(delay/2 + rand.N(delay/2))
			continue
		}
		delay = 0
		out <- conn
	}
}

// Replay moves on to the next segment whatever happens: iteration over
// items, not a retry.
func Replay(first, last int, replay func(seg int) error) {
	for seg := first; seg <= last; seg++ {
		if err := replay(seg); err != nil {
			log.Printf("segment %d: %v", seg, err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		log.Printf("segment %d replayed", seg)
	}
}

// Heartbeat beats on a ticker; a missed beat waits the same tick.
func Heartbeat(ctx context.Context, beat func(context.Context) error) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := beat(ctx); err != nil {
			log.Printf("heartbeat: %v", err)
		}
	}
}

// Message is one delivery of a queue.
type Message struct {
	ID   string
	Body []byte
}

// Consume receives one message a round and handles it; a failed receive
// is retried a constant second later.
func Consume(ctx context.Context, receive func(context.Context) (*Message, error), handle func(*Message)) {
	for ctx.Err() == nil { // want `unclassified-retry: `
		m, err := receive(ctx)
		if err != nil {
			time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
			continue
		}
		handle(m)
	}
}

// ErrStale is a write the store refused because it saw a newer one.
var ErrStale = errors.New("stale write")

// apply writes one message, retrying a stale write a few times.
func (c *Cache) apply(ctx context.Context, write func(context.Context, *Message) error, m *Message) {
	for attempt := 0; attempt < 3; attempt++ {
		err := write(ctx, m)
		if err == nil || !errors.Is(err, ErrStale) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(rand.N(min(100*time.Millisecond<<attempt, time.Second))):
		}
	}
}

// Feed hands each received message to apply, which retries by itself:
// every round works on the next message, and only a failed receive is
// retried here, jittered.
func (c *Cache) Feed(ctx context.Context, receive func(context.Context) (*Message, error), write func(context.Context, *Message) error) {
	for ctx.Err() == nil { // want `unclassified-retry: `
		m, err := receive(ctx)
		if err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(rand.N(time.Second)):
			}
			continue
		}
		c.apply(ctx, write, m)
	}
}

// Listing is the state of a listing the cache keeps alive.
type Listing struct {
	State int
	Seen  time.Time
}

const listingRunning = 1

// KeepAlive refreshes a listing on a ticker until it stops running or
// ctx ends: the state it compares is a result, not a count of attempts.
func KeepAlive(ctx context.Context, update func(context.Context, Listing) (Listing, error), l Listing, verbose bool) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			l.Seen = time.Now()
			if next, err := update(ctx, l); err == nil {
				if next.State != listingRunning {
					if verbose {
						log.Printf("listing done")
					}
					return
				}
				l = next
			} else if verbose {
				log.Printf("refresh: %v", err)
			}
		}
	}
}

// Monitor wakes on a timer or on a leadership change, then checks; a
// failed check waits for the next wake-up like any other.
func Monitor(elected <-chan struct{}, stop <-chan struct{}, check func() error) {
	for {
		select {
		case <-elected:
		case <-time.After(30 * time.Second):
		case <-stop:
			return
		}
		if err := check(); err != nil {
			log.Printf("check: %v", err)
		}
	}
}
