package forms

import (
	"context"
	"errors"
	"math/rand/v2"
	"os/exec"
	"syscall"
	"time"
)

// runScript runs a script just written, again while the kernel still
// reports it busy (ETXTBSY): a race on this machine, not a dependency
// failing, so it is no retry layer of its callers.
func runScript(ctx context.Context, path string) error {
	for attempt := 0; ; attempt++ {
		err := exec.CommandContext(ctx, path).Run()
		if attempt < 100 && errors.Is(err, syscall.ETXTBSY) {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(rand.N(10 * time.Millisecond)):
			}
			continue
		}
		return err
	}
}

// fetchRemote fetches again while the remote answers with a busy error.
func fetchRemote(ctx context.Context, fetch func(context.Context) error) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = fetch(ctx); !errors.Is(err, errBusy) {
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

var errBusy = errors.New("remote busy")

// Checkout retries a checkout whose script waits out a busy executable:
// one retry layer.
func Checkout(ctx context.Context, path string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = runScript(ctx, path); err == nil || !errors.Is(err, errBusy) {
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

// Mirror retries a fetch that retries itself: two layers.
func Mirror(ctx context.Context, fetch func(context.Context) error) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `nested-retry: retry loop retries fetchRemote, which retries too`
		if err = fetchRemote(ctx, fetch); err == nil || !errors.Is(err, errBusy) {
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
