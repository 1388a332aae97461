// Package retrier is a test stand-in for
// github.com/eapache/go-resiliency/retrier (v1.7.0): New(backoff,
// classifier) retries as many times as the back-off has entries, waiting
// each in turn; a nil classifier is DefaultClassifier, which retries
// every error; no jitter unless SetJitter.
package retrier

import (
	"context"
	"errors"
	"time"
)

type Retrier struct {
	backoff       []time.Duration
	infiniteRetry bool
	class         Classifier
	jitter        float64
}

func New(backoff []time.Duration, class Classifier) *Retrier {
	if class == nil {
		class = DefaultClassifier{}
	}
	return &Retrier{backoff: backoff, class: class}
}

func (r *Retrier) WithInfiniteRetry() *Retrier {
	r.infiniteRetry = true
	return r
}

func (r *Retrier) WithSurfaceWorkErrors() *Retrier { return r }

func (r *Retrier) Run(work func() error) error {
	return r.RunFn(context.Background(), func(context.Context, int) error { return work() })
}

func (r *Retrier) RunCtx(ctx context.Context, work func(ctx context.Context) error) error {
	return r.RunFn(ctx, func(c context.Context, _ int) error { return work(c) })
}

func (r *Retrier) RunFn(ctx context.Context, work func(ctx context.Context, retries int) error) error {
	retries := 0
	for {
		ret := work(ctx, retries)
		if r.class.Classify(ret) != Retry || !r.infiniteRetry && retries >= len(r.backoff) {
			return ret
		}
		retries++
	}
}

func (r *Retrier) SetJitter(jit float64) {
	if jit < 0 || jit > 1 {
		return
	}
	r.jitter = jit
}

func ConstantBackoff(n int, amount time.Duration) []time.Duration {
	ret := make([]time.Duration, n)
	for i := range ret {
		ret[i] = amount
	}
	return ret
}

func ExponentialBackoff(n int, initialAmount time.Duration) []time.Duration {
	ret := make([]time.Duration, n)
	next := initialAmount
	for i := range ret {
		ret[i] = next
		next *= 2
	}
	return ret
}

func LimitedExponentialBackoff(n int, initialAmount time.Duration, limitAmount time.Duration) []time.Duration {
	ret := make([]time.Duration, n)
	next := initialAmount
	for i := range ret {
		ret[i] = min(next, limitAmount)
		next *= 2
	}
	return ret
}

type Action int

const (
	Succeed Action = iota
	Fail
	Retry
)

type Classifier interface {
	Classify(error) Action
}

type DefaultClassifier struct{}

func (c DefaultClassifier) Classify(err error) Action {
	if err == nil {
		return Succeed
	}
	return Retry
}

type WhitelistClassifier []error

func (list WhitelistClassifier) Classify(err error) Action {
	if err == nil {
		return Succeed
	}
	for _, pass := range list {
		if errors.Is(err, pass) {
			return Retry
		}
	}
	return Fail
}

type BlacklistClassifier []error

func (list BlacklistClassifier) Classify(err error) Action {
	if err == nil {
		return Succeed
	}
	for _, pass := range list {
		if errors.Is(err, pass) {
			return Fail
		}
	}
	return Retry
}
