// Package retry runs a function again when it fails.
package retry

import (
	"context"
	"time"
)

// Do runs f up to 4 times, waiting a second between attempts.
func Do(ctx context.Context, f func() error) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = f(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}
