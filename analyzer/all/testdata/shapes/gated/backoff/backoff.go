// Package backoff waits after failures only: given a nil error it resets
// and returns at once.
package backoff

import (
	"context"
	"math/rand/v2"
	"time"
)

// Backoff grows its wait with every failure in a row.
type Backoff struct {
	n   int
	max time.Duration
}

// New returns a back-off that waits at most max.
func New(max time.Duration) *Backoff { return &Backoff{max: max} }

// BackOff waits after a failure, jittered and capped, until ctx ends; a
// nil err resets the count and does not wait.
func (b *Backoff) BackOff(ctx context.Context, err error) {
	if err == nil {
		b.n = 0
		return
	}
	b.n++
	d := min(time.Duration(b.n*b.n)*10*time.Millisecond, b.max)
	d = time.Duration(float64(d) * (rand.Float64() + 0.5))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// Pause waits d after a failure.
func Pause(err error, d time.Duration) {
	if err == nil {
		return
	}
	time.Sleep(d)
}

// Tick waits a second whatever happened.
func Tick(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}
