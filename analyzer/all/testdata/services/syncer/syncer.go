// Package syncer mirrors the product catalogue between regions.
package syncer

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand"
	"net"
	"time"
)

// ErrVersionSkew means the remote region runs an older schema for now.
var ErrVersionSkew = errors.New("syncer: version skew")

// Region is a remote catalogue region.
type Region interface {
	Push(ctx context.Context, batch []string) error
	PushNoCtx(batch []string) error
	Pull(ctx context.Context, since int64) ([]string, int64, error)
	Done() bool
}

func transient(err error) bool {
	if errors.Is(err, ErrVersionSkew) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func fullJitter(base, ceiling time.Duration, attempt int) time.Duration {
	d := ceiling
	if attempt < 20 {
		d = min(ceiling, base<<attempt)
	}
	return time.Duration(rand.Int63n(int64(d) + 1))
}

// pushGoto is the original pusher, kept for the legacy regions.
func pushGoto(ctx context.Context, r Region, batch []string) error {
	n := 0
again:
	err := r.Push(ctx, batch)
	if err != nil && transient(err) && n < 4 {
		n++
		time.Sleep(fullJitter(100*time.Millisecond, 3*time.Second, n)) // want `sleep-ignores-context: `
		goto again
	}
	return err
}

// pushRec pushes a batch, retrying by recursion.
func pushRec(ctx context.Context, r Region, batch []string, attempt int) error {
	err := r.Push(ctx, batch)
	if err == nil || attempt >= 3 {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(fullJitter(200*time.Millisecond, 5*time.Second, attempt)):
	}
	return pushRec(ctx, r, batch, attempt+1) // want `unclassified-retry: `
}

// pushRecSafe is pushRec with classification.
func pushRecSafe(ctx context.Context, r Region, batch []string, attempt int) error {
	err := r.Push(ctx, batch)
	if err == nil || !transient(err) || attempt >= 3 {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(fullJitter(200*time.Millisecond, 5*time.Second, attempt)):
	}
	return pushRecSafe(ctx, r, batch, attempt+1)
}

// pushOffline is the disaster-recovery pusher run by hand.
func pushOffline(r Region, batch []string) error {
	var err error
	for i := 0; i < 5; i++ { // want `unclassified-retry: `
		if i > 0 {
			time.Sleep(fullJitter(500*time.Millisecond, 10*time.Second, i))
		}
		if err = r.PushNoCtx(batch); err != nil {
			log.Printf("push attempt %d failed: %v", i+1, err)
			continue
		}
		return nil
	}
	return err
}

// Pull fetches changes since a version, widening the jittered wait with
// every attempt.
func Pull(ctx context.Context, r Region, since int64) ([]string, int64, error) {
	base := 50 * time.Millisecond
	for i := 0; i < 15; i++ {
		items, v, err := r.Pull(ctx, since)
		if err == nil {
			return items, v, nil
		}
		if !transient(err) {
			return nil, 0, err
		}
		sleep := time.Duration(rand.Int63n(int64(base) << uint(i)))
		select {
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		case <-time.After(sleep): // want `no-cap: `
		}
	}
	return nil, 0, errors.New("pull: region unavailable")
}

// AwaitDrain waits until the region reports its queue drained.
func AwaitDrain(ctx context.Context, r Region) error {
	for !r.Done() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil
}

// PushAll pushes batches no faster than one per tick of the limiter.
func PushAll(ctx context.Context, r Region, batches [][]string, limiter <-chan time.Time) error {
	for i, b := range batches {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-limiter:
		}
		if err := r.Push(ctx, b); err != nil {
			return fmt.Errorf("batch %d: %w", i, err)
		}
	}
	return nil
}

// Report logs replication lag every minute.
func Report(ctx context.Context, lag func() (time.Duration, error)) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			d, err := lag()
			if err != nil {
				log.Printf("lag probe failed: %v", err)
				continue
			}
			log.Printf("replication lag %s", d)
		}
	}
}

// PushUntil pushes with retries until the deadline passes.
func PushUntil(r Region, batch []string, deadline time.Time) error {
	for attempt := 0; ; attempt++ {
		err := r.PushNoCtx(batch)
		if err == nil || !transient(err) {
			return err
		}
		wait := fullJitter(100*time.Millisecond, 5*time.Second, attempt)
		if time.Until(deadline) < wait {
			return fmt.Errorf("push: deadline reached: %w", err)
		}
		time.Sleep(wait)
	}
}

// Mirror pages through the source region and pushes each page to the
// target, pausing after every page.
func Mirror(ctx context.Context, src, dst Region, pause time.Duration) error {
	var since int64
	for {
		items, next, err := src.Pull(ctx, since)
		if err != nil {
			return err
		}
		if len(items) == 0 {
			return nil
		}
		if err := dst.Push(ctx, items); err != nil {
			return err
		}
		since = next
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
	}
}

// PushAny pushes to the first replica that accepts the batch.
func PushAny(ctx context.Context, replicas []Region, batch []string) error {
	var errs []error
	for _, r := range replicas {
		err := r.Push(ctx, batch)
		if err == nil {
			return nil
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Change is one catalogue change notification.
type Change struct {
	SKU string
	Ack func()
	Nak func()
}

// Apply consumes change notifications until the channel closes.
func Apply(ctx context.Context, changes <-chan Change, apply func(context.Context, string) error) {
	for ch := range changes {
		if err := apply(ctx, ch.SKU); err != nil {
			log.Printf("apply %s: %v", ch.SKU, err)
			ch.Nak()
			continue
		}
		ch.Ack()
	}
}
