// Package ctxcheck holds retry loops whose context exit is a helper that
// asks the context whether it has ended, in this package or another.
package ctxcheck

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"shapes/ctxcheck/ctxutil"
)

// Part is a stored part of a listing.
type Part interface {
	Read(ctx context.Context, n int) ([]byte, error)
}

var errGone = errors.New("gone")

func done(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return true
	default:
		return false
	}
}

func pause(ctx context.Context) {
	t := time.NewTimer(250*time.Millisecond + rand.N(250*time.Millisecond))
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// WaitPart reads part n until it is there or the context ends.
func WaitPart(ctx context.Context, p Part, n int) ([]byte, error) {
	for {
		if done(ctx) {
			return nil, ctx.Err()
		}
		data, err := p.Read(ctx, n)
		if err == nil {
			return data, nil
		}
		if errors.Is(err, errGone) {
			return nil, err
		}
		pause(ctx)
	}
}

// WaitPartElsewhere asks a helper of another package.
func WaitPartElsewhere(ctx context.Context, p Part, n int) ([]byte, error) {
	for ctxutil.Alive(ctx) {
		data, err := p.Read(ctx, n)
		if err == nil {
			return data, nil
		}
		if errors.Is(err, errGone) {
			return nil, err
		}
		pause(ctx)
	}
	return nil, ctx.Err()
}

// WaitPartCanceled asks the other helper.
func WaitPartCanceled(ctx context.Context, p Part, n int) ([]byte, error) {
	for {
		data, err := p.Read(ctx, n)
		if err == nil {
			return data, nil
		}
		if errors.Is(err, errGone) || ctxutil.Canceled(ctx) {
			return nil, err
		}
		pause(ctx)
	}
}

// WaitPartLogged asks a helper that logs as well, but answers true where
// the context ended: a context exit all the same.
func WaitPartLogged(ctx context.Context, p Part, n int, log func(string)) ([]byte, error) {
	for {
		if ctxutil.Logged(ctx, log) {
			return nil, ctx.Err()
		}
		data, err := p.Read(ctx, n)
		if err == nil {
			return data, nil
		}
		if errors.Is(err, errGone) {
			return nil, err
		}
		pause(ctx)
	}
}

// WaitPartForever has no exit but success and a gone part.
func WaitPartForever(ctx context.Context, p Part, n int) ([]byte, error) {
	for { // want `unbounded-retry: `
		data, err := p.Read(ctx, n)
		if err == nil {
			return data, nil
		}
		if errors.Is(err, errGone) {
			return nil, err
		}
		pause(ctx)
	}
}
