// Package forms holds retry loops written in shapes other than the
// textbook for-loop: the first attempt before the loop, the retry inside a
// select case, the result fed back as the next argument, the operation in
// a closure or under an if, a predicate that also says "done" on success,
// and goto.
package forms

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"time"
)

// Zone is a storage zone to bring up.
type Zone struct{ name string }

func (z *Zone) Init(ctx context.Context) error { return nil }

// Client talks to a token service.
type Client struct {
	connected bool
}

func (c *Client) connect(ctx context.Context) error           { return nil }
func (c *Client) ping(ctx context.Context) error              { return nil }
func (c *Client) register(ctx context.Context) error          { return nil }
func refresh(ctx context.Context, tok string) (string, error) { return tok, nil }
func fetch(ctx context.Context) error                         { return nil }

// ErrInvalid marks a request that can never succeed.
var ErrInvalid = errors.New("invalid request")

func trace(name string, f func()) {
	start := time.Now()
	f()
	log.Printf("%s took %s", name, time.Since(start))
}

// PreLoop makes the first attempt before the loop and retries in it.
func PreLoop(ctx context.Context) {
	err := fetch(ctx)
	for err != nil { // want `unbounded-retry: ` `unclassified-retry: `
		log.Printf("fetch: %v", err)
		time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
		err = fetch(ctx)
	}
}

// PreLoopSelect retries inside the timer's case of a select.
func PreLoopSelect(ctx context.Context) error {
	err := fetch(ctx)
	for err != nil { // want `unclassified-retry: `
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond): // want `fixed-sleep: `
			err = fetch(ctx)
		}
	}
	return nil
}

// PreLoopTop tests the outcome at the top of an open loop.
func PreLoopTop(ctx context.Context) error {
	err := fetch(ctx)
	for i := 0; ; i++ { // want `unbounded-retry: ` `unclassified-retry: `
		if err == nil {
			return nil
		}
		time.Sleep(time.Duration(i) * time.Second) // want `no-jitter: ` `no-cap: ` `sleep-ignores-context: `
		err = fetch(ctx)
	}
}

// FedBack passes the token it got back into the next attempt.
func FedBack(ctx context.Context, tok string) (string, error) {
	var err error
	for attempt := 0; attempt < 5; attempt++ { // want `unclassified-retry: `
		tok, err = refresh(ctx, tok)
		if err == nil {
			return tok, nil
		}
		time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
	return "", err
}

// InClosure times each attempt through a callback that sets err.
func InClosure(ctx context.Context, z *Zone) error {
	var err error
	for i := 0; i < 3; i++ { // want `unclassified-retry: `
		trace("init "+z.name, func() {
			err = z.Init(ctx)
		})
		if err == nil {
			return nil
		}
		time.Sleep(2 * time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
	return err
}

// InClosureLocal declares the error inside the loop.
func InClosureLocal(ctx context.Context, z *Zone) error {
	for i := 0; i < 3; i++ { // want `unclassified-retry: `
		var err error
		trace("init "+z.name, func() {
			err = z.Init(ctx)
		})
		if err == nil {
			return nil
		}
		log.Printf("init %s: %v", z.name, err)
		time.Sleep(2 * time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
	return errors.New("zone did not come up")
}

// UnderIf connects only when not connected yet, then pings.
func (c *Client) UnderIf(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ { // want `unclassified-retry: `
		if !c.connected {
			err = c.connect(ctx)
		}
		if err == nil {
			c.connected = true
			return nil
		}
		time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
	return err
}

// NestedIf logs inside the success branch before it returns.
func (c *Client) NestedIf(ctx context.Context, verbose bool) error {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		err := c.register(ctx)
		if err == nil {
			if verbose {
				log.Printf("registered")
			}
			return nil
		}
		time.Sleep(3 * time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
}

// skipRetry says when to stop: on success, or on a request that can
// never succeed.
func skipRetry(err error) bool {
	if err == nil {
		return true
	}
	return errors.Is(err, ErrInvalid)
}

// PredicateCoversNil stops when skipRetry says so, success included.
func (c *Client) PredicateCoversNil(ctx context.Context) error {
	for { // want `unbounded-retry: `
		err := c.ping(ctx)
		if skipRetry(err) {
			return err
		}
		time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
}

// Goto jumps forward out on success and back to START on failure.
func (c *Client) Goto(ctx context.Context) error {
	tries := 0
START: // want `unclassified-retry: `
	err := c.connect(ctx)
	if err == nil {
		goto DONE
	}
	tries++
	if tries > 3 {
		return err
	}
	time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	goto START
DONE:
	c.connected = true
	return nil
}

// --- must not be flagged ---

// PreLoopGood starts before the loop, classifies, backs off with jitter
// and a cap, and ends with ctx.
func PreLoopGood(ctx context.Context) error {
	err := fetch(ctx)
	backoff := 100 * time.Millisecond
	for err != nil {
		if errors.Is(err, ErrInvalid) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(backoff)):
		}
		backoff = min(backoff*2, 10*time.Second)
		err = fetch(ctx)
	}
	return nil
}

// Drain reads a cursor until it is exhausted: the error ends the loop.
func Drain(ctx context.Context, next func(context.Context) (string, error)) []string {
	var out []string
	item, err := next(ctx)
	for err == nil {
		out = append(out, item)
		item, err = next(ctx)
	}
	return out
}

// Progress logs what failed and moves on: no attempt is repeated.
func Progress(ctx context.Context, steps []func(context.Context) error) {
	err := steps[0](ctx)
	for i := 1; i < len(steps); i++ {
		if err != nil {
			log.Printf("step %d: %v", i, err)
		}
		err = steps[i](ctx)
	}
}

// GoodGoto bounds a goto retry by attempts, classifies, and jitters.
func (c *Client) GoodGoto(ctx context.Context) error {
	tries := 0
AGAIN:
	err := c.connect(ctx)
	if err == nil {
		goto OK
	}
	if errors.Is(err, ErrInvalid) || tries >= 3 {
		return err
	}
	tries++
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(rand.N(min(time.Second<<tries, 5*time.Second))):
	}
	goto AGAIN
OK:
	c.connected = true
	return nil
}

// SkipRetryGood uses the predicate with a bounded, jittered retry.
func (c *Client) SkipRetryGood(ctx context.Context) error {
	var err error
	for attempt := range 4 {
		err = c.ping(ctx)
		if skipRetry(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(min(time.Second<<attempt, 8*time.Second))):
		}
	}
	return err
}

// permanent says which failures never succeed; it is false for nil.
func permanent(err error) bool {
	return errors.Is(err, ErrInvalid)
}

// NestedIfGood logs inside the success branch of a bounded, classified,
// jittered retry.
func (c *Client) NestedIfGood(ctx context.Context, verbose bool) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		err = c.register(ctx)
		if err == nil {
			if verbose {
				log.Printf("registered after %d attempts", attempt+1)
			}
			return nil
		}
		if permanent(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(min(time.Second<<attempt, 5*time.Second))):
		}
	}
	return err
}

// Cleanup jumps forward only: there is no back-edge, so no loop.
func (c *Client) Cleanup(ctx context.Context) error {
	err := c.connect(ctx)
	if err != nil {
		goto fail
	}
	if err = c.ping(ctx); err != nil {
		goto fail
	}
	return nil
fail:
	time.Sleep(10 * time.Millisecond)
	c.connected = false
	return err
}

// Pages reads a paged listing; a failure ends it.
func Pages(ctx context.Context, list func(context.Context, string) ([]string, string, error)) ([]string, error) {
	var all []string
	cursor := ""
	for {
		items, next, err := list(ctx, cursor)
		if err != nil {
			return all, err
		}
		all = append(all, items...)
		if next == "" {
			return all, nil
		}
		cursor = next
		time.Sleep(50 * time.Millisecond)
	}
}

// RefreshEvery renews a token on a ticker, whatever the last outcome.
func RefreshEvery(ctx context.Context, tok string, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if next, err := refresh(ctx, tok); err == nil {
			tok = next
		}
	}
}
