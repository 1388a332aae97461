package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand"
	"net"
	"time"
)

// Retry runs op until it succeeds, fails with an error retryable rejects,
// or attempts run out. Waits are full-jitter exponential with a cap.
func Retry(ctx context.Context, attempts int, retryable func(error) bool, op func(context.Context) error) error {
	var err error
	for n := 0; n < attempts; n++ {
		if err = op(ctx); err == nil {
			return nil
		}
		if !retryable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(fullJitter(n)):
		}
	}
	return err
}

// WaitForObject waits until key is readable; the caller is expected to
// bound it with a context deadline. Only transient errors are retried.
func (s *Store) WaitForObject(ctx context.Context, key string) (io.ReadCloser, error) {
	delay := baseDelay
	for { // want `unbounded-retry: `
		rc, err := s.api.Get(ctx, s.bucket, key)
		if err == nil {
			return rc, nil
		}
		if !retryable(err) {
			return nil, err
		}
		time.Sleep(delay/2 + time.Duration(rand.Int63n(int64(delay/2)))) // want `sleep-ignores-context: `
		delay = min(delay*2, maxDelay)
	}
}

// DeletePrefix deletes every key in keys, each with its own small retry.
func (s *Store) DeletePrefix(ctx context.Context, keys []string) error {
	deleteOne := func(key string) error {
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			err = s.api.Delete(ctx, s.bucket, key)
			if err == nil || errors.Is(err, ErrNoSuchKey) {
				return nil
			}
			if !errors.Is(err, ErrSlowDown) {
				return err
			}
			time.Sleep(fullJitter(attempt)) // want `sleep-ignores-context: `
		}
		return err
	}
	for _, k := range keys {
		if err := deleteOne(k); err != nil {
			return fmt.Errorf("delete %s: %w", k, err)
		}
	}
	return nil
}

// Endpoints are the store's regional endpoints in order of preference.
type Endpoints []string

// DialFirst connects to the first endpoint that answers.
func (eps Endpoints) DialFirst(ctx context.Context) (net.Conn, error) {
	var d net.Dialer
	var errs []error
	for _, addr := range eps {
		c, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			return c, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", addr, err))
	}
	return nil, errors.Join(errs...)
}

// GetWithin reads an object, giving the whole operation timeout.
func (s *Store) GetWithin(ctx context.Context, key string, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	backoff := baseDelay
	for {
		rc, err := s.api.Get(ctx, s.bucket, key)
		if err == nil {
			defer rc.Close()
			return io.ReadAll(rc)
		}
		if !retryable(err) {
			return nil, err
		}
		// multiplicative jitter in [0.5, 1.5)
		d := time.Duration(float64(backoff) * (0.5 + rand.Float64()))
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("get %s: %w (last error: %v)", key, ctx.Err(), err)
		case <-time.After(d):
		}
		backoff = min(backoff*2, maxDelay)
	}
}

// ExportAll copies every key to the export bucket, pausing between objects
// to stay under the store's per-prefix request rate.
func (s *Store) ExportAll(ctx context.Context, keys []string, pause time.Duration) error {
	for i, k := range keys {
		err := Retry(ctx, maxAttempts, retryable, func(ctx context.Context) error {
			return s.api.Copy(ctx, s.bucket, k, "export/"+k)
		})
		if err != nil {
			return fmt.Errorf("export %s: %w", k, err)
		}
		if i%100 == 99 {
			log.Printf("exported %d/%d", i+1, len(keys))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
	}
	return nil
}
