// Package storage is a stand-in for cloud.google.com/go/storage v1.71.0:
// the signatures of the handles and retry options the libsc packages use
// (storage.go, bucket.go, reader.go, invoke.go).
package storage

import (
	"context"
	"errors"
	"time"

	gax "github.com/googleapis/gax-go/v2"
)

var ErrObjectNotExist = errors.New("storage: object doesn't exist")

type retryConfig struct {
	backoff          *gax.Backoff
	policy           RetryPolicy
	shouldRetry      func(err error) bool
	maxAttempts      *int
	maxRetryDuration time.Duration
}

// Client is a Cloud Storage client.
type Client struct{ retry *retryConfig }

func (c *Client) Bucket(name string) *BucketHandle {
	return &BucketHandle{c: c, name: name, retry: c.retry}
}

func (c *Client) SetRetry(opts ...RetryOption) {
	retry := &retryConfig{}
	for _, opt := range opts {
		opt.apply(retry)
	}
	c.retry = retry
}

func (c *Client) Close() error { return nil }

// BucketHandle is a bucket.
type BucketHandle struct {
	c     *Client
	name  string
	retry *retryConfig
}

func (b *BucketHandle) Object(name string) *ObjectHandle {
	return &ObjectHandle{c: b.c, bucket: b.name, object: name, gen: -1, retry: b.retry}
}

func (b *BucketHandle) Retryer(opts ...RetryOption) *BucketHandle {
	b2 := *b
	b2.retry = &retryConfig{}
	for _, opt := range opts {
		opt.apply(b2.retry)
	}
	return &b2
}

func (b *BucketHandle) UserProject(projectID string) *BucketHandle { return b }

type BucketAttrs struct {
	Name     string
	Location string
}

func (b *BucketHandle) Attrs(ctx context.Context) (attrs *BucketAttrs, err error) {
	return &BucketAttrs{Name: b.name}, nil
}

// ObjectHandle is an object.
type ObjectHandle struct {
	c      *Client
	bucket string
	object string
	gen    int64
	conds  *Conditions
	retry  *retryConfig
}

type Conditions struct {
	GenerationMatch        int64
	GenerationNotMatch     int64
	DoesNotExist           bool
	MetagenerationMatch    int64
	MetagenerationNotMatch int64
}

func (o *ObjectHandle) Generation(gen int64) *ObjectHandle { o2 := *o; o2.gen = gen; return &o2 }
func (o *ObjectHandle) If(conds Conditions) *ObjectHandle  { o2 := *o; o2.conds = &conds; return &o2 }
func (o *ObjectHandle) Key(encryptionKey []byte) *ObjectHandle {
	return o
}

func (o *ObjectHandle) Retryer(opts ...RetryOption) *ObjectHandle {
	o2 := *o
	o2.retry = &retryConfig{}
	for _, opt := range opts {
		opt.apply(o2.retry)
	}
	return &o2
}

type ObjectAttrs struct {
	Bucket         string
	Name           string
	Size           int64
	Generation     int64
	Metageneration int64
	Metadata       map[string]string
}

type ObjectAttrsToUpdate struct {
	Metadata map[string]string
}

func (o *ObjectHandle) Attrs(ctx context.Context) (attrs *ObjectAttrs, err error) {
	return &ObjectAttrs{Bucket: o.bucket, Name: o.object}, nil
}

func (o *ObjectHandle) Update(ctx context.Context, uattrs ObjectAttrsToUpdate) (oa *ObjectAttrs, err error) {
	return &ObjectAttrs{Bucket: o.bucket, Name: o.object}, nil
}

func (o *ObjectHandle) Delete(ctx context.Context) (err error) { return nil }

type ReaderOption interface{ applyReaderOption() }

// Reader reads an object's data.
type Reader struct{}

func (r *Reader) Read(p []byte) (int, error) { return 0, nil }
func (r *Reader) Close() error               { return nil }

func (o *ObjectHandle) NewReader(ctx context.Context, opts ...ReaderOption) (*Reader, error) {
	return &Reader{}, nil
}

func (o *ObjectHandle) NewRangeReader(ctx context.Context, offset, length int64, opts ...ReaderOption) (r *Reader, err error) {
	return &Reader{}, nil
}

// RetryOption configures the retries of the calls of a handle or client.
type RetryOption interface {
	apply(config *retryConfig)
}

type optionFunc func(*retryConfig)

func (f optionFunc) apply(c *retryConfig) { f(c) }

func WithBackoff(backoff gax.Backoff) RetryOption {
	return optionFunc(func(c *retryConfig) { c.backoff = &backoff })
}

func WithMaxAttempts(maxAttempts int) RetryOption {
	return optionFunc(func(c *retryConfig) { c.maxAttempts = &maxAttempts })
}

func WithMaxRetryDuration(maxRetryDuration time.Duration) RetryOption {
	return optionFunc(func(c *retryConfig) { c.maxRetryDuration = maxRetryDuration })
}

type RetryPolicy int

const (
	RetryIdempotent RetryPolicy = iota
	RetryAlways
	RetryNever
)

func WithPolicy(policy RetryPolicy) RetryOption {
	return optionFunc(func(c *retryConfig) { c.policy = policy })
}

func WithErrorFunc(shouldRetry func(err error) bool) RetryOption {
	return optionFunc(func(c *retryConfig) { c.shouldRetry = shouldRetry })
}

// ShouldRetry retries 408, 429, 5xx and connection errors.
func ShouldRetry(err error) bool { return err != nil }
