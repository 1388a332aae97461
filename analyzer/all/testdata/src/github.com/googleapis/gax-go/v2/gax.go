// Package gax is a test stand-in for github.com/googleapis/gax-go/v2
// v2.27.0: Invoke, the call options and the retryers. Backoff.Pause
// waits a random time up to the current interval (full jitter), which
// starts at Initial (default 1s), grows by Multiplier (default 2) and is
// capped at Max (default 30s). Invoke retries until the retryer gives up
// or ctx is done.
package gax

import (
	"context"
	"errors"
	"math/rand"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// CallOption configures a call.
type CallOption interface {
	Resolve(cs *CallSettings)
}

// CallSettings are the resolved options of a call.
type CallSettings struct {
	Retry   func() Retryer
	Path    string
	timeout time.Duration
}

// Retryer decides whether, and after what pause, a failed call is retried.
type Retryer interface {
	Retry(err error) (pause time.Duration, shouldRetry bool)
}

type retryerOption func() Retryer

func (o retryerOption) Resolve(s *CallSettings) { s.Retry = o }

// WithRetry sets the retryer a call uses.
func WithRetry(fn func() Retryer) CallOption { return retryerOption(fn) }

type timeoutOpt struct{ t time.Duration }

func (o timeoutOpt) Resolve(s *CallSettings) { s.timeout = o.t }

// WithTimeout bounds the call, retries included, when ctx has no deadline.
func WithTimeout(t time.Duration) CallOption { return timeoutOpt{t} }

type pathOpt struct{ p string }

func (o pathOpt) Resolve(s *CallSettings) { s.Path = o.p }

func WithPath(p string) CallOption { return pathOpt{p} }

// Backoff is a jittered exponential back-off.
type Backoff struct {
	Initial    time.Duration
	Max        time.Duration
	Multiplier float64
	cur        time.Duration
}

// Pause returns the next wait.
func (bo *Backoff) Pause() time.Duration {
	if bo.Initial == 0 {
		bo.Initial = time.Second
	}
	if bo.cur == 0 {
		bo.cur = bo.Initial
	}
	if bo.Max == 0 {
		bo.Max = 30 * time.Second
	}
	if bo.Multiplier < 1 {
		bo.Multiplier = 2
	}
	d := time.Duration(1 + rand.Int63n(int64(bo.cur)))
	bo.cur = min(time.Duration(float64(bo.cur)*bo.Multiplier), bo.Max)
	return d
}

type codesRetryer struct {
	backoff Backoff
	codes   []codes.Code
}

func (r *codesRetryer) Retry(err error) (time.Duration, bool) {
	st, ok := status.FromError(err)
	if !ok {
		return 0, false
	}
	for _, c := range r.codes {
		if st.Code() == c {
			return r.backoff.Pause(), true
		}
	}
	return 0, false
}

// OnCodes retries errors whose gRPC code is in cc.
func OnCodes(cc []codes.Code, bo Backoff) Retryer {
	return &codesRetryer{backoff: bo, codes: append([]codes.Code(nil), cc...)}
}

type funcRetryer struct {
	backoff     Backoff
	shouldRetry func(error) bool
}

func (r *funcRetryer) Retry(err error) (time.Duration, bool) {
	if r.shouldRetry(err) {
		return r.backoff.Pause(), true
	}
	return 0, false
}

// OnErrorFunc retries errors for which shouldRetry is true.
func OnErrorFunc(bo Backoff, shouldRetry func(err error) bool) Retryer {
	return &funcRetryer{backoff: bo, shouldRetry: shouldRetry}
}

// httpCoder is what OnHTTPCodes inspects here: an error with an HTTP status
// (the real package reads a googleapi.Error).
type httpCoder interface{ HTTPCode() int }

type httpRetryer struct {
	backoff Backoff
	codes   map[int]bool
}

func (r *httpRetryer) Retry(err error) (time.Duration, bool) {
	var he httpCoder
	if errors.As(err, &he) && r.codes[he.HTTPCode()] {
		return r.backoff.Pause(), true
	}
	return 0, false
}

// OnHTTPCodes retries HTTP errors whose status is in cc.
func OnHTTPCodes(bo Backoff, cc ...int) Retryer {
	m := make(map[int]bool, len(cc))
	for _, c := range cc {
		m[c] = true
	}
	return &httpRetryer{backoff: bo, codes: m}
}

// APICall is one attempt of a call.
type APICall func(context.Context, CallSettings) error

// Sleep waits d, or until ctx is done.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	select {
	case <-ctx.Done():
		t.Stop()
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Invoke runs call, retrying it as the options say.
func Invoke(ctx context.Context, call APICall, opts ...CallOption) error {
	var s CallSettings
	for _, o := range opts {
		o.Resolve(&s)
	}
	if _, ok := ctx.Deadline(); !ok && s.timeout != 0 {
		c, cancel := context.WithTimeout(ctx, s.timeout)
		defer cancel()
		ctx = c
	}
	var r Retryer
	for {
		err := call(ctx, s)
		if err == nil || s.Retry == nil {
			return err
		}
		if r == nil {
			if r = s.Retry(); r == nil {
				return err
			}
		}
		d, ok := r.Retry(err)
		if !ok {
			return err
		}
		if err := Sleep(ctx, d); err != nil {
			return err
		}
	}
}
