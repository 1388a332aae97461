// Package blind calls a broker through its own generic runner, which goes
// round on every error the attempt returns and reads none of them: each
// call's attempt is the whole classification, so the findings stand at the
// calls, and the runner's own loop, called here, has nothing to answer for.
package blind

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Op is one attempt.
type Op[T any] func() (T, error)

// Retry runs op until it succeeds or ctx ends, waiting what next says.
func Retry[T any](ctx context.Context, op Op[T], next func(error) time.Duration) (T, error) {
	var t *time.Timer
	for {
		res, err := op()
		if err == nil {
			return res, nil
		}
		d := next(err)
		if t == nil {
			t = time.NewTimer(d)
		} else {
			t.Reset(d)
		}
		select {
		case <-ctx.Done():
			return res, errors.Join(ctx.Err(), err)
		case <-t.C:
		}
	}
}

// Broker answers lookups.
type Broker interface {
	Lookup(ctx context.Context, topic string) (string, error)
	Resolve() (string, error)
}

var (
	// ErrTopicNotFound cannot pass on another try.
	ErrTopicNotFound = errors.New("topic not found")
	// ErrUnauthorized cannot either.
	ErrUnauthorized = errors.New("unauthorized")
)

func jittered(error) time.Duration { return time.Duration(rand.Int64N(int64(time.Second))) }

type Client struct{ b Broker }

// Lookup retries every error of the lookup, the host resolution's too.
func (c *Client) Lookup(ctx context.Context, topic string) (string, error) {
	op := func() (string, error) {
		if _, err := c.b.Resolve(); err != nil {
			return "", err
		}
		return c.b.Lookup(ctx, topic)
	}
	return Retry(ctx, op, jittered) // want `unclassified-retry: `
}

// Connect ends the attempts on the errors that cannot pass: the attempt
// returns nil for them, and the runner stops.
func (c *Client) Connect(ctx context.Context, topic string) {
	_, _ = Retry(ctx, func() (string, error) {
		addr, err := c.b.Lookup(ctx, topic)
		if errors.Is(err, ErrTopicNotFound) || errors.Is(err, ErrUnauthorized) {
			return "", nil
		}
		return addr, err
	}, jittered)
}

// Resolve hands the runner a method value: every error it returns goes
// round unread.
func (c *Client) Resolve(ctx context.Context) (string, error) {
	return Retry(ctx, c.b.Resolve, jittered) // want `unclassified-retry: `
}

// Once is no attempt given to the runner: it resolves once.
func (c *Client) Once() (string, error) {
	return c.b.Resolve()
}

// Producer gives the runner, which ends only with its context, a context
// nobody cancels: it goes round for ever.
func (c *Client) Producer(topic string) string {
	bg := context.Background()
	addr, _ := Retry(bg, func() (string, error) { // want `unbounded-retry: ` `unclassified-retry: `
		return c.b.Lookup(bg, topic)
	}, jittered)
	return addr
}

// ProducerWithin gives it a deadline, and stops on a missing topic.
func (c *Client) ProducerWithin(topic string, d time.Duration) string {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	addr, _ := Retry(ctx, func() (string, error) {
		addr, err := c.b.Lookup(ctx, topic)
		if errors.Is(err, ErrTopicNotFound) {
			return "", nil
		}
		return addr, err
	}, jittered)
	return addr
}

type handlerState int

const (
	handlerReady handlerState = iota
	handlerClosed
)

type Handler struct {
	b     Broker
	state handlerState
}

func (h *Handler) getState() handlerState { return h.state }

// Reconnect gives the runner a context nobody cancels, but its attempt
// ends the runs once the handler is closed.
func (h *Handler) Reconnect(topic string) {
	_, _ = Retry(context.Background(), func() (string, error) {
		if h.getState() == handlerClosed {
			return "", nil
		}
		addr, err := h.b.Lookup(context.Background(), topic)
		if errors.Is(err, ErrTopicNotFound) {
			return "", nil
		}
		return addr, err
	}, jittered)
}

// ReconnectReady checks a state that says nothing of a shutdown.
func (h *Handler) ReconnectReady(topic string) {
	_, _ = Retry(context.Background(), func() (string, error) { // want `unbounded-retry: `
		if h.getState() == handlerReady {
			return "", nil
		}
		addr, err := h.b.Lookup(context.Background(), topic)
		if errors.Is(err, ErrTopicNotFound) {
			return "", nil
		}
		return addr, err
	}, jittered)
}
