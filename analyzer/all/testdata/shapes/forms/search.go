package forms

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"
)

// ListenFree tries ten ports one after the other without a wait: a search
// for a free one, not a retry of the same call.
func ListenFree() (net.Listener, error) {
	for port := 8000; port < 8010; port++ {
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			return l, nil
		}
	}
	return nil, errors.New("no free port")
}

// Upload makes three attempts at once, one after the other, whatever the
// error: the same call, so a retry.
func Upload(ctx context.Context, put func(context.Context) error) error {
	var err error
	for i := 0; i < 3; i++ { // want `unclassified-retry: `
		if err = put(ctx); err == nil {
			return nil
		}
	}
	return err
}

// UploadNumbered tells the operation which attempt it is, and waits a
// constant second between them: a retry.
func UploadNumbered(ctx context.Context, put func(context.Context, int) error) error {
	var err error
	for i := 0; i < 3; i++ { // want `unclassified-retry: `
		if err = put(ctx, i); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second): // want `fixed-sleep: `
		}
	}
	return err
}
