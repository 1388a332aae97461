// Package store is a client whose reads retry on their own.
package store

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

var ErrUnavailable = errors.New("unavailable")

type Client struct {
	// MaxRetries is how often Load tries.
	MaxRetries int
}

func (c *Client) get(ctx context.Context, key string) (string, error) { return "", ErrUnavailable }

// Get reads a key, retrying an unavailable store four times.
func (c *Client) Get(ctx context.Context, key string) (string, error) { // want Get:`retries\(5 at store/store.go:\d+, param -1\)`
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var v string
		if v, err = c.get(ctx, key); err == nil {
			return v, nil
		}
		if !errors.Is(err, ErrUnavailable) {
			return "", err
		}
		if err := pause(ctx, attempt); err != nil {
			return "", err
		}
	}
	return "", err
}

// Fetch reads a key, trying as often as its caller says.
func (c *Client) Fetch(ctx context.Context, key string, tries int) (string, error) { // want Fetch:`retries\(n at store/store.go:\d+, param -1\)`
	var err error
	for try := 1; try <= tries; try++ {
		var v string
		if v, err = c.get(ctx, key); err == nil {
			return v, nil
		}
		if !errors.Is(err, ErrUnavailable) {
			return "", err
		}
		if err := pause(ctx, try); err != nil {
			return "", err
		}
	}
	return "", err
}

// Load reads a key, trying as often as the client is set to.
func (c *Client) Load(ctx context.Context, key string) (string, error) { // want Load:`retries\(n at store/store.go:\d+, param -1\)`
	var err error
	for try := 0; try < c.MaxRetries; try++ {
		var v string
		if v, err = c.get(ctx, key); err == nil {
			return v, nil
		}
		if !errors.Is(err, ErrUnavailable) {
			return "", err
		}
		if err := pause(ctx, try); err != nil {
			return "", err
		}
	}
	return "", err
}

// Lookup reads through Get: it retries as Get does.
func (c *Client) Lookup(ctx context.Context, key string) (string, error) { // want Lookup:`retries\(5 at store/store.go:\d+, param -1\)`
	return c.Get(ctx, key)
}

// Peek reads once.
func (c *Client) Peek(ctx context.Context, key string) (string, error) {
	return c.get(ctx, key)
}

// Watch keeps reading until the context ends, without an attempt limit.
func (c *Client) Watch(ctx context.Context, key string) (string, error) { // want Watch:`retries\(unbounded at store/store.go:\d+, param -1\)`
	for {
		v, err := c.get(ctx, key)
		if err == nil {
			return v, nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
	}
}

// pause waits a jittered, capped back-off, or until the context ends.
func pause(ctx context.Context, attempt int) error { // want pause:`waits\(ctx\) random`
	t := time.NewTimer(time.Duration(rand.Int64N(int64(min(50*time.Millisecond<<attempt, time.Second)))))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Backoff is a delay helper for callers elsewhere: it grows with attempt.
func Backoff(base time.Duration, attempt int) time.Duration { // want Backoff:`delay\(const with \[0 1\]\)`
	return base << attempt
}

// Put writes a key, counting its retries in the body: three after the
// first attempt.
func (c *Client) Put(ctx context.Context, key string) error { // want Put:`retries\(4 at store/store.go:\d+, param -1\)`
	retries := 0
	for {
		_, err := c.get(ctx, key)
		if err == nil {
			return nil
		}
		if retries >= 3 {
			return err
		}
		retries++
		if err := pause(ctx, retries); err != nil {
			return err
		}
	}
}

// Delete counts in the for statement and tests in the body: attempts 0, 1
// and 2.
func (c *Client) Delete(ctx context.Context, key string) error { // want Delete:`retries\(3 at store/store.go:\d+, param -1\)`
	for attempt := 0; ; attempt++ {
		_, err := c.get(ctx, key)
		if err == nil {
			return nil
		}
		if attempt == 2 {
			return err
		}
		if err := pause(ctx, attempt); err != nil {
			return err
		}
	}
}

// Touch counts before it tries: n is 1 on the first attempt, and the
// fourth is the last.
func (c *Client) Touch(ctx context.Context, key string) error { // want Touch:`retries\(4 at store/store.go:\d+, param -1\)`
	n := 0
	for {
		n++
		_, err := c.get(ctx, key)
		if err == nil {
			return nil
		}
		if n > 3 {
			return err
		}
		if err := pause(ctx, n); err != nil {
			return err
		}
	}
}

// Refresh sets its counter back after a partial success: no limit can be
// read from it.
func (c *Client) Refresh(ctx context.Context, key string) error { // want Refresh:`retries\(n at store/store.go:\d+, param -1, ctx param 0\)`
	n := 0
	for {
		v, err := c.get(ctx, key)
		if err == nil {
			return nil
		}
		if v != "" {
			n = 0
		}
		if n >= 3 {
			return err
		}
		n++
		if err := pause(ctx, n); err != nil {
			return err
		}
	}
}
