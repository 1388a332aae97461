// Package indexer feeds the search cluster: bulk indexing, refreshes,
// snapshots and index lifecycle.
package indexer

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"net"
	"time"

	"services/internal/gobreaker"
)

// TimeoutError is returned when the cluster did not answer in time.
type TimeoutError struct{ Op string }

func (e *TimeoutError) Error() string { return e.Op + ": timed out" }

// ValidationError is returned for a malformed document or mapping.
type ValidationError struct{ Field string }

func (e *ValidationError) Error() string { return "invalid field " + e.Field }

// ErrClusterBusy is the cluster's 429 (es_rejected_execution_exception).
var ErrClusterBusy = errors.New("indexer: cluster busy")

// Doc is a document to index.
type Doc struct {
	ID   string
	Body map[string]any
}

// Cluster is the search cluster API.
type Cluster interface {
	Bulk(ctx context.Context, index string, docs []Doc) error
	Refresh(ctx context.Context, index string) error
	Reindex(src, dst string) error
	Snapshot(ctx context.Context, repo, name string) error
	DeleteIndex(index string) error
	CreateIndex(ctx context.Context, index string, mapping map[string]any) error
}

// Indexer owns the cluster connection.
type Indexer struct {
	es      Cluster
	breaker *gobreaker.CircuitBreaker
	log     *log.Logger
}

// pollInterval is how long to wait before asking the cluster again.
var pollInterval = 2 * time.Second

// jitterFactor scales d by a random factor in [1-f, 1+f].
func jitterFactor(d time.Duration, f float64) time.Duration {
	return time.Duration(float64(d) * (1 - f + 2*f*rand.Float64()))
}

// BulkIndex sends one bulk request. Timeouts and rejections are retried;
// validation errors are the caller's problem.
func (ix *Indexer) BulkIndex(ctx context.Context, index string, docs []Doc) error {
	backoff := 200 * time.Millisecond
	var err error
	for attempt := range 5 {
		err = ix.es.Bulk(ctx, index, docs)
		if err == nil {
			return nil
		}
		switch err.(type) {
		case *TimeoutError:
		case *ValidationError:
			return err
		default:
			if !errors.Is(err, ErrClusterBusy) {
				return err
			}
		}
		if attempt == 4 {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(backoff)):
		}
		backoff = min(backoff*2, 8*time.Second)
	}
	return fmt.Errorf("bulk %s: %w", index, err)
}

// Refresh makes recent writes searchable. The cluster rejects refreshes
// while it is merging, so ask again on every tick.
func (ix *Indexer) Refresh(ctx context.Context, index string) error {
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		err := ix.es.Refresh(ctx, index)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrClusterBusy) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C: // want `fixed-sleep: `
		}
	}
}

// Reindex copies src into dst; the admin CLI calls it.
func (ix *Indexer) Reindex(src, dst string) error {
	var err error
	for attempt := 1; attempt <= 10; attempt++ {
		err = ix.es.Reindex(src, dst)
		var te *TimeoutError
		if err == nil || !errors.As(err, &te) {
			return err
		}
		ix.log.Printf("reindex %s -> %s timed out (attempt %d)", src, dst, attempt)
		time.Sleep(pollInterval) // want `fixed-sleep: `
	}
	return err
}

// Snapshot takes a cluster snapshot; concurrent snapshots are rejected
// with ErrClusterBusy. Waits grow by 1.5x up to 45s.
func (ix *Indexer) Snapshot(ctx context.Context, repo, name string) error {
	for n := 0; n < 8; n++ {
		err := ix.es.Snapshot(ctx, repo, name)
		if err == nil || !errors.Is(err, ErrClusterBusy) {
			return err
		}
		wait := min(time.Duration(math.Pow(1.5, float64(n))*float64(time.Second)), 45*time.Second)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait): // want `no-jitter: `
		}
	}
	return fmt.Errorf("snapshot %s: cluster kept rejecting it", name)
}

// DropIndex deletes an index, waiting for the cluster to accept it.
func (ix *Indexer) DropIndex(index string) error {
	delay := 100 * time.Millisecond
	for attempt := 0; ; attempt++ { // want `unbounded-retry: `
		err := ix.es.DeleteIndex(index)
		if err == nil {
			return nil
		}
		var te *TimeoutError
		if !errors.As(err, &te) && !errors.Is(err, ErrClusterBusy) {
			return err
		}
		ix.log.Printf("drop %s: attempt %d failed: %v", index, attempt+1, err)
		time.Sleep(jitterFactor(delay, 0.3))
		delay = min(delay*2, 20*time.Second)
	}
}

// breakerRetryable decides what the breaker-protected calls retry.
func breakerRetryable(err error) bool {
	var te *TimeoutError
	return errors.As(err, &te) || errors.Is(err, ErrClusterBusy) || errors.Is(err, gobreaker.ErrOpenState)
}

// CreateIndex creates an index through the breaker.
func (ix *Indexer) CreateIndex(ctx context.Context, index string, mapping map[string]any) error {
	delay := 250 * time.Millisecond
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: `
		_, err = ix.breaker.Execute(func() (interface{}, error) {
			return nil, ix.es.CreateIndex(ctx, index, mapping)
		})
		if err == nil || !breakerRetryable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitterFactor(delay, 0.5)):
		}
		delay = min(delay*2, 4*time.Second)
	}
	return err
}

// Resolve looks the cluster's seed host up, retrying temporary DNS
// failures only.
func Resolve(ctx context.Context, r *net.Resolver, host string) ([]string, error) {
	wait := 50 * time.Millisecond
	for attempt := 0; attempt < 4; attempt++ {
		addrs, err := r.LookupHost(ctx, host)
		if err == nil {
			return addrs, nil
		}
		var dnsErr *net.DNSError
		if !errors.As(err, &dnsErr) || !(dnsErr.IsTemporary || dnsErr.IsTimeout) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(jitterFactor(wait, 0.5)):
		}
		wait = min(wait*4, time.Second)
	}
	return nil, fmt.Errorf("resolve %s: temporary failures persisted", host)
}
