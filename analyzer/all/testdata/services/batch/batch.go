// Package batch moves rows from the staging store to the warehouse in
// throttled batches.
package batch

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math"
	"math/rand"
	"sync"
	"time"
)

// ErrThrottled is returned by the warehouse when the write quota is used up.
var ErrThrottled = errors.New("warehouse: write quota exceeded")

// ErrSchema means the rows do not match the table schema.
var ErrSchema = errors.New("warehouse: schema mismatch")

// Row is one staged row.
type Row map[string]any

// Sink is the warehouse writer.
type Sink interface {
	Write(ctx context.Context, table string, rows []Row) error
	WriteNoCtx(table string, rows []Row) error
}

// jitter returns a random duration in [d/2, d].
func jitter(d time.Duration) time.Duration {
	return d/2 + time.Duration(rand.Int63n(int64(d/2)+1))
}

// Upload writes rows in chunks of size n, pausing between chunks so the
// warehouse is not saturated by one tenant.
func Upload(ctx context.Context, s Sink, table string, rows []Row, n int, pause time.Duration) error {
	for start := 0; start < len(rows); start += n {
		end := min(start+n, len(rows))
		if err := s.Write(ctx, table, rows[start:end]); err != nil {
			return fmt.Errorf("rows %d-%d: %w", start, end, err)
		}
		if end < len(rows) {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(pause):
			}
		}
	}
	return nil
}

// UploadSlowly is the CLI variant: no context, one chunk per second.
func UploadSlowly(s Sink, table string, chunks [][]Row) error {
	for i, chunk := range chunks {
		if err := s.WriteNoCtx(table, chunk); err != nil {
			return fmt.Errorf("chunk %d: %w", i, err)
		}
		log.Printf("chunk %d/%d written", i+1, len(chunks))
		time.Sleep(time.Second)
	}
	return nil
}

// TokenBucket is a minimal rate limiter: rate tokens per second, up to burst.
type TokenBucket struct {
	mu     sync.Mutex
	tokens float64
	burst  float64
	rate   float64
	last   time.Time
}

// NewTokenBucket returns a full bucket.
func NewTokenBucket(rate float64, burst int) *TokenBucket {
	return &TokenBucket{tokens: float64(burst), burst: float64(burst), rate: rate, last: time.Now()}
}

// Wait blocks until a token is available or ctx is done.
func (b *TokenBucket) Wait(ctx context.Context) error {
	for {
		b.mu.Lock()
		now := time.Now()
		b.tokens = math.Min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
		b.last = now
		if b.tokens >= 1 {
			b.tokens--
			b.mu.Unlock()
			return nil
		}
		need := time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
		b.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(need):
		}
	}
}

// WriteLimited writes every chunk through the limiter.
func WriteLimited(ctx context.Context, s Sink, lim *TokenBucket, table string, chunks [][]Row) error {
	for _, c := range chunks {
		if err := lim.Wait(ctx); err != nil {
			return err
		}
		if err := s.Write(ctx, table, c); err != nil {
			return err
		}
	}
	return nil
}

// writeThrottled retries a throttled write with exponential backoff,
// 2^i seconds.
func writeThrottled(s Sink, table string, rows []Row) error {
	var err error
	for i := range 12 {
		err = s.WriteNoCtx(table, rows)
		if !errors.Is(err, ErrThrottled) {
			return err
		}
		time.Sleep(time.Duration(math.Pow(2, float64(i))) * time.Second) // want `no-jitter: ` `no-cap: `
	}
	return err
}

// FlushChunk writes one chunk with retries on throttling.
func FlushChunk(ctx context.Context, s Sink, table string, rows []Row) error {
	const maxAttempts = 5
	delay := 500 * time.Millisecond
	var err error
	for attempt := range maxAttempts {
		if err = s.Write(ctx, table, rows); err == nil {
			return nil
		}
		if errors.Is(err, ErrSchema) || !errors.Is(err, ErrThrottled) {
			return err
		}
		if attempt == maxAttempts-1 {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitter(delay)):
		}
		delay = min(delay*2, 15*time.Second)
	}
	return fmt.Errorf("flush %s: %w", table, err)
}

// Backfill re-writes a partition until the quota lets it through or the
// caller gives up. Waits grow by a second per attempt.
func Backfill(ctx context.Context, s Sink, table string, rows []Row) error {
	for attempt := 1; ; attempt++ {
		err := s.Write(ctx, table, rows)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrThrottled) {
			return err
		}
		wait := time.Duration(attempt) * time.Second
		log.Printf("backfill %s throttled, attempt %d, waiting %s", table, attempt, wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait): // want `no-jitter: ` `no-cap: `
		}
	}
}

// Compact runs the nightly compaction for each partition, pausing after
// every successful one to leave room for online traffic.
func Compact(partitions []string, compact func(string) error) (done int, err error) {
	for _, p := range partitions {
		if err := compact(p); err != nil {
			return done, fmt.Errorf("compact %s: %w", p, err)
		}
		done++
		time.Sleep(jitter(2 * time.Second))
	}
	return done, nil
}
