package adapter

import (
	"context"
	"errors"
	"net/http"
	"time"

	"shapes/adapter/pollwait"
)

var copyBackoff = pollwait.Backoff{Duration: time.Second, Factor: 2, Jitter: 0.1, Steps: 5, Cap: time.Minute}

func temporary(err error) bool { return !errors.Is(err, errGone) }

// withBackoff hands its operation on to Retry with its own predicate.
func withBackoff(f func() error) error {
	return pollwait.Retry(f, temporary, copyBackoff)
}

// CopyAll retries each copy through a runner that sleeps: the context
// of the caller cannot cut a pause short.
func CopyAll(ctx context.Context, hc *http.Client, urls []string) error {
	for _, u := range urls {
		if err := withBackoff(func() error { // want `sleep-ignores-context: withBackoff takes no context`
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, nil)
			if err != nil {
				return err
			}
			resp, err := hc.Do(req)
			if err != nil {
				return err
			}
			return resp.Body.Close()
		}); err != nil {
			return err
		}
	}
	return nil
}

// Upload retries through Retry itself, a context in scope.
func Upload(ctx context.Context, hc *http.Client, url string) error {
	try := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	return pollwait.Retry(try, temporary, copyBackoff) // want `sleep-ignores-context: pollwait.Retry takes no context`
}

// WaitReady polls for readiness through the same runner: a condition not
// yet met is no failure, and an error ends the wait.
func WaitReady(ctx context.Context, hc *http.Client, url string) error {
	return pollwait.ExponentialBackoff(copyBackoff, func() (bool, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return false, err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return false, err
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	})
}

// WarmCache has no context: the runner's pauses are all it has.
func WarmCache(hc *http.Client, url string) error {
	return withBackoff(func() error {
		resp, err := hc.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}
