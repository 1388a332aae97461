// Package iface reconnects through the rpc package's Client interface:
// the implementation behind it retries each request, so a loop around a
// request multiplies its attempts.
package iface

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"shapes/iface/rpc"
)

type Producer struct {
	rpc rpc.Client
}

func (p *Producer) lookup(ctx context.Context, topic string) (string, error) {
	return p.rpc.Request(ctx, topic)
}

// Connect retries a lookup whose request retries too.
func (p *Producer) Connect(ctx context.Context, topic string) error {
	for attempt := 0; attempt < 5; attempt++ { // want `nested-retry: `
		_, err := p.lookup(ctx, topic)
		if err == nil || errors.Is(err, rpc.ErrClosed) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Second)):
		}
	}
	return errors.New("gave up")
}

// Probe retries a ping, which the client sends once.
func (p *Producer) Probe(ctx context.Context) error {
	for attempt := 0; attempt < 5; attempt++ {
		err := p.rpc.Ping(ctx)
		if err == nil || errors.Is(err, rpc.ErrClosed) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Second)):
		}
	}
	return errors.New("gave up")
}

// Pager is an interface no type of this package or its own implements:
// nothing is known of what it does.
type Pager interface {
	Next(ctx context.Context) (string, error)
}

// Page retries a page fetch through it.
func Page(ctx context.Context, p Pager) (string, error) {
	for attempt := 0; attempt < 5; attempt++ {
		s, err := p.Next(ctx)
		if err == nil || errors.Is(err, rpc.ErrClosed) {
			return s, err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(rand.N(time.Second)):
		}
	}
	return "", errors.New("gave up")
}

// Read retries a read through Store, whose in-memory implementation does
// not retry: which one is behind the call is not known, so nothing is said
// of a second layer.
func Read(ctx context.Context, s rpc.Store, key string) (string, error) {
	for attempt := 0; attempt < 5; attempt++ {
		v, err := s.Get(ctx, key)
		if err == nil || errors.Is(err, rpc.ErrClosed) {
			return v, err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(rand.N(time.Second)):
		}
	}
	return "", errors.New("gave up")
}
