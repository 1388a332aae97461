// Package bounds holds what ends a retry loop besides an attempt counter
// in a for statement: the context's own error from the operation, a
// per-key failure counter, a deadline channel made before the loop — and
// loops that are not retries at all: local readiness polls and iteration
// over time buckets.
package bounds

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"os"
	"time"
)

// Uploader sends batches to a metrics backend.
type Uploader struct {
	send     func(ctx context.Context, batch []byte) error
	next     func() (string, []byte)
	requeue  func(id string, batch []byte)
	failures map[string]int
}

// ErrRejected is the backend refusing a batch for good.
var ErrRejected = errors.New("batch rejected")

const maxSendAttempts = 5

// UntilCanceled stops when the send fails with its context's error, so
// it is bounded; but every other failure is retried unlooked-at, on a
// fixed clock.
func (u *Uploader) UntilCanceled(ctx context.Context, batch []byte) error {
	for { // want `unclassified-retry: `
		err := u.send(ctx, batch)
		if err == nil {
			return nil
		}
		if errors.Is(err, context.Canceled) {
			return err
		}
		log.Printf("send: %v", err)
		time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
}

// UntilDeadline compares with the sentinel; still no classification.
func (u *Uploader) UntilDeadline(ctx context.Context, batch []byte) error {
	for { // want `unclassified-retry: `
		err := u.send(ctx, batch)
		if err == nil || err == context.DeadlineExceeded {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(2 * time.Second)):
		}
	}
}

// CountsButNeverStops counts failures per batch and never looks at the
// count.
func (u *Uploader) CountsButNeverStops(ctx context.Context, id string, batch []byte) {
	for { // want `unbounded-retry: `
		err := u.send(ctx, batch)
		if err == nil {
			delete(u.failures, id)
			return
		}
		if errors.Is(err, ErrRejected) {
			return
		}
		u.failures[id]++
		time.Sleep(rand.N(time.Second)) // want `sleep-ignores-context: `
	}
}

// ObjectStore is a remote blob store.
type ObjectStore interface {
	Stat(ctx context.Context, key string) (int64, error)
}

// WaitForObject polls a remote store: that is a retry of a dependency.
func WaitForObject(ctx context.Context, s ObjectStore, key string) int64 {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		n, err := s.Stat(ctx, key)
		if err == nil {
			return n
		}
		time.Sleep(500 * time.Millisecond) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
}

// --- must not be flagged ---

// PerKey gives each batch a few attempts, counted in a map.
func (u *Uploader) PerKey(ctx context.Context, id string, batch []byte) error {
	for {
		err := u.send(ctx, batch)
		if err == nil {
			delete(u.failures, id)
			return nil
		}
		if errors.Is(err, ErrRejected) {
			return err
		}
		u.failures[id]++
		if u.failures[id] > maxSendAttempts {
			delete(u.failures, id)
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Second << u.failures[id])):
		}
	}
}

// Pump hands batches on for as long as the process runs; a batch that
// fails is requeued a few times, counted per batch, then dropped.
func (u *Uploader) Pump() {
	for {
		id, batch := u.next()
		err := u.send(context.Background(), batch)
		if err != nil {
			if errors.Is(err, ErrRejected) {
				continue
			}
			u.failures[id]++
			if u.failures[id] >= maxSendAttempts {
				log.Printf("dropping batch %s after %d attempts", id, u.failures[id])
				delete(u.failures, id)
				continue
			}
			u.requeue(id, batch)
			time.Sleep(rand.N(200 * time.Millisecond))
			continue
		}
		delete(u.failures, id)
	}
}

// WithBudget selects a deadline channel made once before the loop.
func (u *Uploader) WithBudget(ctx context.Context, batch []byte, budget time.Duration) error {
	timeout := time.After(budget)
	for {
		err := u.send(ctx, batch)
		if err == nil || errors.Is(err, ErrRejected) {
			return err
		}
		select {
		case <-timeout:
			return err
		case <-time.After(rand.N(time.Second)):
		}
	}
}

// WithTimer does the same with a timer it never resets.
func (u *Uploader) WithTimer(batch []byte, budget time.Duration) error {
	deadline := time.NewTimer(budget)
	defer deadline.Stop()
	for {
		err := u.send(context.Background(), batch)
		if err == nil || errors.Is(err, ErrRejected) {
			return err
		}
		select {
		case <-deadline.C:
			return err
		case <-time.After(rand.N(time.Second)):
		}
	}
}

// CanceledAndClassified ends with the context and retries only what is
// not rejected.
func (u *Uploader) CanceledAndClassified(ctx context.Context, batch []byte) error {
	backoff := 50 * time.Millisecond
	for {
		err := u.send(ctx, batch)
		if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, ErrRejected) {
			return err
		}
		t := time.NewTimer(rand.N(backoff))
		<-t.C
		backoff = min(backoff*2, 5*time.Second)
	}
}

// WaitForDevice waits for a device node to appear: a local readiness
// poll, not a retry.
func WaitForDevice(ctx context.Context, path string) error {
	for {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// WaitForSocket waits for a daemon's socket file, until a deadline.
func WaitForSocket(path string, budget time.Duration) error {
	deadline := time.Now().Add(budget)
	for {
		_, err := os.Lstat(path)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Compact walks the time buckets of a range; a bucket that fails is
// logged and the walk moves on.
func Compact(ctx context.Context, start, end time.Time, step time.Duration, compact func(context.Context, time.Time) error) {
	for ts := start; ts.Before(end); ts = ts.Add(step) {
		if err := compact(ctx, ts); err != nil {
			log.Printf("bucket %s: %v", ts, err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		log.Printf("bucket %s compacted", ts)
	}
}

// RemoveAll unmounts what is busy and tries again, counting attempts per
// path read from the error.
func RemoveAll(dir string, unmount func(string) error) error {
	tries := make(map[string]int)
	for {
		err := os.RemoveAll(dir)
		if err == nil {
			return nil
		}
		pe, ok := err.(*os.PathError)
		if !ok {
			return err
		}
		if err := unmount(pe.Path); err != nil {
			return err
		}
		if tries[pe.Path] == 10 {
			return err
		}
		tries[pe.Path]++
		time.Sleep(rand.N(100 * time.Millisecond))
	}
}

// Segment is one file of a write-ahead log.
type Segment struct{ name string }

// Close releases the segment.
func (s *Segment) Close() error { return nil }

// Replay opens every segment from first to last in turn; a failed close
// is logged and the replay moves on to the next segment.
func Replay(dir string, first, last int, open func(string) (*Segment, error), segmentName func(string, int) string) error {
	for i := first; i <= last; i++ {
		seg, err := open(segmentName(dir, i))
		if err != nil {
			return err
		}
		if err := seg.Close(); err != nil {
			log.Printf("close %s: %v", seg.name, err)
		}
	}
	return nil
}

// LastValid walks names backwards; the name of each round is the next.
func LastValid(names []string, parse func(string) (uint64, error), index uint64) int {
	for i := len(names) - 1; i >= 0; i-- {
		name := names[i]
		cur, err := parse(name)
		if err != nil {
			log.Printf("bad name %s: %v", name, err)
			continue
		}
		if cur <= index {
			return i
		}
	}
	return -1
}

// PerAttemptTimeout gives each attempt a timeout computed from the attempt
// number: that is still one operation, retried.
func (u *Uploader) PerAttemptTimeout(ctx context.Context, batch []byte) error {
	var err error
	for attempt := 1; attempt <= 3; attempt++ { // want `unclassified-retry: `
		actx, cancel := context.WithTimeout(ctx, time.Duration(attempt)*time.Second)
		err = u.send(actx, batch)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Second)):
		}
	}
	return err
}

// Stream is an open upload stream.
type Stream interface{ Send([]byte) error }

// OpenStream checks the context without blocking at the top of every
// round, and decides inside that case what to return.
func OpenStream(ctx context.Context, open func(context.Context) (Stream, error), halt func(error) bool) (s Stream, err error) {
	backoff := time.Millisecond
	for {
		select {
		case <-ctx.Done():
			if err == nil {
				return nil, ctx.Err()
			}
			return nil, err
		default:
		}
		if s, err = open(ctx); err == nil {
			return s, nil
		}
		if halt(err) {
			return nil, err
		}
		time.Sleep(rand.N(backoff)) // want `sleep-ignores-context: `
		backoff = min(backoff*2, time.Second)
	}
}

// Handshake dials and waits for the peer's answer, read by a goroutine;
// an EOF means the peer is not ready yet. The budget channel bounds the
// retries; the wait between them is constant.
func Handshake(dial func() (*Conn, error), budget time.Duration) (*Conn, error) {
	timeout := time.After(budget)
	for {
		c, err := dial()
		if err != nil {
			return nil, err
		}
		errc := make(chan error, 1)
		go func() { errc <- c.hello() }()
		select {
		case err = <-errc:
			if err != nil {
				if errors.Is(err, errEOF) {
					time.Sleep(100 * time.Millisecond) // want `fixed-sleep: `
					continue
				}
				return nil, err
			}
			return c, nil
		case <-timeout:
			return nil, errors.New("handshake timed out")
		}
	}
}

// Conn is a connection that greets its peer.
type Conn struct{}

func (c *Conn) hello() error { return nil }

var errEOF = errors.New("EOF")
