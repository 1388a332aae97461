// Package cloud contains the thin wrappers over the object-storage and
// long-running-operation APIs.
package cloud

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"time"
)

// Clock is injected so tests can run without real waits.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
	Sleep(d time.Duration)
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
func (realClock) Sleep(d time.Duration)                  { time.Sleep(d) }

// RealClock is the production clock.
var RealClock Clock = realClock{}

// Policy is the retry policy shared by every SDK call.
type Policy struct {
	MaxAttempts int
	Initial     time.Duration
	Max         time.Duration
	Multiplier  float64
	Clock       Clock
}

var DefaultPolicy = Policy{MaxAttempts: 5, Initial: 100 * time.Millisecond, Max: 30 * time.Second, Multiplier: 2, Clock: RealClock}

// APIError is returned by the REST transport.
type APIError struct {
	Code int
	Body string
}

func (e *APIError) Error() string { return fmt.Sprintf("cloud: HTTP %d: %s", e.Code, e.Body) }

// IsRetryable reports whether err is worth another attempt.
func IsRetryable(err error) bool {
	var ae *APIError
	if errors.As(err, &ae) {
		switch ae.Code {
		case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
			http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	return errors.Is(err, io.ErrUnexpectedEOF)
}

// Retry runs fn under policy p. Waits are full-jittered and capped at p.Max.
func Retry[T any](ctx context.Context, p Policy, fn func(context.Context) (T, error)) (T, error) {
	var zero T
	var err error
	cur := p.Initial
	for attempt := 1; attempt <= p.MaxAttempts; attempt++ {
		var v T
		if v, err = fn(ctx); err == nil {
			return v, nil
		}
		if !IsRetryable(err) || attempt == p.MaxAttempts {
			break
		}
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case <-p.Clock.After(rand.N(cur)):
		}
		cur = min(time.Duration(float64(cur)*p.Multiplier), p.Max)
	}
	return zero, err
}

// Must retries fn until it succeeds. Only used at start-up.
func Must[T any](fn func() (T, error)) T {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		v, err := fn()
		if err == nil {
			return v
		}
		time.Sleep(time.Second) // want `fixed-sleep: `
	}
}

// Uploader writes objects with a test-injectable clock.
type Uploader struct {
	clock Clock
	delay time.Duration
	put   func(name string, data []byte) error
}

// Put writes one object.
func (u *Uploader) Put(name string, data []byte) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = u.put(name, data); err == nil || !IsRetryable(err) {
			return err
		}
		u.clock.Sleep(u.delay) // want `fixed-sleep: `
	}
	return err
}

// Operation is a long-running operation handle.
type Operation struct {
	Name  string
	Done  bool
	Error error
}

// WaitOperation polls a long-running operation until it completes.
func WaitOperation(ctx context.Context, get func(context.Context, string) (*Operation, error), name string) error {
	interval := time.Second
	for {
		op, err := get(ctx, name)
		if err != nil {
			return fmt.Errorf("poll %s: %w", name, err)
		}
		if op.Done {
			return op.Error
		}
		t := time.NewTimer(interval)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		interval = min(interval*3/2, 20*time.Second)
	}
}

// ResumableUpload uploads chunks, retrying each with decorrelated jitter.
func ResumableUpload(ctx context.Context, chunks [][]byte, send func(ctx context.Context, off int64, b []byte) error) error {
	const base, ceiling = 200 * time.Millisecond, 32 * time.Second
	var off int64
	for _, c := range chunks {
		sleep := base
		var err error
		for attempt := 0; attempt < 6; attempt++ {
			if err = send(ctx, off, c); err == nil || !IsRetryable(err) {
				break
			}
			sleep = min(ceiling, base+rand.N(sleep*3-base+1))
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(sleep):
			}
		}
		if err != nil {
			return fmt.Errorf("chunk at %d: %w", off, err)
		}
		off += int64(len(c))
	}
	return nil
}

// DeleteBucket deletes a bucket, retrying within a fixed time budget.
func DeleteBucket(name string, del func(string) error) error {
	deadline := time.Now().Add(30 * time.Second)
	wait := 250 * time.Millisecond
	for time.Now().Before(deadline) {
		err := del(name)
		if err == nil {
			return nil
		}
		var ae *APIError
		if errors.As(err, &ae) && ae.Code == http.StatusNotFound {
			return nil
		}
		if !IsRetryable(err) {
			return err
		}
		time.Sleep(rand.N(wait))
		wait = min(wait*2, 4*time.Second)
	}
	return fmt.Errorf("delete bucket %s: deadline exceeded", name)
}

// CopyObject copies with exponential, jittered waits.
func CopyObject(ctx context.Context, p Policy, src, dst string, copyFn func(ctx context.Context, src, dst string) error) error {
	var err error
	for attempt := 0; attempt < p.MaxAttempts; attempt++ {
		if err = copyFn(ctx, src, dst); err == nil || !IsRetryable(err) {
			return err
		}
		d := time.Duration(float64(p.Initial) * math.Pow(p.Multiplier, float64(attempt)))
		d = d/2 + rand.N(d/2+1)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d): // want `no-cap: `
		}
	}
	return err
}

// SignURL asks the IAM API to sign a URL; retries use the injected clock.
func SignURL(ctx context.Context, clock Clock, sign func(context.Context) (string, error)) (string, error) {
	b := 50 * time.Millisecond
	for attempt := 0; attempt < 4; attempt++ {
		u, err := sign(ctx)
		if err == nil {
			return u, nil
		}
		if !IsRetryable(err) {
			return "", err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-clock.After(b + rand.N(b)):
		}
		b = min(b*2, time.Second)
	}
	return "", errors.New("sign url: retries exhausted")
}
