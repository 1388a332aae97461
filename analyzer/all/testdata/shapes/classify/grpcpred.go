package classify

import (
	"context"
	"math/rand/v2"
	"time"

	"shapes/codes"
)

func fetchToken(ctx context.Context) (string, error) { return "", nil }

// retriable denies a short list of codes and retries the rest: a caller
// without permission, or not signed in, goes round until the deadline.
func retriable(err error) bool {
	switch codes.Of(err) {
	case codes.InvalidArgument, codes.NotFound:
		return false
	default:
		return true
	}
}

// transient retries only what is unavailable.
func transient(err error) bool {
	return codes.Of(err) == codes.Unavailable
}

// FetchToken asks the denylist whether to go round.
func FetchToken(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for { // want `retry-permanent: `
		tok, err := fetchToken(ctx)
		if err == nil {
			return tok, nil
		}
		if !retriable(err) {
			return "", err
		}
		select {
		case <-ctx.Done():
			return "", err
		case <-time.After(rand.N(time.Second)):
		}
	}
}

// FetchTokenTransient asks the allowlist.
func FetchTokenTransient(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		tok, err := fetchToken(ctx)
		if err == nil {
			return tok, nil
		}
		if !transient(err) {
			return "", err
		}
		select {
		case <-ctx.Done():
			return "", err
		case <-time.After(rand.N(time.Second)):
		}
	}
}
