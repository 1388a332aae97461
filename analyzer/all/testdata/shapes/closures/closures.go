// Package closures holds functions that retry by calling themselves from
// a closure they declare (retry := func(err error) { wait; return f() }),
// sentinels named for failures a retry cannot fix, and loops that leave
// through a helper or a flag that says the context ended — beside the
// closures, helpers and flags that are no retry and no bound.
package closures

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

var (
	ErrNotAvailable              = errors.New("coordinator not available")
	ErrGroupAuthorizationFailed  = errors.New("group authorization failed")
	ErrUnauthorized              = errors.New("unauthorized")
	ErrTopicAlreadyExists        = errors.New("topic exists")
	errPermissionDeniedForWrites = errors.New("permission denied")
)

type Response struct{ Coordinator int }

type Broker struct{}

func (b *Broker) FindCoordinator(key string) (*Response, error) { return &Response{}, nil }
func (b *Broker) Close() error                                  { return nil }

type Client struct {
	brokers []*Broker
	backoff time.Duration
}

func (c *Client) leastLoaded() *Broker { return c.brokers[0] }

// findCoordinator retries through its closure with a constant wait, and
// retries the group authorization failure, which cannot pass.
func (c *Client) findCoordinator(key string, attemptsRemaining int) (*Response, error) {
	retry := func(err error) (*Response, error) {
		if attemptsRemaining > 0 {
			attemptsRemaining--
			time.Sleep(2 * time.Second)                      // want `fixed-sleep: `
			return c.findCoordinator(key, attemptsRemaining) // want `retry-permanent: .*ErrGroupAuthorizationFailed`
		}
		return nil, err
	}
	b := c.leastLoaded()
	resp, err := b.FindCoordinator(key)
	switch {
	case err == nil:
		return resp, nil
	case errors.Is(err, ErrNotAvailable):
		_ = b.Close()
		return retry(ErrNotAvailable)
	case errors.Is(err, ErrGroupAuthorizationFailed):
		return retry(err)
	}
	return nil, err
}

// refresh retries through its closure with a capped, jittered back-off,
// retries only what may pass and gives up on the rest: no finding.
func (c *Client) refresh(ctx context.Context, key string, attempt int) (*Response, error) {
	retry := func(err error) (*Response, error) {
		if attempt >= 5 {
			return nil, err
		}
		d := min(c.backoff<<attempt, 10*time.Second)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(rand.N(d)):
		}
		return c.refresh(ctx, key, attempt+1)
	}
	resp, err := c.leastLoaded().FindCoordinator(key)
	if err != nil {
		if errors.Is(err, ErrUnauthorized) {
			return nil, err
		}
		return retry(err)
	}
	return resp, nil
}

// describe declares a closure that only formats: no recursion, no retry.
func (c *Client) describe(key string) (string, error) {
	wrap := func(err error) error { return errors.Join(errors.New(key), err) }
	if _, err := c.leastLoaded().FindCoordinator(key); err != nil {
		return "", wrap(err)
	}
	return key, nil
}

// create calls a closure that calls another function, not itself: no
// recursion.
func (c *Client) create(key string) error {
	send := func() error {
		_, err := c.findCoordinator(key, 0)
		return err
	}
	if err := send(); err != nil && !errors.Is(err, ErrTopicAlreadyExists) {
		return err
	}
	return nil
}

// Store writes through a connection that can refuse.
type Store struct{}

func (s *Store) Put(ctx context.Context, k string) error { return nil }

// putForbidden retries a write whose permission was denied, with a
// growing, jittered, capped wait.
func putForbidden(ctx context.Context, s *Store) error {
	backoff := 100 * time.Millisecond
	for i := 0; i < 5; i++ { // want `retry-permanent: .*errPermissionDeniedForWrites`
		err := s.Put(ctx, "k")
		if err == nil {
			return nil
		}
		if err != errPermissionDeniedForWrites && !errors.Is(err, ErrNotAvailable) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(backoff)):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
	return errors.New("gave up")
}

// putAuthorized gives up on the permission failure: no finding.
func putAuthorized(ctx context.Context, s *Store) error {
	backoff := 100 * time.Millisecond
	for i := 0; i < 5; i++ {
		err := s.Put(ctx, "k")
		if err == nil {
			return nil
		}
		if errors.Is(err, errPermissionDeniedForWrites) || errors.Is(err, ErrUnauthorized) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(backoff)):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
	return errors.New("gave up")
}
