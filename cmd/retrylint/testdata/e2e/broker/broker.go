// Package broker hands out its client behind an interface; the client,
// an unexported type, retries every request itself.
package broker

import (
	"errors"
	"math/rand/v2"
	"time"
)

// Client sends requests to a broker.
type Client interface {
	Request(topic string) (string, error)
}

// ErrClosed is a client closed on purpose.
var ErrClosed = errors.New("closed")

// New returns the retrying client.
func New() Client { return &client{} }

type client struct{}

func (c *client) send(topic string) (string, error) { return "", errors.New("unavailable") }

// Request tries three times with a jittered pause.
func (c *client) Request(topic string) (string, error) {
	var err error
	for range 3 {
		var r string
		if r, err = c.send(topic); err == nil || errors.Is(err, ErrClosed) {
			return r, err
		}
		time.Sleep(rand.N(100 * time.Millisecond))
	}
	return "", err
}
