// Package adapter calls retry runners of another package from functions
// that hold a context.
package adapter

import (
	"context"
	"errors"
	"net/http"

	"shapes/adapter/attempts"
)

var errGone = errors.New("gone")

func transient(err error) bool { return !errors.Is(err, errGone) }

// Fetch holds ctx, yet the runner it calls pauses with time.Sleep.
func Fetch(ctx context.Context, hc *http.Client, req *http.Request) error {
	return attempts.Retry(func() error { // want `sleep-ignores-context: attempts.Retry takes no context and sleeps between attempts, although ctx is in scope`
		resp, err := hc.Do(req.WithContext(ctx))
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, transient)
}

// FetchCtx hands its context to a runner that waits on it.
func FetchCtx(ctx context.Context, hc *http.Client, req *http.Request) error {
	return attempts.RetryCtx(ctx, func() error { // want `unclassified-retry: attempts.RetryCtx retries every error of hc.Do`
		resp, err := hc.Do(req.WithContext(ctx))
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// Warm has no context to honour: the runner's pauses are all it can do.
func Warm(hc *http.Client, url string) error {
	return attempts.Retry(func() error {
		resp, err := hc.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, transient)
}
