// Package orders retries around clients that retry themselves, and around
// clients that do not.
package orders

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"store"
	"wrap"
)

var errTransient = errors.New("transient")

func wait(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

func jitter(attempt int) time.Duration {
	return time.Duration(rand.Int64N(int64(min(100*time.Millisecond<<attempt, 2*time.Second))))
}

// Price retries a read that already retries: 4 × 5 requests.
func Price(ctx context.Context, c *store.Client, sku string) (string, error) {
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `nested-retry: retry loop retries c.Get, which retries too \(store/store.go:\d+\): attempts multiply, \(3\+1\)×\(4\+1\) = 20 attempts per call`
		var v string
		if v, err = c.Get(ctx, sku); err == nil {
			return v, nil
		}
		if !errors.Is(err, errTransient) {
			return "", err
		}
		if err := wait(ctx, jitter(attempt)); err != nil {
			return "", err
		}
	}
	return "", err
}

// Stock reaches the retrying read through a helper of the other package.
func Stock(ctx context.Context, c *store.Client, sku string) (string, error) {
	var err error
	for attempt := range 3 { // want `nested-retry: retry loop retries c.Lookup, which retries too \(store/store.go:\d+\): attempts multiply, \(2\+1\)×\(4\+1\) = 15 attempts per call`
		var v string
		if v, err = c.Lookup(ctx, sku); err == nil {
			return v, nil
		}
		if !errors.Is(err, errTransient) {
			return "", err
		}
		if err := wait(ctx, jitter(attempt)); err != nil {
			return "", err
		}
	}
	return "", err
}

// Follow retries around a read without an attempt limit.
func Follow(ctx context.Context, c *store.Client, sku string) (string, error) {
	var err error
	for attempt := range 3 { // want `nested-retry: retry loop retries c.Watch, which retries too \(store/store.go:\d+\): attempts multiply, unbounded attempts per call`
		var v string
		if v, err = c.Watch(ctx, sku); err == nil {
			return v, nil
		}
		if !errors.Is(err, errTransient) {
			return "", err
		}
		if err := wait(ctx, jitter(attempt)); err != nil {
			return "", err
		}
	}
	return "", err
}

// Sync gives a retry wrapper an operation that retries itself.
func Sync(ctx context.Context, c *store.Client, sku string) error {
	return wrap.Do(ctx, func(ctx context.Context) error { // want `nested-retry: wrap.Do retries c.Get, which retries too \(store/store.go:\d+\): attempts multiply, \(2\+1\)×\(4\+1\) = 15 attempts per call`
		_, err := c.Get(ctx, sku)
		return err
	})
}

// Refresh retries the wrapper itself: 2 × 3.
func Refresh(ctx context.Context, c *store.Client, sku string) error {
	var err error
	for attempt := range 2 { // want `nested-retry: retry loop retries wrap.Do, which retries too \(wrap/wrap.go:\d+\): attempts multiply, \(1\+1\)×\(2\+1\) = 6 attempts per call`
		if err = wrap.Do(ctx, func(ctx context.Context) error { _, err := c.Peek(ctx, sku); return err }); err == nil {
			return nil
		}
		if !errors.Is(err, errTransient) {
			return err
		}
		if err := wait(ctx, jitter(attempt)); err != nil {
			return err
		}
	}
	return err
}

// Must-not-flag: one retry layer each.

// Peek retries a single-shot read: one layer.
func Peek(ctx context.Context, c *store.Client, sku string) (string, error) {
	var err error
	for attempt := range 4 {
		var v string
		if v, err = c.Peek(ctx, sku); err == nil {
			return v, nil
		}
		if !errors.Is(err, errTransient) {
			return "", err
		}
		if err := wait(ctx, jitter(attempt)); err != nil {
			return "", err
		}
	}
	return "", err
}

// Read calls the retrying read once: its only layer is the client's.
func Read(ctx context.Context, c *store.Client, sku string) (string, error) {
	return c.Get(ctx, sku)
}

// Touch gives the retry wrapper a single-shot operation.
func Touch(ctx context.Context, c *store.Client, sku string) error {
	return wrap.Do(ctx, func(ctx context.Context) error {
		_, err := c.Peek(ctx, sku)
		return err
	})
}

// Once gives a function that calls once a retrying read.
func Once(ctx context.Context, c *store.Client, sku string) error {
	return wrap.Once(ctx, func(ctx context.Context) error {
		_, err := c.Get(ctx, sku)
		return err
	})
}

// Backfill retries after a read whose retries are its own, outside the
// loop: the loop retries only the write.
func Backfill(ctx context.Context, c *store.Client, sku string, write func(string) error) error {
	v, err := c.Get(ctx, sku)
	if err != nil {
		return err
	}
	for attempt := range 3 {
		if err = write(v); err == nil {
			return nil
		}
		if !errors.Is(err, errTransient) {
			return err
		}
		if err := wait(ctx, jitter(attempt)); err != nil {
			return err
		}
	}
	return err
}

type queue struct{}

func (queue) receive(ctx context.Context) (string, error) { return "", errTransient }

// Consume retries the receive, not the work: the retrying read runs on
// the success path, once per message.
func Consume(ctx context.Context, q queue, c *store.Client) {
	for ctx.Err() == nil {
		sku, err := q.receive(ctx)
		if err != nil {
			if err := wait(ctx, jitter(3)); err != nil {
				return
			}
			continue
		}
		_, _ = c.Get(ctx, sku)
	}
}

// Drain gives up on the first failure of the retrying read, after its own
// retries: the loop goes on with the next key, it does not retry this one.
func Drain(ctx context.Context, c *store.Client, skus []string) {
	for _, sku := range skus {
		if _, err := c.Get(ctx, sku); err != nil {
			return
		}
	}
}

// SyncTimes retries a read whose attempts its own caller sets.
func SyncTimes(ctx context.Context, c *store.Client, sku string, maxRetries int) error {
	var err error
	for attempt := range 3 { // want `nested-retry: retry loop retries c.Fetch, which retries too \(store/store.go:\d+\): attempts multiply, \(2\+1\) × the attempts set by the argument maxRetries per call`
		if _, err = c.Fetch(ctx, sku, maxRetries); err == nil || !errors.Is(err, errTransient) {
			return err
		}
		if err := wait(ctx, jitter(attempt)); err != nil {
			return err
		}
	}
	return err
}

// SyncTwice gives the read a constant: 3 × 2.
func SyncTwice(ctx context.Context, c *store.Client, sku string) error {
	var err error
	for attempt := range 3 { // want `nested-retry: retry loop retries c.Fetch, which retries too \(store/store.go:\d+\): attempts multiply, \(2\+1\)×\(1\+1\) = 6 attempts per call`
		if _, err = c.Fetch(ctx, sku, 2); err == nil || !errors.Is(err, errTransient) {
			return err
		}
		if err := wait(ctx, jitter(attempt)); err != nil {
			return err
		}
	}
	return err
}

// Options set how often Warm tries.
type Options struct{ Attempts int }

// Warm retries as often as its options say a read that retries 5 times.
func Warm(ctx context.Context, c *store.Client, sku string, o Options) error {
	var err error
	for attempt := 0; attempt < o.Attempts; attempt++ { // want `nested-retry: retry loop retries c.Get, which retries too \(store/store.go:\d+\): attempts multiply, the attempts set by o.Attempts × \(4\+1\) per call`
		if _, err = c.Get(ctx, sku); err == nil || !errors.Is(err, errTransient) {
			return err
		}
		if err := wait(ctx, jitter(attempt)); err != nil {
			return err
		}
	}
	return err
}

// Prime retries a read that tries as often as the client is set to.
func Prime(ctx context.Context, c *store.Client, sku string) error {
	var err error
	for attempt := range 2 { // want `nested-retry: retry loop retries c.Load, which retries too \(store/store.go:\d+\): attempts multiply, \(1\+1\) × the attempts set by c.MaxRetries per call`
		if _, err = c.Load(ctx, sku); err == nil || !errors.Is(err, errTransient) {
			return err
		}
		if err := wait(ctx, jitter(attempt)); err != nil {
			return err
		}
	}
	return err
}

// Reread retries a read whose limit nothing can read.
func Reread(ctx context.Context, c *store.Client, sku string) error {
	var err error
	for attempt := range 2 { // want `nested-retry: retry loop retries c.Refresh, which retries too \(store/store.go:\d+\): attempts multiply, \(1\+1\) × the attempts of c.Refresh, a number not read here, per call`
		if err = c.Refresh(ctx, sku); err == nil || !errors.Is(err, errTransient) {
			return err
		}
		if err := wait(ctx, jitter(attempt)); err != nil {
			return err
		}
	}
	return err
}
