// Package classify holds tests of a failure that decide nothing — the
// error looked at only to log it — next to tests that do decide whether
// the failure is retried.
package classify

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"net"
	"os"
	"time"
)

// ErrBusy is a transient refusal.
var ErrBusy = errors.New("busy")

func call(ctx context.Context) error { return nil }

func wait(ctx context.Context, attempt int) error {
	d := rand.N(min(100*time.Millisecond<<attempt, 5*time.Second))
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// LogOnly tells timeouts apart only in the log line.
func LogOnly(ctx context.Context) error {
	for i := 0; i < 5; i++ { // want `unclassified-retry: `
		err := call(ctx)
		if err == nil {
			return nil
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			log.Printf("attempt %d timed out", i)
		} else {
			log.Printf("attempt %d: %v", i, err)
		}
		if err := wait(ctx, i); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

// CountOnly counts busy refusals and retries everything.
func CountOnly(ctx context.Context, busy func()) error {
	for i := 0; i < 5; i++ { // want `unclassified-retry: `
		err := call(ctx)
		if err == nil {
			return nil
		}
		if errors.Is(err, ErrBusy) {
			busy()
		}
		if err := wait(ctx, i); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

func dial(ctx context.Context) (net.Conn, error) { return nil, nil }

func serve(ctx context.Context, c net.Conn) error { return nil }

// SecondOnly tells apart a sentinel of what it does with the connection
// but retries every error of the dial that made it.
func SecondOnly(ctx context.Context) error {
	for i := 0; i < 5; i++ { // want `unclassified-retry: retry loop retries every error of dial`
		c, err := dial(ctx)
		if err == nil {
			err = serve(ctx, c)
			if err == nil {
				return nil
			}
			if !errors.Is(err, ErrBusy) {
				return err
			}
		}
		if err := wait(ctx, i); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

// --- must not be flagged ---

// Returns gives up on everything but ErrBusy.
func Returns(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		err := call(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrBusy) {
			log.Printf("giving up: %v", err)
			return err
		}
		if err := wait(ctx, i); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

// Flag remembers the classification and acts on it after logging.
func Flag(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		err := call(ctx)
		if err == nil {
			return nil
		}
		permanent := false
		if !errors.Is(err, ErrBusy) {
			permanent = true
		}
		if permanent {
			return err
		}
		if err := wait(ctx, i); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

// Fatal stops the program on what cannot succeed.
func Fatal(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		err := call(ctx)
		if err == nil {
			return nil
		}
		if errors.Is(err, os.ErrPermission) {
			log.Fatalf("no permission: %v", err)
		}
		if err := wait(ctx, i); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

// BothSeen looks at the failure of each of its two calls.
func BothSeen(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		c, err := dial(ctx)
		if err != nil {
			if errors.Is(err, os.ErrPermission) {
				return err
			}
		} else if err = serve(ctx, c); err == nil {
			return nil
		} else if !errors.Is(err, ErrBusy) {
			return err
		}
		if err := wait(ctx, i); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}
