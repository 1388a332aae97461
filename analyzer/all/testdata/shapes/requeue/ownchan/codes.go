package ownchan

import (
	"context"
	"math/rand/v2"
	"time"

	"shapes/codes"
)

// Keys destroys key versions remotely.
type Keys interface {
	Destroy(ctx context.Context, name string) error
}

type Destroyer struct {
	queue chan string
	clk   Clock
	keys  Keys
}

// Destroy tells only a missing key apart from the other failures: the
// code compared with OK says whether the call failed, not how, and a key
// it may not touch goes back on the queue for ever.
func (d *Destroyer) Destroy(ctx context.Context) {
	wait := time.Second
	for { // want `retry-permanent: `
		select {
		case <-ctx.Done():
			return
		case name := <-d.queue:
			err := d.keys.Destroy(ctx, name)
			switch codes.Of(err) {
			case codes.OK, codes.NotFound:
				wait = time.Second
				continue
			default:
				d.queue <- name
			}
			wait = min(wait*2, time.Minute)
			d.clk.Sleep(wait) // want `no-jitter: ` `sleep-ignores-context: `
		}
	}
}

// DestroyTransient re-queues only what is unavailable, after a jittered,
// capped wait that ends with ctx.
func (d *Destroyer) DestroyTransient(ctx context.Context) {
	wait := time.Second
	for {
		select {
		case <-ctx.Done():
			return
		case name := <-d.queue:
			err := d.keys.Destroy(ctx, name)
			if codes.Of(err) != codes.Unavailable {
				wait = time.Second
				continue
			}
			d.queue <- name
			wait = min(wait*2, time.Minute)
			select {
			case <-ctx.Done():
				return
			case <-d.clk.After(rand.N(wait)):
			}
		}
	}
}

// DestroyOnce compares with OK only to count successes: it never
// re-queues.
func (d *Destroyer) DestroyOnce(ctx context.Context, done *int) {
	for name := range d.queue {
		if codes.Of(d.keys.Destroy(ctx, name)) == codes.OK {
			*done++
		}
	}
}
