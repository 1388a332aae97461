// Package awsclient is service code that configures the retries of the
// AWS SDK for Go v2.
package awsclient

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
)

// Load uses the SDK's standard retryer with more attempts.
func Load(ctx context.Context, region string) (aws.Config, error) {
	return config.LoadDefaultConfig(ctx, config.WithRegion(region), config.WithRetryMaxAttempts(5))
}

// LoadAdaptive switches to adaptive mode.
func LoadAdaptive(ctx context.Context) (aws.Config, error) {
	return config.LoadDefaultConfig(ctx,
		config.WithRetryMode(aws.RetryModeAdaptive),
		config.WithRetryMaxAttempts(4),
	)
}

// LoadForever retries every retryable error until it succeeds.
func LoadForever(ctx context.Context) (aws.Config, error) {
	return config.LoadDefaultConfig(ctx, config.WithRetryer(func() aws.Retryer {
		return retry.AddWithMaxAttempts(retry.NewStandard(), 0) // want `unbounded-retry: retry.AddWithMaxAttempts has no attempt limit, deadline or context exit; .*; give the retryer a small attempt limit \(retry.AddWithMaxAttempts, StandardOptions.MaxAttempts\)`
	}))
}

// LoadBounded wraps the standard retryer with a limit and a shorter cap.
func LoadBounded(ctx context.Context) (aws.Config, error) {
	return config.LoadDefaultConfig(ctx, config.WithRetryer(func() aws.Retryer {
		std := retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxAttempts = 6
			o.RateLimiter = ratelimit.None
		})
		return retry.AddWithMaxBackoffDelay(std, 5*time.Second)
	}))
}

// NewRetryer waits a fixed two seconds between attempts.
func NewRetryer() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = 5
		o.Backoff = retry.BackoffDelayerFunc(func(attempt int, err error) (time.Duration, error) { // want `fixed-sleep: retry.NewStandard waits a constant 2s between attempts`
			return 2 * time.Second, nil
		})
	})
}

// NewLinearRetryer grows the wait with the attempt, without jitter.
func NewLinearRetryer() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = 4
		o.Backoff = retry.BackoffDelayerFunc(func(attempt int, err error) (time.Duration, error) { // want `no-jitter: retry wait \(retry.BackoffDelayerFunc\(.*\)\) grows with the attempt but nothing random enters it`
			return time.Duration(attempt) * 500 * time.Millisecond, nil
		})
	})
}

// NewJitterRetryer uses the SDK's exponential jitter back-off.
func NewJitterRetryer() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = 5
		o.Backoff = retry.NewExponentialJitterBackoff(10 * time.Second)
	})
}

// NewEagerRetryer marks every error retryable.
func NewEagerRetryer() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) { // want `unclassified-retry: retry.NewStandard retries every error`
		o.Retryables = append(o.Retryables, retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
			return aws.TrueTernary
		}))
	})
}

type apiError interface{ ErrorCode() string }

// NewConflictRetryer adds one transient code of the service.
func NewConflictRetryer() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.Retryables = append(o.Retryables, retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
			var ae apiError
			if errors.As(err, &ae) && ae.ErrorCode() == "TransactionConflict" {
				return aws.TrueTernary
			}
			return aws.UnknownTernary
		}))
	})
}

// NewDeniedRetryer retries access denied, waiting for an IAM policy to
// propagate.
func NewDeniedRetryer() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) { // want `retry-permanent: retry.NewStandard retries AWS AccessDeniedException, which cannot succeed on retry`
		o.Retryables = append(o.Retryables, retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
			var ae apiError
			if errors.As(err, &ae) {
				switch ae.ErrorCode() {
				case "AccessDeniedException", "ThrottlingException":
					return aws.TrueTernary
				}
			}
			return aws.UnknownTernary
		}))
	})
}

// WithCodes adds throttling codes of a service.
func WithCodes() aws.Retryer {
	return retry.AddWithErrorCodes(retry.NewStandard(), "ThrottlingException", "RequestLimitExceeded")
}

// WithMissingCode adds a not-found code, which no retry turns up.
func WithMissingCode() aws.Retryer {
	return retry.AddWithErrorCodes(retry.NewStandard(), "ThrottlingException", "ResourceNotFoundException") // want `retry-permanent: retry.AddWithErrorCodes retries AWS ResourceNotFoundException`
}

// Adaptive builds an adaptive retryer with more standard attempts.
func Adaptive() aws.Retryer {
	return retry.NewAdaptiveMode(func(o *retry.AdaptiveModeOptions) {
		o.StandardOptions = append(o.StandardOptions, func(so *retry.StandardOptions) {
			so.MaxAttempts = 5
		})
	})
}

// NoRetries turns retries off.
func NoRetries(ctx context.Context) (aws.Config, error) {
	return config.LoadDefaultConfig(ctx, config.WithRetryer(func() aws.Retryer {
		return retry.AddWithMaxAttempts(aws.NopRetryer{}, 3)
	}))
}

// Override sets a retryer on an already loaded configuration.
func Override(cfg aws.Config) aws.Config {
	cfg.Retryer = func() aws.Retryer {
		return retry.AddWithMaxAttempts(retry.NewStandard(), 8)
	}
	return cfg
}
