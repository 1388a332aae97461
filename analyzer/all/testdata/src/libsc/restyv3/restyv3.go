// Package restyv3 calls an HTTP API through resty.dev/v3, which retries
// only idempotent methods once SetRetryCount is set.
package restyv3

import (
	"context"
	"time"

	"resty.dev/v3"
)

// Store reads and writes documents.
type Store struct {
	c *resty.Client
}

// NewStore keeps the default back-off: capped exponential with jitter.
func NewStore() *Store {
	c := resty.New()
	c.SetRetryCount(3)
	c.SetRetryWaitTime(200 * time.Millisecond)
	c.SetRetryMaxWaitTime(5 * time.Second)
	return &Store{c: c}
}

// Doc reads a document once.
func (s *Store) Doc(ctx context.Context, id string) ([]byte, error) {
	resp, err := s.c.R().SetContext(ctx).Get("/docs/" + id)
	if err != nil {
		return nil, err
	}
	return resp.Bytes(), nil
}

// DocEventually reads a document again and again, around a client that
// retries on its own.
func (s *Store) DocEventually(ctx context.Context, id string) ([]byte, error) {
	for { // want `nested-retry: .*restyv3.go:\d+.*unbounded attempts` `unbounded-retry: ` `unclassified-retry: `
		resp, err := s.c.R().SetContext(ctx).Get("/docs/" + id)
		if err == nil {
			return resp.Bytes(), nil
		}
		time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
}

// Create posts a document: resty v3 does not retry a POST, so the loop
// around it is the only layer.
func (s *Store) Create(ctx context.Context, doc []byte) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `unclassified-retry: `
		_, err = s.c.R().SetContext(ctx).SetBody(doc).Post("/docs")
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(1<<attempt) * 100 * time.Millisecond): // want `no-jitter: `
		}
	}
	return err
}

// Constant waits the same time before every retry.
func Constant(ctx context.Context, url string) error {
	c := resty.New().SetRetryCount(5).SetRetryDelayStrategy(resty.RetryConstantDelayStrategy(500 * time.Millisecond)) // want `fixed-sleep: c.R\(\).SetContext\(ctx\).Get waits a constant 500ms between attempts`
	defer c.Close()
	_, err := c.R().SetContext(ctx).Get(url)
	return err
}

// ServerErrors retries 429 and 5xx with the library's conditions.
func ServerErrors(ctx context.Context, url string) error {
	c := resty.New().SetRetryCount(3).
		AddRetryConditions(resty.RetryConditionStatusTooManyRequests, resty.RetryConditionStatus5XX)
	defer c.Close()
	_, err := c.R().SetContext(ctx).Put(url)
	return err
}

// ClientErrors retries every failed status.
func ClientErrors(ctx context.Context, url string) error {
	c := resty.New().SetRetryCount(3).
		AddRetryConditions(func(r *resty.Response, err error) bool { return r.StatusCode() >= 400 })
	defer c.Close()
	_, err := c.R().SetContext(ctx).Get(url) // want `retry-permanent: .*HTTP 400, 401, 403, 404, 405, 410, 422`
	return err
}

// NoConditions turns off the default conditions and adds none: nothing is
// retried, so the loop around it is the only layer.
func NoConditions(ctx context.Context, url string) error {
	c := resty.New().SetRetryCount(3).SetRetryDefaultConditions(false)
	defer c.Close()
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `unclassified-retry: `
		if _, err = c.R().SetContext(ctx).Get(url); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second): // want `fixed-sleep: `
		}
	}
	return err
}

// Ping sends a request without the caller's context: the client's waits
// go on after the caller gave up.
func (s *Store) Ping(ctx context.Context) error {
	_, err := s.c.R().Head("/healthz") // want `sleep-ignores-context: s.c.R\(\).Head waits between attempts without ctx although it is in scope; .*SetContext\(ctx\)`
	return err
}
