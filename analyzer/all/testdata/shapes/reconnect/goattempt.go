package reconnect

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"time"
)

var errUnknownHost = errors.New("unknown host")

type watcher struct{ addr string }

func (c *watcher) dial(ctx context.Context) error {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return err
	}
	return nc.Close()
}

// fetch makes the attempt in a goroutine and says how it went on one of
// its channels.
func (c *watcher) fetch(ctx context.Context, done chan<- struct{}, errCh chan<- error) {
	if err := c.dial(ctx); err != nil {
		errCh <- err
		return
	}
	done <- struct{}{}
}

// Poll starts an attempt each round and waits for its outcome: a failure
// arrives on the error channel and is retried after a constant pause.
func (c *watcher) Poll(ctx context.Context, stop <-chan struct{}) error {
	for { // want `unclassified-retry: retry loop retries every error of c.fetch`
		done := make(chan struct{}, 1)
		errCh := make(chan error, 1)
		go c.fetch(ctx, done, errCh)
		select {
		case <-done:
			return nil
		case err := <-errCh:
			if errors.Is(err, context.Canceled) {
				return err
			}
			select {
			case <-time.After(2 * time.Second): // want `fixed-sleep: `
			case <-stop:
				return err
			}
		case <-stop:
			return nil
		}
	}
}

// Connect runs each dial in a goroutine and reads its error.
func (c *watcher) Connect(ctx context.Context) error {
	for attempt := 0; attempt < 5; attempt++ { // want `unclassified-retry: retry loop retries every error of c.dial`
		errc := make(chan error, 1)
		go func() { errc <- c.dial(ctx) }()
		err := <-errc
		if err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
	return errors.New("gave up")
}

// PollCarefully gives up on an unknown host and spreads its pauses.
func (c *watcher) PollCarefully(ctx context.Context) error {
	backoff := 100 * time.Millisecond
	for {
		done := make(chan struct{}, 1)
		errCh := make(chan error, 1)
		go c.fetch(ctx, done, errCh)
		select {
		case <-done:
			return nil
		case err := <-errCh:
			if errors.Is(err, errUnknownHost) {
				return err
			}
			select {
			case <-time.After(rand.N(backoff)):
				backoff = min(backoff*2, 10*time.Second)
			case <-ctx.Done():
				return ctx.Err()
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Collect reads the results of workers started before the loop: an item
// loop over their outcomes, no retry.
func (c *watcher) Collect(ctx context.Context, n int) []error {
	errs := make(chan error, n)
	for range n {
		go func() { errs <- c.dial(ctx) }()
	}
	var failed []error
	for range n {
		if err := <-errs; err != nil {
			failed = append(failed, err)
		}
	}
	return failed
}
