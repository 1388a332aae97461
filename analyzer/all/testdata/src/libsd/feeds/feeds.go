// Package feeds polls upstream feeds, pacing its retry loops with
// jpillora/backoff.
package feeds

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/jpillora/backoff"
)

var ErrBusy = errors.New("busy")

// Reader reads one upstream feed.
type Reader struct {
	http *http.Client
	url  string
}

func (r *Reader) fetch(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url, nil)
	if err != nil {
		return err
	}
	resp, err := r.http.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusServiceUnavailable {
		return ErrBusy
	}
	return nil
}

// Fetch waits a jittered, capped, doubling time, a few times, ending with
// ctx.
func (r *Reader) Fetch(ctx context.Context) error {
	b := &backoff.Backoff{Min: 100 * time.Millisecond, Max: 5 * time.Second, Jitter: true}
	var err error
	for range 5 {
		if err = r.fetch(ctx); err == nil || !errors.Is(err, ErrBusy) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(b.Duration()):
		}
	}
	return err
}

// Sync uses the defaults: 100ms doubling up to 10s, without jitter.
func (r *Reader) Sync(ctx context.Context) error {
	b := &backoff.Backoff{} // want `no-jitter: `
	for attempt := 0; attempt < 8; attempt++ {
		err := r.fetch(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrBusy) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(b.Duration()):
		}
	}
	return errors.New("gave up")
}

// Follow waits Max every time: Min is not below it.
func (r *Reader) Follow(ctx context.Context) error {
	b := backoff.Backoff{Min: 2 * time.Second, Max: 2 * time.Second, Jitter: true} // want `fixed-sleep: .*constant 2s`
	for i := 0; i < 5; i++ {
		err := r.fetch(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrBusy) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(b.Duration()):
		}
	}
	return errors.New("gave up")
}

// Tail makes a new back-off every round: its wait never grows.
func (r *Reader) Tail(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		b := &backoff.Backoff{Min: 500 * time.Millisecond, Max: 10 * time.Second} // want `fixed-sleep: `
		err := r.fetch(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrBusy) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(b.Duration()):
		}
	}
	return errors.New("gave up")
}

// Watch retries forever, with time.Sleep although ctx is in scope.
func (r *Reader) Watch(ctx context.Context) {
	b := &backoff.Backoff{Min: time.Second, Max: time.Minute, Factor: 1.5, Jitter: true}
	for { // want `unbounded-retry: ` `unclassified-retry: `
		if err := r.fetch(ctx); err != nil {
			time.Sleep(b.Duration()) // want `sleep-ignores-context: `
			continue
		}
		b.Reset()
	}
}
