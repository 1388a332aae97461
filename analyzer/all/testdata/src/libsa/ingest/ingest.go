// Package ingest pushes samples to a remote store, pacing its retries
// with github.com/grafana/dskit/backoff.
package ingest

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"time"

	"github.com/grafana/dskit/backoff"
)

// ErrOutOfOrder is a sample the store refuses for good.
var ErrOutOfOrder = errors.New("out of order sample")

// Config is the pusher's configuration, read from flags.
type Config struct {
	Backoff backoff.Config
}

// Pusher sends batches of samples.
type Pusher struct {
	cfg    Config
	remote interface {
		Push(ctx context.Context, batch []byte) error
	}
}

// Push retries a batch ten times with the usual back-off.
func (p *Pusher) Push(ctx context.Context, batch []byte) error {
	b := backoff.New(ctx, backoff.Config{MinBackoff: 100 * time.Millisecond, MaxBackoff: 10 * time.Second, MaxRetries: 10})
	for b.Ongoing() {
		err := p.remote.Push(ctx, batch)
		if err == nil {
			return nil
		}
		if errors.Is(err, ErrOutOfOrder) {
			return err
		}
		log.Printf("push failed, retrying: %v", err)
		b.Wait()
	}
	return b.Err()
}

// Flush runs at shutdown, without a context, until the store answers.
func (p *Pusher) Flush(batch []byte) {
	b := backoff.New(context.Background(), backoff.Config{MinBackoff: time.Second, MaxBackoff: time.Minute})
	for b.Ongoing() { // want `unbounded-retry: ` `unclassified-retry: `
		if err := p.remote.Push(context.Background(), batch); err == nil {
			return
		}
		b.Wait()
	}
}

// Replay waits the same two seconds between its attempts.
func (p *Pusher) Replay(ctx context.Context, batch []byte) error {
	b := backoff.New(ctx, backoff.Config{MinBackoff: 2 * time.Second, MaxRetries: 5}) // want `fixed-sleep: .*MaxBackoff above MinBackoff`
	for b.Ongoing() {
		err := p.remote.Push(ctx, batch)
		if err == nil || errors.Is(err, ErrOutOfOrder) {
			return err
		}
		b.Wait()
	}
	return b.Err()
}

// Resend creates its back-off on every attempt.
func (p *Pusher) Resend(ctx context.Context, batch []byte) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = p.remote.Push(ctx, batch); err == nil || errors.Is(err, ErrOutOfOrder) {
			return err
		}
		b := backoff.New(ctx, backoff.Config{MinBackoff: time.Second, MaxBackoff: 30 * time.Second}) // want `fixed-sleep: .*created anew`
		b.Wait()
	}
	return err
}

// PushConfigured uses the back-off configured by flags.
func (p *Pusher) PushConfigured(ctx context.Context, batch []byte) error {
	b := backoff.New(ctx, p.cfg.Backoff)
	for b.Ongoing() {
		err := p.remote.Push(ctx, batch)
		if err == nil || errors.Is(err, ErrOutOfOrder) {
			return err
		}
		b.Wait()
	}
	return b.ErrCause()
}

// Detached pushes with a background context although the caller has one.
func (p *Pusher) Detached(ctx context.Context, batch []byte) error {
	b := backoff.New(context.Background(), backoff.Config{MinBackoff: 100 * time.Millisecond, MaxBackoff: 2 * time.Second, MaxRetries: 5})
	for b.Ongoing() { // want `sleep-ignores-context: .*give backoff.New the ctx`
		err := p.remote.Push(ctx, batch)
		if err == nil || errors.Is(err, ErrOutOfOrder) {
			return err
		}
		b.Wait()
	}
	return b.Err()
}

var pushBackoff = backoff.Config{MinBackoff: 250 * time.Millisecond, MaxBackoff: 5 * time.Second, MaxRetries: 8}

// PushPackaged uses the package's back-off configuration.
func (p *Pusher) PushPackaged(ctx context.Context, batch []byte) error {
	b := backoff.New(ctx, pushBackoff)
	for b.Ongoing() {
		err := p.remote.Push(ctx, batch)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, ErrOutOfOrder):
			return err
		}
		b.Wait()
	}
	return b.Err()
}

// PushEach pushes every batch with a back-off of its own, built once per
// batch.
func (p *Pusher) PushEach(ctx context.Context, batches [][]byte) error {
	for _, batch := range batches {
		b := backoff.New(ctx, backoff.Config{MinBackoff: 100 * time.Millisecond, MaxBackoff: time.Second, MaxRetries: 3})
		for b.Ongoing() {
			err := p.remote.Push(ctx, batch)
			if err == nil || errors.Is(err, ErrOutOfOrder) {
				break
			}
			b.Wait()
		}
	}
	return nil
}

// Compact retries a compaction within a deadline of its own.
func (p *Pusher) Compact(ctx context.Context, batch []byte) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	b := backoff.New(ctx, backoff.Config{MinBackoff: time.Second, MaxBackoff: 20 * time.Second})
	for b.Ongoing() {
		err := p.remote.Push(ctx, batch)
		if err == nil || errors.Is(err, ErrOutOfOrder) {
			return err
		}
		b.Wait()
	}
	return b.Err()
}

type stream struct{}

func (stream) Recv() ([]byte, error) { return nil, errors.New("closed") }

func (p *Pusher) open(ctx context.Context) (stream, error) { return stream{}, nil }

// Follow reconnects on a back-off that it resets once a stream served:
// the reset comes after the waits, on the way round after success. Of
// open's errors only the cancellation is looked at: every other is
// retried, though Recv's are told apart.
func (p *Pusher) Follow(ctx context.Context, cfg backoff.Config) {
	b := backoff.New(ctx, cfg)
	for b.Ongoing() { // want `unclassified-retry: retry loop retries every error of p.open`
		s, err := p.open(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return
			}
			log.Printf("open: %v", err)
			b.Wait()
			continue
		}
		if _, err := s.Recv(); err != nil && !errors.Is(err, ErrOutOfOrder) {
			b.Wait()
			continue
		}
		b.Reset()
	}
}

// Watcher long-polls a key and decodes what it finds.
type Watcher struct {
	get    func(ctx context.Context, key string, index uint64) ([]byte, uint64, error)
	decode func([]byte) (string, error)
	wait   func(ctx context.Context) error
}

// ErrMalformed is a key whose value does not decode.
var ErrMalformed = errors.New("malformed value")

// WatchKey retries every failed poll: the only error it looks at is the
// rate limiter's cancellation.
func (w *Watcher) WatchKey(ctx context.Context, key string, f func(string) bool) {
	b := backoff.New(ctx, backoff.Config{MinBackoff: time.Second, MaxBackoff: time.Minute})
	var index uint64
	for b.Ongoing() { // want `unclassified-retry: `
		if err := w.wait(ctx); err != nil {
			if errors.Is(err, context.Canceled) {
				break
			}
			b.Wait()
			continue
		}
		data, next, err := w.get(ctx, key, index)
		if err != nil {
			log.Printf("poll %s: %v", key, err)
			b.Wait()
			continue
		}
		b.Reset()
		index = next
		v, _ := w.decode(data)
		if !f(v) {
			return
		}
	}
}

// WatchKeyClassified gives up on a malformed key before it waits.
func (w *Watcher) WatchKeyClassified(ctx context.Context, key string, f func(string) bool) {
	b := backoff.New(ctx, backoff.Config{MinBackoff: time.Second, MaxBackoff: time.Minute})
	var index uint64
	for b.Ongoing() {
		data, next, err := w.get(ctx, key, index)
		if err != nil {
			if errors.Is(err, ErrMalformed) {
				return
			}
			b.Wait()
			continue
		}
		b.Reset()
		index = next
		v, _ := w.decode(data)
		if !f(v) {
			return
		}
	}
}

// Query retries every answer but a 2xx, a 400 or a 403 as well.
func Query(ctx context.Context, client *http.Client, req *http.Request) (*http.Response, error) {
	b := backoff.New(ctx, backoff.Config{MinBackoff: time.Second, MaxBackoff: 10 * time.Second, MaxRetries: 5})
	for b.Ongoing() { // want `retry-permanent: retry loop retries HTTP 400, 401, 403`
		resp, err := client.Do(req)
		if err != nil {
			b.Wait()
			continue
		}
		if resp.StatusCode/100 != 2 {
			buf, _ := io.ReadAll(resp.Body)
			log.Printf("error response: %s", buf)
			if err := resp.Body.Close(); err != nil {
				log.Printf("close: %v", err)
			}
			b.Wait()
			continue
		}
		return resp, nil
	}
	return nil, b.Err()
}

// QueryTransient retries 429 and 5xx answers only.
func QueryTransient(ctx context.Context, client *http.Client, req *http.Request) (*http.Response, error) {
	b := backoff.New(ctx, backoff.Config{MinBackoff: time.Second, MaxBackoff: 10 * time.Second, MaxRetries: 5})
	for b.Ongoing() {
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			buf, _ := io.ReadAll(resp.Body)
			log.Printf("transient answer: %s", buf)
			resp.Body.Close()
			b.Wait()
			continue
		}
		return resp, nil
	}
	return nil, b.Err()
}

func rateLimited(status int) bool { return status == 429 }

// Send retries what has no answer (status 0), 429 unless it drops those,
// and 5xx, and gives up on any other status.
func Send(ctx context.Context, send func(batch []byte) (int, error), batch []byte, dropLimited bool) error {
	b := backoff.New(ctx, backoff.Config{MinBackoff: time.Second, MaxBackoff: 10 * time.Second, MaxRetries: 5})
	var err error
	var status int
	for {
		status, err = send(batch)
		log.Printf("sent: %d", status)
		if dropLimited && rateLimited(status) {
			return nil
		}
		if err == nil {
			return nil
		}
		if status > 0 && !rateLimited(status) && status/100 != 5 {
			break
		}
		b.Wait()
		if !b.Ongoing() {
			break
		}
	}
	return err
}
