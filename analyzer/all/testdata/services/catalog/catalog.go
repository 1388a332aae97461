// Package catalog keeps the local product-catalogue cache in sync with the
// catalogue service.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"sync"
	"syscall"
	"time"

	"services/internal/grpc/codes"
	"services/internal/grpc/status"
)

// Service is the catalogue service client.
type Service interface {
	Snapshot(ctx context.Context) (map[string]string, error)
	Leader() string
	Send(item string) error
	Lookup(ctx context.Context, sku string) (string, error)
	Compact() error
}

// Cache is the local copy.
type Cache struct {
	mu    sync.RWMutex
	items map[string]string
	svc   Service
}

func jitter(d time.Duration) time.Duration { return d/2 + rand.N(d/2+1) }

// Reload replaces the cache with a fresh snapshot.
func (c *Cache) Reload(ctx context.Context) error {
	wait := 200 * time.Millisecond
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var snap map[string]string
		snap, err = c.svc.Snapshot(ctx)
		if err == nil {
			c.mu.Lock()
			c.items = snap
			c.mu.Unlock()
			return nil
		}
		if code := status.Code(err); code != codes.Unavailable && code != codes.DeadlineExceeded {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitter(wait)):
		}
		wait = min(wait*2, 5*time.Second)
	}
	return fmt.Errorf("reload catalogue: %w", err)
}

// AwaitLeader waits until the catalogue cluster has elected a leader.
func (c *Cache) AwaitLeader(ctx context.Context) (string, error) {
	for {
		if l := c.svc.Leader(); l != "" {
			return l, nil
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(jitter(200 * time.Millisecond)):
		}
	}
}

// CompactLoop compacts the service's change log every ten minutes.
func (c *Cache) CompactLoop(ctx context.Context) {
	t := time.NewTicker(10 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := c.svc.Compact(); err != nil {
				log.Printf("compact: %v", err)
			}
		}
	}
}

// Announce sends every item to the catalogue, 20 a second.
func (c *Cache) Announce(items []string) error {
	for _, it := range items {
		if err := c.svc.Send(it); err != nil {
			return fmt.Errorf("announce %s: %w", it, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// SendOne sends a single item, retrying refused connections while the
// catalogue restarts.
func (c *Cache) SendOne(item string) error {
	wait := 100 * time.Millisecond
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		err = c.svc.Send(item)
		if err == nil || !errors.Is(err, syscall.ECONNREFUSED) {
			return err
		}
		time.Sleep(jitter(wait))
		wait = min(wait*4, 2*time.Second)
	}
	return err
}

// lookup resolves a SKU, retrying by recursion until the deadline.
func (c *Cache) lookup(ctx context.Context, sku string, deadline time.Time, backoff time.Duration) (string, error) {
	name, err := c.svc.Lookup(ctx, sku)
	if err == nil || status.Code(err) != codes.Unavailable {
		return name, err
	}
	wait := jitter(backoff)
	if time.Now().Add(wait).After(deadline) {
		return "", fmt.Errorf("lookup %s: %w", sku, err)
	}
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-time.After(wait):
	}
	return c.lookup(ctx, sku, deadline, min(backoff*2, time.Second))
}
