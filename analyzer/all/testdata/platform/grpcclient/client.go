// Package grpcclient holds the call helpers around the inventory gRPC service.
package grpcclient

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"time"

	"platform/third_party/google.golang.org/grpc/codes"
	"platform/third_party/google.golang.org/grpc/status"
)

type Item struct {
	SKU      string
	Quantity int
}

type InventoryClient interface {
	GetItem(ctx context.Context, sku string) (*Item, error)
	Reserve(ctx context.Context, sku string, n int) error
	Commit(ctx context.Context, txID string) error
	Watch(ctx context.Context) (Stream, error)
	Ping(ctx context.Context) error
}

type Stream interface {
	Recv() (*Item, error)
}

type CallOptions struct {
	MaxAttempts    int
	InitialBackoff time.Duration
	MaxBackoff     time.Duration
	Multiplier     float64
}

func nextBackoff(cur time.Duration, o CallOptions) time.Duration {
	next := time.Duration(float64(cur) * o.Multiplier)
	if next > o.MaxBackoff {
		next = o.MaxBackoff
	}
	return next
}

func jittered(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return time.Duration(rand.Int64N(int64(d)))
}

// invoke retries the codes the service config marks as retryable.
func invoke(ctx context.Context, o CallOptions, call func(context.Context) error) error {
	backoff := o.InitialBackoff
	var err error
	for attempt := 1; attempt <= o.MaxAttempts; attempt++ {
		if err = call(ctx); err == nil {
			return nil
		}
		switch status.Code(err) {
		case codes.Unavailable, codes.ResourceExhausted, codes.DeadlineExceeded:
		default:
			return err
		}
		t := time.NewTimer(jittered(backoff))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		backoff = nextBackoff(backoff, o)
	}
	return err
}

// GetItem reads an item; a freshly created SKU may not have replicated yet.
func GetItem(ctx context.Context, c InventoryClient, sku string) (*Item, error) {
	backoff := 50 * time.Millisecond
	for attempt := 0; attempt < 5; attempt++ { // want `retry-permanent: `
		item, err := c.GetItem(ctx, sku)
		if err == nil {
			return item, nil
		}
		switch status.Code(err) {
		case codes.NotFound, codes.Unavailable:
		default:
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(jittered(backoff)):
		}
		backoff = min(backoff*2, 2*time.Second)
	}
	return nil, status.Error(codes.Unavailable, "inventory: item not available")
}

// Reserve holds stock for an order.
func Reserve(ctx context.Context, c InventoryClient, sku string, n int) error {
	o := CallOptions{MaxAttempts: 4, InitialBackoff: 100 * time.Millisecond, MaxBackoff: 3 * time.Second, Multiplier: 1.6}
	backoff := o.InitialBackoff
	var err error
	for attempt := 0; attempt < o.MaxAttempts; attempt++ { // want `retry-permanent: `
		err = c.Reserve(ctx, sku, n)
		st, ok := status.FromError(err)
		if !ok {
			return err
		}
		if st.Code() == codes.OK {
			return nil
		}
		if st.Code() != codes.PermissionDenied && st.Code() != codes.Unavailable {
			return err
		}
		log.Printf("reserve %s: %s, retrying", sku, st.Message())
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(backoff)):
		}
		backoff = nextBackoff(backoff, o)
	}
	return err
}

// Commit retries a transaction commit that the server aborted due to contention.
func Commit(ctx context.Context, c InventoryClient, txID string) error {
	var err error
	for i := range 3 {
		err = c.Commit(ctx, txID)
		if status.Code(err) != codes.Aborted {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(time.Duration(10<<i) * time.Millisecond)):
		}
	}
	return err
}

// WatchInventory keeps a watch stream open and forwards updates until ctx ends.
func WatchInventory(ctx context.Context, c InventoryClient, out chan<- *Item) error {
	backoff := 200 * time.Millisecond
	for {
		stream, err := c.Watch(ctx)
		if err == nil {
			backoff = 200 * time.Millisecond
			for {
				item, rerr := stream.Recv()
				if rerr != nil {
					err = rerr
					break
				}
				select {
				case out <- item:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
		}
		if code := status.Code(err); code == codes.Canceled || code == codes.PermissionDenied || code == codes.Unauthenticated {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(backoff)):
		}
		backoff = min(2*backoff, 30*time.Second)
	}
}

// Connector establishes the inventory connection at process start.
type Connector struct {
	Dial    func() (InventoryClient, error)
	MaxWait time.Duration
}

// MustConnect blocks until the backend answers.
func (cn *Connector) MustConnect() InventoryClient {
	wait := 100 * time.Millisecond
	for { // want `unbounded-retry: `
		c, err := cn.Dial()
		if err == nil {
			return c
		}
		if code := status.Code(err); code != codes.Unavailable && code != codes.DeadlineExceeded {
			log.Fatalf("inventory: %v", err)
		}
		time.Sleep(jittered(wait))
		wait = min(wait*2, cn.MaxWait)
	}
}

// PingLoop checks the backend until it answers or retries run out.
func PingLoop(ctx context.Context, c InventoryClient) error {
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	var err error
	for attempt := 0; attempt < 20; attempt++ {
		if err = c.Ping(ctx); err == nil {
			return nil
		}
		if status.Code(err) != codes.Unavailable {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C: // want `fixed-sleep: `
		}
	}
	return err
}

// ReserveAll reserves every line of an order, giving up on the first permanent error.
func ReserveAll(ctx context.Context, c InventoryClient, lines map[string]int) error {
	o := CallOptions{MaxAttempts: 5, InitialBackoff: 50 * time.Millisecond, MaxBackoff: time.Second, Multiplier: 2}
	for sku, n := range lines {
		err := invoke(ctx, o, func(ctx context.Context) error { return c.Reserve(ctx, sku, n) })
		if err != nil {
			var se interface{ GRPCStatus() *status.Status }
			if errors.As(err, &se) && se.GRPCStatus().Code() == codes.FailedPrecondition {
				return errors.New("inventory: insufficient stock for " + sku)
			}
			return err
		}
	}
	return nil
}
