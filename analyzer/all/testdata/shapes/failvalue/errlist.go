package failvalue

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"net"
	"time"
)

// syncBatch copies what is waiting and returns the errors of the batch,
// none when everything arrived.
func syncBatch(ctx context.Context, addr string) []error {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return []error{err}
	}
	c.Close()
	return nil
}

// SyncLoop runs batches forever and pauses a constant 5 s after a batch
// with errors: every error, permanent ones too, is tried again.
func SyncLoop(ctx context.Context, addr string) {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		errs := syncBatch(ctx, addr)
		for _, err := range errs {
			log.Print(err)
		}
		if len(errs) > 0 {
			time.Sleep(5 * time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
		}
	}
}

// SyncUntilDone stops with the context and retries only what is not
// refused, after a jittered wait.
func SyncUntilDone(ctx context.Context, addr string) error {
	for ctx.Err() == nil {
		errs := syncBatch(ctx, addr)
		for _, err := range errs {
			if errors.Is(err, errRefused) {
				return err
			}
		}
		if len(errs) == 0 {
			continue
		}
		select {
		case <-ctx.Done():
		case <-time.After(rand.N(5 * time.Second)):
		}
	}
	return ctx.Err()
}

var errRefused = errors.New("refused")

// SyncPaced waits the same after every batch: periodic.
func SyncPaced(ctx context.Context, addr string) {
	for ctx.Err() == nil {
		errs := syncBatch(ctx, addr)
		if len(errs) > 0 {
			log.Print(errs)
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Minute):
		}
	}
}
