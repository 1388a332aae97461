package reconnect

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"time"
)

// Backoff waits longer after each failure, up to a cap, and starts over
// when reset.
type Backoff struct {
	ctx      context.Context
	min, max time.Duration
	n        int
}

func (b *Backoff) Ongoing() bool { return b.ctx.Err() == nil }

func (b *Backoff) Reset() { b.n = 0 }

func (b *Backoff) Wait() {
	d := min(b.min<<b.n, b.max)
	b.n++
	t := time.NewTimer(d/2 + rand.N(d/2+1))
	defer t.Stop()
	select {
	case <-b.ctx.Done():
	case <-t.C:
	}
}

// KV is a key-value store with blocking queries.
type KV interface {
	Get(ctx context.Context, key string, index uint64) (value []byte, next uint64, err error)
}

var errNoKey = errors.New("no such key")

// WatchKey long-polls a key: each success hands back one value, and a
// failure backs off until a poll succeeds again — whatever failed.
func WatchKey(ctx context.Context, kv KV, key string, f func([]byte) bool) {
	b := &Backoff{ctx: ctx, min: 100 * time.Millisecond, max: 10 * time.Second}
	var index uint64
	for b.Ongoing() { // want `unclassified-retry: `
		v, next, err := kv.Get(ctx, key, index)
		if err != nil {
			log.Printf("get %s: %v", key, err)
			b.Wait()
			continue
		}
		b.Reset()
		index = next
		if !f(v) {
			return
		}
	}
}

// WatchKeyClassified gives up on a key that is gone.
func WatchKeyClassified(ctx context.Context, kv KV, key string, f func([]byte) bool) {
	b := &Backoff{ctx: ctx, min: 100 * time.Millisecond, max: 10 * time.Second}
	var index uint64
	for b.Ongoing() {
		v, next, err := kv.Get(ctx, key, index)
		if errors.Is(err, errNoKey) {
			return
		}
		if err != nil {
			b.Wait()
			continue
		}
		b.Reset()
		index = next
		if !f(v) {
			return
		}
	}
}

// Drain reads values one by one and retries a failed read a constant
// second later.
func Drain(ctx context.Context, kv KV, key string, out chan<- []byte) {
	var index uint64
	for ctx.Err() == nil { // want `unclassified-retry: `
		v, next, err := kv.Get(ctx, key, index)
		if err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(time.Second): // want `fixed-sleep: `
			}
			continue
		}
		index = next
		out <- v
	}
}
