// Package grpcclient wraps the generated inventory and identity stubs with
// the retry policy agreed with the platform team: retry Unavailable,
// DeadlineExceeded, ResourceExhausted and Aborted; everything else is final.
package grpcclient

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"services/internal/grpc/codes"
	"services/internal/grpc/status"
)

// Item is an inventory item.
type Item struct {
	SKU      string
	Quantity int64
	Version  int64
}

// InventoryClient is the generated stub.
type InventoryClient interface {
	GetItem(ctx context.Context, sku string) (*Item, error)
	Reserve(ctx context.Context, sku string, qty int64, version int64) error
	ListItems(ctx context.Context, warehouse string) ([]*Item, error)
}

// Inventory is the retrying wrapper.
type Inventory struct {
	stub        InventoryClient
	maxAttempts int
	baseDelay   time.Duration
	maxDelay    time.Duration
}

func (inv *Inventory) delay(attempt int) time.Duration {
	d := inv.maxDelay
	if attempt < 20 {
		d = min(inv.maxDelay, inv.baseDelay<<attempt)
	}
	return rand.N(d) + time.Millisecond
}

func retryableCode(c codes.Code) bool {
	switch c {
	case codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted, codes.Aborted:
		return true
	}
	return false
}

// GetItem reads one item.
func (inv *Inventory) GetItem(ctx context.Context, sku string) (*Item, error) {
	var lastErr error
	for attempt := 0; attempt < inv.maxAttempts; attempt++ {
		it, err := inv.stub.GetItem(ctx, sku)
		if err == nil {
			return it, nil
		}
		lastErr = err
		if !retryableCode(status.Code(err)) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(inv.delay(attempt)):
		}
	}
	return nil, fmt.Errorf("get item %s: %w", sku, lastErr)
}

// Reserve takes stock with optimistic concurrency: Aborted means the
// version moved, so re-read and try again.
func (inv *Inventory) Reserve(ctx context.Context, sku string, qty int64) error {
	for attempt := 0; attempt < inv.maxAttempts; attempt++ {
		it, err := inv.stub.GetItem(ctx, sku)
		if err != nil {
			return err
		}
		err = inv.stub.Reserve(ctx, sku, qty, it.Version)
		if err == nil {
			return nil
		}
		if status.Code(err) != codes.Aborted {
			return err
		}
		t := time.NewTimer(inv.delay(attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return status.Error(codes.Aborted, "reserve: too much contention")
}

// WaitForItem waits until a freshly created SKU becomes readable. Creation
// is asynchronous on the inventory side, so NotFound is expected at first.
func (inv *Inventory) WaitForItem(ctx context.Context, sku string) (*Item, error) {
	for attempt := 0; attempt < 10; attempt++ { // want `retry-permanent: `
		it, err := inv.stub.GetItem(ctx, sku)
		if err == nil {
			return it, nil
		}
		switch status.Code(err) {
		case codes.NotFound, codes.Unavailable:
		default:
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(inv.delay(attempt)):
		}
	}
	return nil, status.Errorf(codes.NotFound, "item %s never appeared", sku)
}

// listRetryable is consulted by ListItems. PermissionDenied shows up while
// IAM bindings propagate after a warehouse is provisioned.
var listRetryable = map[codes.Code]bool{
	codes.Unavailable:      true,
	codes.DeadlineExceeded: true,
	codes.PermissionDenied: true,
}

// ListItems lists a warehouse.
func (inv *Inventory) ListItems(ctx context.Context, warehouse string) ([]*Item, error) {
	var err error
	for attempt := 0; attempt < inv.maxAttempts; attempt++ { // want `retry-permanent: `
		var items []*Item
		items, err = inv.stub.ListItems(ctx, warehouse)
		if err == nil {
			return items, nil
		}
		if !listRetryable[status.Code(err)] {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(inv.delay(attempt)):
		}
	}
	return nil, err
}

// AdjustStock applies a delta. The server validates the SKU against a
// cache that is refreshed every few seconds, hence the InvalidArgument retry.
func (inv *Inventory) AdjustStock(ctx context.Context, sku string, delta int64) error {
	for attempt := 0; attempt < 5; attempt++ { // want `retry-permanent: `
		err := inv.stub.Reserve(ctx, sku, -delta, 0)
		if err == nil {
			return nil
		}
		code := status.Code(err)
		if code != codes.InvalidArgument && code != codes.Unavailable {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(inv.delay(attempt)):
		}
	}
	return errors.New("adjust stock: giving up")
}

// Prefetch warms the local cache for a warehouse.
func (inv *Inventory) Prefetch(ctx context.Context, warehouse string) ([]*Item, error) {
	for try := 1; try <= 3; try++ { // want `unclassified-retry: `
		items, err := inv.stub.ListItems(ctx, warehouse)
		if err == nil {
			return items, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second): // want `fixed-sleep: `
		}
	}
	return nil, fmt.Errorf("prefetch %s failed", warehouse)
}

// Snapshot lists a warehouse for the nightly report. The caller sets a
// deadline on ctx; the loop runs until it expires.
func (inv *Inventory) Snapshot(ctx context.Context, warehouse string) ([]*Item, error) {
	backoff := 100 * time.Millisecond
	var lastErr error
	for ctx.Err() == nil {
		items, err := inv.stub.ListItems(ctx, warehouse)
		if err == nil {
			return items, nil
		}
		if !retryableCode(status.Code(err)) {
			return nil, err
		}
		lastErr = err
		select {
		case <-ctx.Done():
		case <-time.After(backoff/2 + rand.N(backoff/2)):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
	return nil, errors.Join(ctx.Err(), lastErr)
}
