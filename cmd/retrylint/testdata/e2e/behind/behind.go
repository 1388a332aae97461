// Package behind retries a request through the broker's interface.
package behind

import (
	"errors"
	"math/rand/v2"
	"time"

	"example.com/e2e/broker"
)

// Lookup retries a request whose client retries too.
func Lookup(c broker.Client, topic string) (string, error) {
	var err error
	for range 5 {
		var r string
		if r, err = c.Request(topic); err == nil || errors.Is(err, broker.ErrClosed) {
			return r, err
		}
		time.Sleep(rand.N(time.Second))
	}
	return "", err
}
