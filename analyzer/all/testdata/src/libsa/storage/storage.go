// Package storage is an object-store client that retries with
// github.com/sethvargo/go-retry.
package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/sethvargo/go-retry"
)

// Bucket is one bucket of the object store.
type Bucket struct {
	http *http.Client
	base string
}

func (b *Bucket) do(ctx context.Context, method, key string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, b.base+"/"+key, nil)
	if err != nil {
		return nil, err
	}
	return b.http.Do(req)
}

// Upload retries server errors on a jittered, capped Fibonacci schedule.
func (b *Bucket) Upload(ctx context.Context, key string) error {
	backoff := retry.NewFibonacci(time.Second)
	backoff = retry.WithMaxRetries(4, backoff)
	backoff = retry.WithJitterPercent(10, backoff)
	backoff = retry.WithCappedDuration(10*time.Second, backoff)
	return retry.Do(ctx, backoff, func(ctx context.Context) error {
		resp, err := b.do(ctx, http.MethodPut, key)
		if err != nil {
			return retry.RetryableError(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return retry.RetryableError(fmt.Errorf("upload %s: %s", key, resp.Status))
		}
		if resp.StatusCode >= 300 {
			return fmt.Errorf("upload %s: %s", key, resp.Status)
		}
		return nil
	})
}

// Download retries whatever goes wrong, doubling the wait.
func (b *Bucket) Download(ctx context.Context, key string) ([]byte, error) {
	return retry.DoValue(ctx, retry.WithMaxRetries(10, retry.NewExponential(time.Second)), func(ctx context.Context) ([]byte, error) { // want `unclassified-retry: .*retry.RetryableError` `no-jitter: .*retry.WithJitterPercent` `no-cap: .*retry.WithCappedDuration`
		resp, err := b.do(ctx, http.MethodGet, key)
		if err != nil {
			return nil, retry.RetryableError(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, retry.RetryableError(err)
		}
		return body, nil
	})
}

// WaitReady polls until the bucket's replication reports ready.
func (b *Bucket) WaitReady(ctx context.Context) error {
	return retry.Constant(ctx, 2*time.Second, func(ctx context.Context) error { // want `fixed-sleep: `
		resp, err := b.do(ctx, http.MethodHead, "")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusServiceUnavailable {
			return retry.RetryableError(errors.New("replicating"))
		}
		return nil
	})
}

// Delete is detached from the caller's context.
func (b *Bucket) Delete(ctx context.Context, key string) error {
	backoff := retry.WithMaxRetries(3, retry.WithFullJitter(retry.NewExponential(100*time.Millisecond)))
	return retry.Do(context.Background(), backoff, func(ctx context.Context) error { // want `sleep-ignores-context: .*pass ctx to retry.Do`
		resp, err := b.do(ctx, http.MethodDelete, key)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return retry.RetryableError(errors.New(resp.Status))
		}
		return nil
	})
}

// Stat waits for an object written elsewhere to become visible.
func (b *Bucket) Stat(ctx context.Context, key string) error {
	backoff := retry.WithMaxDuration(30*time.Second, retry.WithJitter(50*time.Millisecond, retry.NewConstant(500*time.Millisecond)))
	return retry.Do(ctx, backoff, func(ctx context.Context) error { // want `retry-permanent: .*HTTP 404`
		resp, err := b.do(ctx, http.MethodHead, key)
		if err != nil {
			return err
		}
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusOK:
			return nil
		case http.StatusNotFound, http.StatusServiceUnavailable:
			return retry.RetryableError(errors.New(resp.Status))
		}
		return errors.New(resp.Status)
	})
}

// Ping never marks a failure retryable, so it makes one attempt.
func (b *Bucket) Ping(ctx context.Context) error {
	return retry.Do(ctx, retry.NewConstant(time.Second), func(ctx context.Context) error {
		_, err := b.do(ctx, http.MethodHead, "")
		return err
	})
}

// Copy paces a loop of its own with the library's back-off.
func (b *Bucket) Copy(ctx context.Context, from, to string) error {
	backoff := retry.WithMaxRetries(5, retry.WithCappedDuration(5*time.Second, retry.WithFullJitter(retry.NewExponential(200*time.Millisecond))))
	for {
		resp, err := b.do(ctx, http.MethodPost, from+"?copyTo="+to)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
		}
		next, stop := backoff.Next()
		if stop {
			return fmt.Errorf("copy %s: giving up", from)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(next):
		}
	}
}

// Temporary is a failure the store says may pass.
type Temporary interface{ Temporary() bool }

// List retries only failures the transport calls temporary.
func (b *Bucket) List(ctx context.Context, prefix string) ([]string, error) {
	backoff := retry.WithMaxRetries(4, retry.WithJitter(100*time.Millisecond, retry.NewExponential(250*time.Millisecond)))
	return retry.DoValue(ctx, backoff, func(ctx context.Context) ([]string, error) {
		resp, err := b.do(ctx, http.MethodGet, "?prefix="+prefix)
		if err != nil {
			var t Temporary
			if errors.As(err, &t) && t.Temporary() {
				return nil, retry.RetryableError(err)
			}
			return nil, err
		}
		resp.Body.Close()
		return nil, nil
	})
}

// Mirror retries server errors within a time budget.
func (b *Bucket) Mirror(ctx context.Context, key string) error {
	backoff := retry.WithMaxDuration(time.Minute, retry.WithCappedDuration(8*time.Second, retry.WithFullJitter(retry.NewExponential(200*time.Millisecond))))
	return retry.Do(ctx, backoff, func(ctx context.Context) error {
		resp, err := b.do(ctx, http.MethodPost, key+"?mirror")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			return retry.RetryableError(errors.New(resp.Status))
		}
		return nil
	})
}
