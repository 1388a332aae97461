// Package roko is a test stand-in for github.com/buildkite/roko (v1.4.0):
// the exported API with the same signatures. Its bodies call the callback
// once: retrylint reads calls into the library, not the library's code,
// which the real module's packages never reach as a dependency.
package roko

import (
	"context"
	"math/rand"
	"time"
)

type Retrier struct {
	maxAttempts        int
	attemptCount       int
	jitter             bool
	forever            bool
	breakNext          bool
	sleepFunc          func(time.Duration)
	intervalCalculator Strategy
	strategyType       string
	nextInterval       time.Duration
}

type Strategy func(*Retrier) time.Duration

// Constant waits interval between attempts.
func Constant(interval time.Duration) (Strategy, string) {
	return func(r *Retrier) time.Duration { return interval + r.Jitter() }, "constant"
}

// Exponential waits adjustment + base^attempts seconds.
func Exponential(base, adjustment time.Duration) (Strategy, string) {
	return func(r *Retrier) time.Duration { return adjustment + base + r.Jitter() }, "exponential"
}

// ExponentialSubsecond waits initialMs^(attempts/16+1) milliseconds.
func ExponentialSubsecond(initial time.Duration) (Strategy, string) {
	return func(r *Retrier) time.Duration { return initial + r.Jitter() }, "exponential"
}

type RetrierOpt func(*Retrier)

func WithMaxAttempts(maxAttempts int) RetrierOpt {
	return func(r *Retrier) { r.maxAttempts = maxAttempts }
}

func WithRand(rand *rand.Rand) RetrierOpt { return func(*Retrier) {} }

func WithStrategy(strategy Strategy, strategyType string) RetrierOpt {
	return func(r *Retrier) { r.intervalCalculator, r.strategyType = strategy, strategyType }
}

// WithJitter adds a random [0, 1s) to every wait.
func WithJitter() RetrierOpt { return func(r *Retrier) { r.jitter = true } }

func WithJitterRange(min, max time.Duration) RetrierOpt {
	return func(r *Retrier) { r.jitter = true }
}

func TryForever() RetrierOpt { return func(r *Retrier) { r.forever = true } }

func WithSleepFunc(f func(time.Duration)) RetrierOpt {
	return func(r *Retrier) { r.sleepFunc = f }
}

// NewRetrier panics without a maximum number of attempts or TryForever.
func NewRetrier(opts ...RetrierOpt) *Retrier {
	r := &Retrier{}
	for _, o := range opts {
		o(r)
	}
	if r.maxAttempts == 0 && !r.forever {
		panic("retriers must either run forever, or have a maximum attempt count")
	}
	return r
}

func (r *Retrier) Jitter() time.Duration {
	if !r.jitter {
		return 0
	}
	return time.Duration(rand.Int63n(int64(time.Second)))
}

func (r *Retrier) MarkAttempt()                    { r.attemptCount++ }
func (r *Retrier) Break()                          { r.breakNext = true }
func (r *Retrier) SetNextInterval(d time.Duration) { r.nextInterval = d }
func (r *Retrier) ShouldGiveUp() bool {
	return r.breakNext || !r.forever && r.attemptCount >= r.maxAttempts
}
func (r *Retrier) NextInterval() time.Duration { return r.nextInterval }
func (r *Retrier) String() string              { return "" }
func (r *Retrier) AttemptCount() int           { return r.attemptCount }

// Do is DoWithContext on context.Background().
func (r *Retrier) Do(callback func(*Retrier) error) error {
	return callback(r)
}

// DoWithContext runs the callback until it succeeds or the Retrier gives
// up, waiting between attempts in a select on ctx.Done().
func (r *Retrier) DoWithContext(ctx context.Context, callback func(*Retrier) error) error {
	return callback(r)
}

func DoFunc[T any](ctx context.Context, r *Retrier, callback func(*Retrier) (T, error)) (T, error) {
	return callback(r)
}

func DoFunc2[T1, T2 any](ctx context.Context, r *Retrier, callback func(*Retrier) (T1, T2, error)) (T1, T2, error) {
	return callback(r)
}

func DoFunc3[T1, T2, T3 any](ctx context.Context, r *Retrier, callback func(*Retrier) (T1, T2, T3, error)) (T1, T2, T3, error) {
	return callback(r)
}
