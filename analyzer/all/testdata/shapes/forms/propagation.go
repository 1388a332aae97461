package forms

import (
	"context"
	"fmt"
	"net"
	"time"
)

// checkPropagated asks a resolver whether a record is visible yet.
func checkPropagated(ctx context.Context, name string) (bool, error) {
	txts, err := net.DefaultResolver.LookupTXT(ctx, name)
	if err != nil {
		return false, err
	}
	return len(txts) > 0, nil
}

// WaitPropagated polls until the record is visible: a lookup that fails
// ends the wait, one that finds nothing yet is no failure.
func WaitPropagated(ctx context.Context, name string, timeout time.Duration) error {
	start := time.Now()
	for time.Since(start) < timeout {
		select {
		case <-time.After(2 * time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
		ready, err := checkPropagated(ctx, name)
		if err != nil {
			return fmt.Errorf("checking %s: %w", name, err)
		}
		if ready {
			return nil
		}
	}
	return fmt.Errorf("%s not visible after %s", name, timeout)
}

// tryClaim asks the store for a claim on a name.
func tryClaim(ctx context.Context, name string) (bool, error) {
	_, err := net.DefaultResolver.LookupHost(ctx, name)
	return err == nil, err
}

// Claim goes round while the claim is refused: a claim refused by the
// store is a failed attempt, retried on a fixed interval.
func Claim(ctx context.Context, name string) error {
	for attempt := 0; attempt < 10; attempt++ {
		acquired, err := tryClaim(ctx, name)
		if err != nil {
			return err
		}
		if acquired {
			return nil
		}
		select {
		case <-time.After(2 * time.Second): // want `fixed-sleep: `
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return fmt.Errorf("%s: not claimed", name)
}
