// Package config is a stand-in for github.com/aws/aws-sdk-go-v2/config
// v1.33.18: loading the shared configuration with retry options.
package config

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// LoadOptions are discrete set of options that are valid for loading the
// configuration.
type LoadOptions struct {
	Region           string
	RetryMaxAttempts int
	RetryMode        aws.RetryMode
	Retryer          func() aws.Retryer
}

// LoadOptionsFunc is a type alias for LoadOptions functional option.
type LoadOptionsFunc func(*LoadOptions) error

// WithRegion sets the region.
func WithRegion(v string) LoadOptionsFunc {
	return func(o *LoadOptions) error { o.Region = v; return nil }
}

// WithRetryMaxAttempts sets RetryMaxAttempts; zero leaves the default.
// Ignored if WithRetryer is used.
func WithRetryMaxAttempts(v int) LoadOptionsFunc {
	return func(o *LoadOptions) error { o.RetryMaxAttempts = v; return nil }
}

// WithRetryMode sets RetryMode. Ignored if WithRetryer is used.
func WithRetryMode(v aws.RetryMode) LoadOptionsFunc {
	return func(o *LoadOptions) error { o.RetryMode = v; return nil }
}

// WithRetryer sets the function that provides a Retryer.
func WithRetryer(v func() aws.Retryer) LoadOptionsFunc {
	return func(o *LoadOptions) error { o.Retryer = v; return nil }
}

// LoadDefaultConfig reads the SDK's default external configurations, and
// populates an AWS Config with the values from the external configurations.
func LoadDefaultConfig(ctx context.Context, optFns ...func(*LoadOptions) error) (cfg aws.Config, err error) {
	var o LoadOptions
	for _, fn := range optFns {
		if err := fn(&o); err != nil {
			return aws.Config{}, err
		}
	}
	return aws.Config{Region: o.Region, RetryMaxAttempts: o.RetryMaxAttempts, RetryMode: o.RetryMode, Retryer: o.Retryer}, nil
}
