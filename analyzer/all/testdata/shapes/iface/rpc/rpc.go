// Package rpc is a broker client behind an interface: its one
// implementation retries every request itself.
package rpc

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Client sends requests to a broker.
type Client interface {
	Request(ctx context.Context, topic string) (string, error)
	Ping(ctx context.Context) error
}

// ErrClosed is a client closed on purpose.
var ErrClosed = errors.New("client closed")

type client struct {
	send func(ctx context.Context, topic string) (string, error)
}

// New returns the retrying client.
func New(send func(ctx context.Context, topic string) (string, error)) Client {
	return &client{send: send}
}

// Request tries three times with a jittered pause.
func (c *client) Request(ctx context.Context, topic string) (string, error) {
	var err error
	for range 3 {
		var r string
		if r, err = c.send(ctx, topic); err == nil || errors.Is(err, ErrClosed) {
			return r, err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(rand.N(100 * time.Millisecond)):
		}
	}
	return "", err
}

// Ping asks once.
func (c *client) Ping(ctx context.Context) error {
	_, err := c.send(ctx, "")
	return err
}

// Logged is a decorator: it holds a Client and calls it. Its own retry is
// the caller's layer, not one behind the interface; around the retrying
// client it is a second one.
type Logged struct {
	Inner Client
}

// Request retries the inner client's request twice more.
func (l *Logged) Request(ctx context.Context, topic string) (string, error) {
	var err error
	for range 3 { // want `nested-retry: `
		var r string
		if r, err = l.Inner.Request(ctx, topic); err == nil || errors.Is(err, ErrClosed) {
			return r, err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(rand.N(100 * time.Millisecond)):
		}
	}
	return "", err
}

// Ping pings the inner client.
func (l *Logged) Ping(ctx context.Context) error { return l.Inner.Ping(ctx) }

// Store reads values; one implementation retries, the other is in memory.
type Store interface {
	Get(ctx context.Context, key string) (string, error)
}

type remoteStore struct{ c Client }

// Get asks the retrying client.
func (s *remoteStore) Get(ctx context.Context, key string) (string, error) {
	return s.c.Request(ctx, key)
}

type memStore map[string]string

// Get reads the map once.
func (m memStore) Get(ctx context.Context, key string) (string, error) {
	if v, ok := m[key]; ok {
		return v, nil
	}
	return "", ErrClosed
}
