// Package failvalue holds attempts that fail without an error value: a
// lock that was not acquired, a nil connection, a result flagged as
// failed — next to waits on local conditions, which are not retries.
package failvalue

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// KV is a remote key-value store with leases.
type KV interface {
	SetNX(ctx context.Context, key, value string, ttl time.Duration) (bool, error)
}

// Locker is a lock held in the store.
type Locker struct {
	kv    KV
	key   string
	owner string
}

func (l *Locker) tryLock(ctx context.Context) bool {
	ok, err := l.kv.SetNX(ctx, l.key, l.owner, 30*time.Second)
	if err != nil {
		log.Printf("lock %s: %v", l.key, err)
		return false
	}
	return ok
}

// Lock spins on the store until the lock is ours.
func (l *Locker) Lock(ctx context.Context) {
	ok := false
	for !ok { // want `unbounded-retry: `
		ok = l.tryLock(ctx)
		time.Sleep(100 * time.Millisecond) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
}

// LockNX takes the flag straight from the store; its error is not
// looked at either.
func (l *Locker) LockNX(ctx context.Context) error {
	for i := 0; i < 10; i++ { // want `unclassified-retry: `
		acquired, err := l.kv.SetNX(ctx, l.key, l.owner, time.Minute)
		if err == nil && acquired {
			return nil
		}
		time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
	return errors.New("lock is held")
}

// Lease is a leader-election lease service.
type Lease interface {
	TryAcquire(ctx context.Context, name string) bool
}

// Campaign asks the lease service until it wins.
func Campaign(ctx context.Context, lease Lease, name string) {
	for !lease.TryAcquire(ctx, name) { // want `unbounded-retry: `
		time.Sleep(2 * time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
}

// Conn is a connection to the metrics relay.
type Conn struct{ net.Conn }

func dial(addr string) *Conn {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		log.Printf("dial %s: %v", addr, err)
		return nil
	}
	return &Conn{c}
}

// Connect redials until it gets a connection.
func Connect(addr string) *Conn {
	for { // want `unbounded-retry: `
		c := dial(addr)
		if c == nil {
			time.Sleep(time.Second) // want `fixed-sleep: `
			continue
		}
		return c
	}
}

// PushResult is what the relay says about a batch.
type PushResult struct {
	Failed bool
	Reason string
}

// Relay forwards batches.
type Relay interface {
	Push(ctx context.Context, batch []byte) PushResult
}

// Forward retries a batch the relay flagged as failed.
func Forward(ctx context.Context, r Relay, batch []byte) bool {
	for attempt := 0; attempt < 5; attempt++ {
		res := r.Push(ctx, batch)
		if !res.Failed {
			return true
		}
		log.Printf("push: %s", res.Reason)
		time.Sleep(500 * time.Millisecond) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
	return false
}

// --- must not be flagged ---

// LockPolitely backs off with jitter and a cap, and ends with ctx.
func (l *Locker) LockPolitely(ctx context.Context) error {
	backoff := 50 * time.Millisecond
	for {
		if l.tryLock(ctx) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(backoff)):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

// SpinLocal waits for an in-process mutex.
func SpinLocal(mu *sync.Mutex) {
	for !mu.TryLock() {
		time.Sleep(time.Millisecond)
	}
}

// WaitStarted waits for a flag another goroutine sets.
func WaitStarted(started *atomic.Bool) {
	for !started.Load() {
		time.Sleep(10 * time.Millisecond)
	}
}

// WaitReady waits on a callback that checks local state.
func WaitReady(ready func() bool) {
	for !ready() {
		time.Sleep(50 * time.Millisecond)
	}
}

// Worker is a pooled worker.
type Worker struct{ id int }

// Pool hands out idle workers.
type Pool struct {
	mu   sync.Mutex
	idle []*Worker
}

func (p *Pool) get() *Worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) == 0 {
		return nil
	}
	w := p.idle[len(p.idle)-1]
	p.idle = p.idle[:len(p.idle)-1]
	return w
}

// Borrow waits for an idle worker: an in-process pool, not a dependency.
func (p *Pool) Borrow() *Worker {
	for {
		w := p.get()
		if w != nil {
			return w
		}
		time.Sleep(time.Millisecond)
	}
}

// Probe checks the relay on a clock and only logs the outcome.
func Probe(ctx context.Context, r Relay) {
	for ctx.Err() == nil {
		if res := r.Push(ctx, nil); res.Failed {
			log.Printf("probe failed: %s", res.Reason)
		}
		time.Sleep(10 * time.Second)
	}
}

// ErrUnknownPeer is a peer the mesh will never reach.
var ErrUnknownPeer = errors.New("unknown peer")

// Mesh keeps connections to its peers.
type Mesh struct {
	connect func(ctx context.Context, peer string) error
}

// ConnectAll dials every peer and keeps redialling those that failed.
func (m *Mesh) ConnectAll(ctx context.Context, peers []string) {
	unconnected := peers
	for len(unconnected) > 0 { // want `unbounded-retry: ` `unclassified-retry: `
		var failed []string
		for _, p := range unconnected {
			if err := m.connect(ctx, p); err != nil {
				log.Printf("peer %s: %v", p, err)
				failed = append(failed, p)
			}
		}
		unconnected = failed
		time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
}

// ConnectAllPolitely gives up with ctx and jitters its waits.
func (m *Mesh) ConnectAllPolitely(ctx context.Context, peers []string) error {
	unconnected := peers
	for len(unconnected) != 0 {
		var failed []string
		for _, p := range unconnected {
			err := m.connect(ctx, p)
			if errors.Is(err, ErrUnknownPeer) {
				log.Printf("dropping unknown peer %s", p)
				continue
			}
			if err != nil {
				failed = append(failed, p)
			}
		}
		unconnected = failed
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(2 * time.Second)):
		}
	}
	return nil
}

// Batches splits work into batches; the list has nothing to do with
// failures.
func Batches(items []string, size int, send func([]string) error) {
	for len(items) > 0 {
		n := min(size, len(items))
		if err := send(items[:n]); err != nil {
			log.Printf("batch: %v", err)
		}
		items = items[n:]
		time.Sleep(10 * time.Millisecond)
	}
}

// KeepLock refreshes a held lock on a timer and stops once quorum is
// lost: a bool next to an error is data unless its name says success.
func (l *Locker) KeepLock(ctx context.Context, refresh func(context.Context) (bool, error), onLoss func()) {
	t := time.NewTimer(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			noQuorum, err := refresh(ctx)
			if err == nil && noQuorum {
				if onLoss != nil {
					onLoss()
				}
				return
			}
			t.Reset(10 * time.Second)
		}
	}
}

func canceled(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return true
	default:
		return false
	}
}

// Drain waits for the last connections to go, checking the context with
// a helper that only reads it.
func Drain(ctx context.Context, active *atomic.Int64) {
	for active.Load() != 0 && !canceled(ctx) {
		time.Sleep(time.Second)
	}
}
