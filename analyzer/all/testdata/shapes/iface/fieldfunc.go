package iface

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// metaClient refreshes its metadata through a function-typed field, set
// when it is built to a closure that retries, or to a single-flight
// wrapper of that closure.
type metaClient struct {
	refresh func(topics []string) error
	fetch   func(topic string) error
	lookup  func(topic string) error
}

func newMetaClient(singleFlight bool) *metaClient {
	c := &metaClient{}
	refresh := func(topics []string) error {
		return c.tryRefresh(topics, 3)
	}
	if singleFlight {
		c.refresh = wrapSingleFlight(refresh)
	} else {
		c.refresh = refresh
	}
	c.fetch = c.fetchOnce
	c.lookup = func(topic string) error { return c.fetchOnce(topic) }
	return c
}

// plainClient is given a fetch that tries once.
func plainClient() *metaClient {
	return &metaClient{lookup: func(string) error { return nil }}
}

func wrapSingleFlight(f func([]string) error) func([]string) error {
	return func(topics []string) error { return f(topics) }
}

func (c *metaClient) fetchOnce(string) error { return nil }

// tryRefresh retries by calling itself after a pause.
func (c *metaClient) tryRefresh(topics []string, left int) error {
	err := c.fetchOnce("")
	if err != nil && left > 0 {
		time.Sleep(rand.N(100 * time.Millisecond))
		return c.tryRefresh(topics, left-1) // want `unclassified-retry: `
	}
	return err
}

func (c *metaClient) Controller() error {
	return c.refresh(nil)
}

// Create retries a step that refreshes metadata through the field: the
// closure behind it retries too.
func (c *metaClient) Create(ctx context.Context) error {
	for attempt := 0; attempt < 5; attempt++ { // want `nested-retry: retry loop retries c.Controller, which retries too`
		err := c.Controller()
		if err == nil || errors.Is(err, ctx.Err()) {
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

// Fetch retries through a field only ever set to a method that tries
// once.
func (c *metaClient) Fetch(ctx context.Context) error {
	for attempt := 0; attempt < 5; attempt++ {
		err := c.fetch("t")
		if err == nil || errors.Is(err, ctx.Err()) {
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

// Lookup retries through a field set to different closures, none of
// which retries.
func (c *metaClient) Lookup(ctx context.Context) error {
	for attempt := 0; attempt < 5; attempt++ {
		err := c.lookup("t")
		if err == nil || errors.Is(err, ctx.Err()) {
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
