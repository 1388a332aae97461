// Package aws is a stand-in for github.com/aws/aws-sdk-go-v2/aws v1.48.0:
// the configuration and retryer interfaces client code uses.
package aws

import (
	"context"
	"fmt"
	"time"
)

// RetryMode provides the mode the API client will use to create a retryer.
type RetryMode string

const (
	// RetryModeStandard model provides rate limited retry attempts with
	// exponential backoff delay.
	RetryModeStandard RetryMode = "standard"
	// RetryModeAdaptive adds attempt send rate limiting on throttle responses.
	RetryModeAdaptive RetryMode = "adaptive"
)

// Retryer is an interface to determine if a given error from an attempt
// should be retried, and if so what backoff delay to apply.
type Retryer interface {
	IsErrorRetryable(error) bool
	MaxAttempts() int
	RetryDelay(attempt int, opErr error) (time.Duration, error)
	GetRetryToken(ctx context.Context, opErr error) (releaseToken func(error) error, err error)
	GetInitialToken() (releaseToken func(error) error)
}

// RetryerV2 is an interface to determine if a given error from an attempt
// should be retried, and if so what backoff delay to apply.
type RetryerV2 interface {
	Retryer
	GetInitialToken() (releaseToken func(error) error)
	GetAttemptToken(context.Context) (func(error) error, error)
}

// NopRetryer provides a RequestRetryDecider implementation that will flag
// all attempt errors as not retryable, with a max attempts of 1.
type NopRetryer struct{}

// IsErrorRetryable returns false for all error values.
func (NopRetryer) IsErrorRetryable(error) bool { return false }

// MaxAttempts always returns 1 for the original attempt.
func (NopRetryer) MaxAttempts() int { return 1 }

// RetryDelay is not valid for the NopRetryer.
func (NopRetryer) RetryDelay(int, error) (time.Duration, error) {
	return 0, fmt.Errorf("not retrying any attempt errors")
}

// GetRetryToken returns a stub function that does nothing.
func (NopRetryer) GetRetryToken(context.Context, error) (func(error) error, error) {
	return nopReleaseToken, nil
}

// GetInitialToken returns a stub function that does nothing.
func (NopRetryer) GetInitialToken() func(error) error { return nopReleaseToken }

// GetAttemptToken returns a stub function that does nothing.
func (NopRetryer) GetAttemptToken(context.Context) (func(error) error, error) {
	return nopReleaseToken, nil
}

func nopReleaseToken(error) error { return nil }

// Ternary is an enum allowing an unknown or none state in addition to a bool's true and false.
type Ternary int

// Enumerations for the values of the Ternary type.
const (
	UnknownTernary Ternary = iota
	FalseTernary
	TrueTernary
)

// BoolTernary returns a true or false Ternary value for the bool provided.
func BoolTernary(v bool) Ternary {
	if v {
		return TrueTernary
	}
	return FalseTernary
}

// Bool returns true if the value is TrueTernary, false otherwise.
func (t Ternary) Bool() bool { return t == TrueTernary }

// Config provides service configuration for service clients.
type Config struct {
	Region           string
	RetryMaxAttempts int
	RetryMode        RetryMode
	Retryer          func() Retryer
}

// Copy will return a shallow copy of the Config object.
func (c Config) Copy() Config { return c }

// String returns a pointer to the string value passed in.
func String(v string) *string { return &v }
