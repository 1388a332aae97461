// Package objstore is a thin client for the S3-compatible object store
// used for invoices and exports.
package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net"
	"time"
)

var (
	// ErrSlowDown is the store's 503 SlowDown.
	ErrSlowDown = errors.New("objstore: slow down")
	// ErrNoSuchKey is a 404.
	ErrNoSuchKey = errors.New("objstore: no such key")
	// ErrAccessDenied is a 403.
	ErrAccessDenied = errors.New("objstore: access denied")
	// ErrInternal is a 500 InternalError.
	ErrInternal = errors.New("objstore: internal error")
)

// API is the raw store API.
type API interface {
	PutPart(ctx context.Context, bucket, key string, part int, r io.ReadSeeker) (etag string, err error)
	Get(ctx context.Context, bucket, key string) (io.ReadCloser, error)
	Head(bucket, key string) (int64, error)
	Delete(ctx context.Context, bucket, key string) error
	Copy(ctx context.Context, bucket, src, dst string) error
}

// Config holds tunables read from the environment.
type Config struct {
	RetryInterval time.Duration
	MaxAttempts   int
}

// Store is the retrying client.
type Store struct {
	api    API
	bucket string
	cfg    Config
}

const (
	maxAttempts = 5
	baseDelay   = 100 * time.Millisecond
	maxDelay    = 10 * time.Second
)

func retryable(err error) bool {
	if errors.Is(err, ErrSlowDown) || errors.Is(err, ErrInternal) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// fullJitter returns random(0, min(maxDelay, baseDelay*2^attempt)).
func fullJitter(attempt int) time.Duration {
	ceil := maxDelay
	if attempt < 20 {
		ceil = min(maxDelay, baseDelay<<attempt)
	}
	return time.Duration(rand.Int63n(int64(ceil)))
}

// PutPart uploads one part of a multipart upload.
func (s *Store) PutPart(ctx context.Context, key string, part int, r io.ReadSeeker) (string, error) {
	var lastErr error
	for attempt := range maxAttempts {
		if _, err := r.Seek(0, io.SeekStart); err != nil {
			return "", err
		}
		etag, err := s.api.PutPart(ctx, s.bucket, key, part, r)
		if err == nil {
			return etag, nil
		}
		if !retryable(err) {
			return "", err
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(fullJitter(attempt)):
		}
	}
	return "", fmt.Errorf("put part %d of %s: %w", part, key, lastErr)
}

// Size returns the object size. Used by the CLI, which has no context.
func (s *Store) Size(key string) (int64, error) {
	const retryDelay = 3 * time.Second
	var err error
	for attempt := 0; attempt < maxAttempts; attempt++ {
		var n int64
		n, err = s.api.Head(s.bucket, key)
		if err == nil {
			return n, nil
		}
		if !retryable(err) {
			return 0, err
		}
		time.Sleep(retryDelay) // want `fixed-sleep: `
	}
	return 0, err
}

// Open opens an object for reading, retrying at the configured interval.
func (s *Store) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	interval := s.cfg.RetryInterval
	var err error
	for i := 0; i < s.cfg.MaxAttempts; i++ {
		var rc io.ReadCloser
		rc, err = s.api.Get(ctx, s.bucket, key)
		if err == nil {
			return rc, nil
		}
		if errors.Is(err, ErrNoSuchKey) || errors.Is(err, ErrAccessDenied) || !retryable(err) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(interval): // want `fixed-sleep: `
		}
	}
	return nil, err
}

// Delete removes an object. The store throttles deletes hard.
func (s *Store) Delete(ctx context.Context, key string) error {
	const every = 750 * time.Millisecond
	t := time.NewTimer(every)
	defer t.Stop()
	for attempt := 1; ; attempt++ {
		err := s.api.Delete(ctx, s.bucket, key)
		if err == nil || errors.Is(err, ErrNoSuchKey) {
			return nil
		}
		if !errors.Is(err, ErrSlowDown) || attempt == maxAttempts {
			return err
		}
		t.Reset(every) // want `fixed-sleep: `
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// headQuick is used by the health probe: three quick tries.
func (s *Store) headQuick(key string) bool {
	for range 3 { // want `unclassified-retry: `
		if _, err := s.api.Head(s.bucket, key); err == nil {
			return true
		}
		time.Sleep(200 * time.Millisecond) // want `fixed-sleep: `
	}
	return false
}

// CopyObject copies src to dst. Copies of large objects time out often on
// the store side; keep going until the caller's context says stop.
func (s *Store) CopyObject(ctx context.Context, src, dst string) error {
	for attempt := 0; ; attempt++ {
		err := s.api.Copy(ctx, s.bucket, src, dst)
		if err == nil {
			return nil
		}
		if !retryable(err) {
			return err
		}
		ceiling := baseDelay << attempt
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int63n(int64(ceiling)))): // want `no-cap: `
		}
	}
}

// Mirror copies an object to the DR bucket with a doubling, jittered wait.
func (s *Store) Mirror(ctx context.Context, key string) error {
	wait := 200 * time.Millisecond
	var err error
	for attempt := 0; attempt < 12; attempt++ {
		if err = s.api.Copy(ctx, s.bucket, key, "dr/"+key); err == nil {
			return nil
		}
		if !retryable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait/2 + time.Duration(rand.Int63n(int64(wait/2)))): // want `no-cap: `
		}
		wait *= 2
	}
	return err
}
