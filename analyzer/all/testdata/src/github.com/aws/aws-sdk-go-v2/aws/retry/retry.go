// Package retry is a stand-in for github.com/aws/aws-sdk-go-v2/aws/retry
// v1.48.0: the standard and adaptive retryers, their options and defaults.
package retry

import (
	"context"
	"errors"
	"math/rand"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
)

const (
	// DefaultMaxAttempts is the maximum of attempts for an API request.
	DefaultMaxAttempts int = 3
	// DefaultMaxBackoff is the maximum back off delay between attempts.
	DefaultMaxBackoff time.Duration = 20 * time.Second
)

// Default retry token quota values.
const (
	DefaultRetryRateTokens     uint = 500
	DefaultRetryCost           uint = 5
	DefaultNoRetryIncrement    uint = 1
	DefaultRetryTimeoutCost    uint = 10
	DefaultThrottlingRetryCost uint = 5
)

// DefaultRetryableErrorCodes provides the set of API error codes that
// should be retried.
var DefaultRetryableErrorCodes = map[string]struct{}{
	"RequestTimeout":          {},
	"RequestTimeoutException": {},
}

// BackoffDelayer provides the interface for determining the delay to before
// another request attempt, that previously failed.
type BackoffDelayer interface {
	BackoffDelay(attempt int, err error) (time.Duration, error)
}

// BackoffDelayerFunc provides a wrapper around a function to determine the
// backoff delay of an attempt retry.
type BackoffDelayerFunc func(int, error) (time.Duration, error)

// BackoffDelay returns the delay before attempt to retry a request.
func (fn BackoffDelayerFunc) BackoffDelay(attempt int, err error) (time.Duration, error) {
	return fn(attempt, err)
}

// IsErrorRetryable provides the interface of an implementation to determine
// if an error as the result of an operation is retryable.
type IsErrorRetryable interface {
	IsErrorRetryable(error) aws.Ternary
}

// IsErrorRetryables is a collection of checks to determine of the error is
// retryable.
type IsErrorRetryables []IsErrorRetryable

// IsErrorRetryable returns if the error is retryable if any of the checks in
// the list return a value other than unknown.
func (r IsErrorRetryables) IsErrorRetryable(err error) aws.Ternary {
	for _, re := range r {
		if v := re.IsErrorRetryable(err); v != aws.UnknownTernary {
			return v
		}
	}
	return aws.UnknownTernary
}

// IsErrorRetryableFunc wraps a function with the IsErrorRetryable interface.
type IsErrorRetryableFunc func(error) aws.Ternary

// IsErrorRetryable returns if the error is retryable.
func (fn IsErrorRetryableFunc) IsErrorRetryable(err error) aws.Ternary { return fn(err) }

// RetryableErrorCode determines if an attempt should be retried based on the
// API error code.
type RetryableErrorCode struct {
	Codes map[string]struct{}
}

// IsErrorRetryable return if the error is retryable based on the error codes.
func (r RetryableErrorCode) IsErrorRetryable(err error) aws.Ternary {
	var v interface{ ErrorCode() string }
	if !errors.As(err, &v) {
		return aws.UnknownTernary
	}
	_, ok := r.Codes[v.ErrorCode()]
	if !ok {
		return aws.UnknownTernary
	}
	return aws.TrueTernary
}

// DefaultRetryables provides the set of retryable checks that are used by
// default.
var DefaultRetryables = []IsErrorRetryable{
	RetryableErrorCode{Codes: DefaultRetryableErrorCodes},
}

// IsErrorThrottle provides the interface of an implementation to determine if
// a error response from an operation is a throttling error.
type IsErrorThrottle interface {
	IsErrorThrottle(error) aws.Ternary
}

// RateLimiter provides the interface for limiting the rate of attempt retries
// allowed by the retryer.
type RateLimiter interface {
	GetToken(ctx context.Context, cost uint) (releaseToken func() error, err error)
	AddTokens(uint) error
}

// StandardOptions provides the functional options for configuring the
// standard retryable, and delay behavior.
type StandardOptions struct {
	MaxAttempts         int
	MaxBackoff          time.Duration
	Backoff             BackoffDelayer
	Retryables          []IsErrorRetryable
	Throttles           []IsErrorThrottle
	RateLimiter         RateLimiter
	RetryCost           uint
	RetryTimeoutCost    uint
	ThrottlingRetryCost uint
	NoRetryIncrement    uint
	BaseDelay           time.Duration
}

// Standard is the standard retry pattern for the SDK.
type Standard struct {
	options   StandardOptions
	retryable IsErrorRetryable
	backoff   BackoffDelayer
}

// NewStandard initializes a standard retry behavior with defaults that can be
// overridden via functional options.
func NewStandard(fnOpts ...func(*StandardOptions)) *Standard {
	o := StandardOptions{
		MaxAttempts:         DefaultMaxAttempts,
		MaxBackoff:          DefaultMaxBackoff,
		Retryables:          append([]IsErrorRetryable{}, DefaultRetryables...),
		RateLimiter:         ratelimit.NewTokenRateLimit(DefaultRetryRateTokens),
		RetryCost:           14,
		RetryTimeoutCost:    DefaultRetryTimeoutCost,
		ThrottlingRetryCost: DefaultThrottlingRetryCost,
		NoRetryIncrement:    DefaultNoRetryIncrement,
	}
	for _, fn := range fnOpts {
		fn(&o)
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	backoff := o.Backoff
	if backoff == nil {
		backoff = NewExponentialJitterBackoff(o.MaxBackoff)
	}
	return &Standard{options: o, backoff: backoff, retryable: IsErrorRetryables(o.Retryables)}
}

// MaxAttempts returns the maximum number of attempts that can be made for a
// request before failing.
func (s *Standard) MaxAttempts() int { return s.options.MaxAttempts }

// IsErrorRetryable returns if the error is can be retried or not.
func (s *Standard) IsErrorRetryable(err error) bool {
	return s.retryable.IsErrorRetryable(err).Bool()
}

// RetryDelay returns the delay to use before another request attempt is made.
func (s *Standard) RetryDelay(attempt int, err error) (time.Duration, error) {
	return s.backoff.BackoffDelay(attempt, err)
}

// GetAttemptToken returns the token to be released after the attempt completes.
func (s *Standard) GetAttemptToken(context.Context) (func(error) error, error) {
	return s.GetInitialToken(), nil
}

// GetInitialToken returns a token for the first attempt.
func (s *Standard) GetInitialToken() func(error) error { return func(error) error { return nil } }

// GetRetryToken attempts to deduct the retry cost from the retry token pool.
func (s *Standard) GetRetryToken(ctx context.Context, opErr error) (func(error) error, error) {
	release, err := s.options.RateLimiter.GetToken(ctx, s.options.RetryCost)
	if err != nil {
		return nil, err
	}
	return func(error) error { return release() }, nil
}

// ExponentialJitterBackoff provides backoff delays with jitter based on the
// number of attempts.
type ExponentialJitterBackoff struct {
	maxBackoff time.Duration
}

// NewExponentialJitterBackoff returns an ExponentialJitterBackoff configured
// for the max backoff.
func NewExponentialJitterBackoff(maxBackoff time.Duration) *ExponentialJitterBackoff {
	return &ExponentialJitterBackoff{maxBackoff: maxBackoff}
}

// BackoffDelay returns the duration to wait before the next attempt should be
// made.
func (j *ExponentialJitterBackoff) BackoffDelay(attempt int, err error) (time.Duration, error) {
	d := min(j.maxBackoff, time.Second<<attempt)
	return time.Duration(rand.Int63n(int64(d) + 1)), nil
}

// AddWithErrorCodes returns a Retryer with additional error codes considered
// for determining if the error should be retried.
func AddWithErrorCodes(r aws.Retryer, codes ...string) aws.Retryer {
	retryable := &RetryableErrorCode{Codes: map[string]struct{}{}}
	for _, c := range codes {
		retryable.Codes[c] = struct{}{}
	}
	return &withIsErrorRetryable{RetryerV2: wrapAsRetryerV2(r), Retryable: retryable}
}

type withIsErrorRetryable struct {
	aws.RetryerV2
	Retryable IsErrorRetryable
}

func (r *withIsErrorRetryable) IsErrorRetryable(err error) bool {
	if v := r.Retryable.IsErrorRetryable(err); v != aws.UnknownTernary {
		return v.Bool()
	}
	return r.RetryerV2.IsErrorRetryable(err)
}

// AddWithMaxAttempts returns a Retryer with MaxAttempts set to the value
// specified; zero retries every retryable error without a limit.
func AddWithMaxAttempts(r aws.Retryer, max int) aws.Retryer {
	return &withMaxAttempts{RetryerV2: wrapAsRetryerV2(r), Max: max}
}

type withMaxAttempts struct {
	aws.RetryerV2
	Max int
}

func (w *withMaxAttempts) MaxAttempts() int { return w.Max }

// AddWithMaxBackoffDelay returns a retryer wrapping the passed in retryer
// overriding the RetryDelay behavior for a alternate minimum initial backoff
// delay.
func AddWithMaxBackoffDelay(r aws.Retryer, delay time.Duration) aws.Retryer {
	return &withMaxBackoffDelay{RetryerV2: wrapAsRetryerV2(r), backoff: NewExponentialJitterBackoff(delay)}
}

type withMaxBackoffDelay struct {
	aws.RetryerV2
	backoff *ExponentialJitterBackoff
}

func (r *withMaxBackoffDelay) RetryDelay(attempt int, err error) (time.Duration, error) {
	return r.backoff.BackoffDelay(attempt, err)
}

type wrappedAsRetryerV2 struct {
	aws.Retryer
}

func wrapAsRetryerV2(r aws.Retryer) aws.RetryerV2 {
	v, ok := r.(aws.RetryerV2)
	if !ok {
		v = wrappedAsRetryerV2{Retryer: r}
	}
	return v
}

func (w wrappedAsRetryerV2) GetAttemptToken(context.Context) (func(error) error, error) {
	return w.Retryer.GetInitialToken(), nil
}

// AdaptiveModeOptions provides the functional options for configuring the
// adaptive retry mode, and delay behavior.
type AdaptiveModeOptions struct {
	FailOnNoAttemptTokens bool
	RequestCost           uint
	Throttles             []IsErrorThrottle
	StandardOptions       []func(*StandardOptions)
}

// AdaptiveMode provides an experimental retry strategy that expands on the
// Standard retry strategy, adding client attempt rate limits.
type AdaptiveMode struct {
	options AdaptiveModeOptions
	retryer aws.RetryerV2
}

// NewAdaptiveMode returns an initialized AdaptiveMode retry strategy.
func NewAdaptiveMode(optFns ...func(*AdaptiveModeOptions)) *AdaptiveMode {
	o := AdaptiveModeOptions{RequestCost: 1}
	for _, fn := range optFns {
		fn(&o)
	}
	return &AdaptiveMode{options: o, retryer: NewStandard(o.StandardOptions...)}
}

// IsErrorRetryable returns if the failed attempt is retryable.
func (a *AdaptiveMode) IsErrorRetryable(err error) bool { return a.retryer.IsErrorRetryable(err) }

// MaxAttempts returns the maximum number of attempts that can be made for an
// attempt before failing.
func (a *AdaptiveMode) MaxAttempts() int { return a.retryer.MaxAttempts() }

// RetryDelay returns the delay that should be used before retrying the attempt.
func (a *AdaptiveMode) RetryDelay(attempt int, opErr error) (time.Duration, error) {
	return a.retryer.RetryDelay(attempt, opErr)
}

// GetRetryToken attempts to deduct the retry cost from the retry token pool.
func (a *AdaptiveMode) GetRetryToken(ctx context.Context, opErr error) (func(error) error, error) {
	return a.retryer.GetRetryToken(ctx, opErr)
}

// GetInitialToken returns the initial attempt token.
func (a *AdaptiveMode) GetInitialToken() func(error) error { return a.retryer.GetInitialToken() }

// GetAttemptToken returns the attempt token.
func (a *AdaptiveMode) GetAttemptToken(ctx context.Context) (func(error) error, error) {
	return a.retryer.GetAttemptToken(ctx)
}
