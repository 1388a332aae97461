// Package gcsobjects reads and writes objects through
// cloud.google.com/go/storage, whose handles retry idempotent calls by
// themselves, without an attempt limit unless WithMaxAttempts is given.
package gcsobjects

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"time"

	"cloud.google.com/go/storage"
	gax "github.com/googleapis/gax-go/v2"
)

// Bucket reads objects of one bucket.
type Bucket struct {
	b *storage.BucketHandle
}

// NewBucket bounds the retries of every call to five attempts.
func NewBucket(c *storage.Client, name string) *Bucket {
	return &Bucket{b: c.Bucket(name).Retryer(storage.WithMaxAttempts(5))}
}

// Read reads an object once: the library's retries are the only layer.
func (b *Bucket) Read(ctx context.Context, name string) ([]byte, error) {
	r, err := b.b.Object(name).NewReader(ctx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// Size reads the attributes again and again around a call the library
// retries five times: (3+1)×(4+1).
func (b *Bucket) Size(ctx context.Context, name string) (int64, error) {
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `nested-retry: .*gcsobjects.go:\d+.*\(3\+1\)×\(4\+1\) = 20 attempts`
		var a *storage.ObjectAttrs
		if a, err = b.b.Object(name).Attrs(ctx); err == nil {
			return a.Size, nil
		}
		if errors.Is(err, storage.ErrObjectNotExist) {
			return 0, err
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(rand.N(time.Duration(1<<attempt) * 100 * time.Millisecond)):
		}
	}
	return 0, err
}

// Exists asks without a deadline: the library retries until the object
// answers.
func Exists(c *storage.Client, bucket, name string) bool {
	_, err := c.Bucket(bucket).Object(name).Attrs(context.Background()) // want `unbounded-retry: `
	return err == nil
}

// Everything retries whatever fails.
func Everything(ctx context.Context, c *storage.Client, bucket, name string) error {
	obj := c.Bucket(bucket).Object(name).Retryer(
		storage.WithMaxAttempts(3),
		storage.WithErrorFunc(func(err error) bool { return true }),
	)
	_, err := obj.Attrs(ctx) // want `unclassified-retry: `
	return err
}

// Tuned sets its own back-off and attempts, and retries transient errors.
func Tuned(ctx context.Context, c *storage.Client, bucket, name string) error {
	c.SetRetry(
		storage.WithBackoff(gax.Backoff{Initial: 200 * time.Millisecond, Max: 10 * time.Second, Multiplier: 1.5}),
		storage.WithMaxAttempts(4),
		storage.WithErrorFunc(storage.ShouldRetry),
	)
	_, err := c.Bucket(bucket).Object(name).Attrs(ctx)
	return err
}

// DeleteOnce deletes without a precondition: not idempotent, so the
// default policy sends it once, and the loop is the only layer.
func DeleteOnce(ctx context.Context, c *storage.Client, bucket, name string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.Bucket(bucket).Object(name).Delete(ctx); err == nil || errors.Is(err, storage.ErrObjectNotExist) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Duration(1<<attempt) * 100 * time.Millisecond)):
		}
	}
	return err
}

// DeleteGeneration deletes one generation: idempotent, retried by the
// library under the default policy (with WithMaxAttempts(3)), inside a
// loop: (1+1)×(2+1).
func DeleteGeneration(ctx context.Context, c *storage.Client, bucket, name string, gen int64) error {
	obj := c.Bucket(bucket).Object(name).Generation(gen).Retryer(storage.WithMaxAttempts(3))
	var err error
	for attempt := 0; attempt < 2; attempt++ { // want `nested-retry: .*gcsobjects.go:\d+.*\(1\+1\)×\(2\+1\) = 6 attempts`
		if err = obj.Delete(ctx); err == nil || errors.Is(err, storage.ErrObjectNotExist) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(500 * time.Millisecond)):
		}
	}
	return err
}

// Never turns the library's retries off: the loop is the only layer.
func Never(ctx context.Context, c *storage.Client, bucket, name string) error {
	obj := c.Bucket(bucket).Object(name).Retryer(storage.WithPolicy(storage.RetryNever))
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = obj.Attrs(ctx); err == nil || errors.Is(err, storage.ErrObjectNotExist) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Duration(1<<attempt) * 100 * time.Millisecond)):
		}
	}
	return err
}
