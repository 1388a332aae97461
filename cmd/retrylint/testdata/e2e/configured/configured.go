// Package configured classifies its failures only through a function that
// the configuration names: without that setting the loop retries blindly.
package configured

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

var errBusy = errors.New("busy")

type reply struct{ code int }

func (r reply) retryable() bool { return r.code == 429 || r.code >= 500 }

func send(ctx context.Context) (reply, error) { return reply{503}, errBusy }

// Send retries what the reply says is worth retrying.
func Send(ctx context.Context) error {
	var last error
	for attempt := range 4 {
		r, err := send(ctx)
		if err == nil {
			return nil
		}
		if !r.retryable() {
			return err
		}
		last = err
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(min(100*time.Millisecond<<attempt, 2*time.Second))))):
		}
	}
	return last
}
