// Package ledger posts journal entries to the accounting ledger service,
// which sits behind its own client-side breaker.
package ledger

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"time"

	"services/internal/gobreaker"
	"services/internal/grpc/codes"
	"services/internal/grpc/status"
)

var (
	// ErrBreakerOpen is returned by Guard while the ledger breaker is open.
	ErrBreakerOpen = errors.New("ledger: breaker open")
	// ErrLedgerBusy means the ledger is compacting; try again shortly.
	ErrLedgerBusy = errors.New("ledger: busy")
	// ErrUnbalanced means debits and credits differ. Never retried.
	ErrUnbalanced = errors.New("ledger: entry does not balance")
)

// Entry is a journal entry.
type Entry struct {
	ID     string
	Debit  int64
	Credit int64
}

// API is the ledger service.
type API interface {
	Post(ctx context.Context, e Entry) error
	PostSync(e Entry) error
	Balance(ctx context.Context, account string) (int64, error)
}

// Client posts entries.
type Client struct {
	api     API
	cb      *gobreaker.CircuitBreaker
	guard   func(ctx context.Context, fn func(context.Context) error) error
	backoff time.Duration
}

func fullJitter(attempt int, base, ceiling time.Duration) time.Duration {
	d := ceiling
	if attempt < 24 {
		d = min(ceiling, base<<attempt)
	}
	return rand.N(d + 1)
}

// PostNightly is used by the end-of-day batch, which has no context.
func (c *Client) PostNightly(e Entry) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry-permanent: ` `unclassified-retry: `
		_, err = c.cb.Execute(func() (interface{}, error) {
			return nil, c.api.PostSync(e)
		})
		if err == nil {
			return nil
		}
		log.Printf("post %s failed (try %d): %v", e.ID, i+1, err)
		time.Sleep(time.Second) // want `fixed-sleep: `
	}
	return err
}

// Post posts an entry through the guard, riding out short breaker trips.
func (c *Client) Post(ctx context.Context, e Entry) error {
	for attempt := 0; attempt < 5; attempt++ { // want `retry-permanent: `
		err := c.guard(ctx, func(ctx context.Context) error { return c.api.Post(ctx, e) })
		switch {
		case err == nil:
			return nil
		case errors.Is(err, ErrBreakerOpen), errors.Is(err, ErrLedgerBusy):
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(fullJitter(attempt, 200*time.Millisecond, 5*time.Second)):
			}
		default:
			return err
		}
	}
	return fmt.Errorf("post %s: ledger unavailable", e.ID)
}

// PostGuarded is the corrected Post: an open breaker ends the attempt.
func (c *Client) PostGuarded(ctx context.Context, e Entry) error {
	for attempt := 0; ; attempt++ {
		err := c.guard(ctx, func(ctx context.Context) error { return c.api.Post(ctx, e) })
		if err == nil {
			return nil
		}
		if errors.Is(err, ErrBreakerOpen) || errors.Is(err, ErrUnbalanced) {
			return err
		}
		if !errors.Is(err, ErrLedgerBusy) || attempt == 4 {
			return fmt.Errorf("post %s: %w", e.ID, err)
		}
		t := time.NewTimer(fullJitter(attempt, 200*time.Millisecond, 5*time.Second))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// Balance reads an account balance over gRPC; the ledger answers
// Unavailable during failover and ResourceExhausted when rate limited.
func (c *Client) Balance(ctx context.Context, account string) (int64, error) {
	var lastErr error
	for attempt := range 4 {
		bal, err := c.api.Balance(ctx, account)
		if err == nil {
			return bal, nil
		}
		st, ok := status.FromError(err)
		if !ok {
			return 0, err
		}
		switch st.Code() {
		case codes.Unavailable, codes.ResourceExhausted:
			lastErr = err
		default:
			return 0, err
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(fullJitter(attempt, 100*time.Millisecond, 2*time.Second)):
		}
	}
	return 0, lastErr
}

// Replay re-posts an entry after a ledger restore. It waits while the
// ledger is compacting, for as long as that takes.
func (c *Client) Replay(ctx context.Context, e Entry) error {
	attempt := 0
	for err := c.api.Post(ctx, e); err != nil; err = c.api.Post(ctx, e) { // want `unbounded-retry: `
		if !errors.Is(err, ErrLedgerBusy) {
			return err
		}
		time.Sleep(fullJitter(attempt, 500*time.Millisecond, 30*time.Second)) // want `sleep-ignores-context: `
		attempt++
	}
	return nil
}

// Reconcile re-posts an entry until the ledger accepts it or ctx ends;
// each wait is half again as long as the previous one.
func (c *Client) Reconcile(ctx context.Context, e Entry) error {
	wait := c.backoff
	for {
		err := c.api.Post(ctx, e)
		if err == nil || !errors.Is(err, ErrLedgerBusy) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait/2 + rand.N(wait/2)): // want `no-cap: `
		}
		wait += wait / 2
	}
}
