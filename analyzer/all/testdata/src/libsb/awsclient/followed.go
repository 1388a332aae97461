package awsclient

import (
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
)

// steadyBackoff is an option of the package that waits the same 2s
// every time.
func steadyBackoff(o *retry.StandardOptions) {
	o.Backoff = retry.BackoffDelayerFunc(func(attempt int, err error) (time.Duration, error) { // want `fixed-sleep: retry.NewStandard waits a constant 2s between attempts`
		return 2 * time.Second, nil
	})
}

// NewSteadyRetryer builds its retryer with the option.
func NewSteadyRetryer() aws.Retryer {
	return retry.NewStandard(steadyBackoff)
}

// retryAnything is a check kept in a package variable of the interface
// type: it retries every error.
var retryAnything retry.IsErrorRetryable = retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
	return aws.TrueTernary
})

// NewPersistentRetryer adds the check.
func NewPersistentRetryer() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) { // want `unclassified-retry: retry.NewStandard retries every error`
		o.Retryables = append(o.Retryables, retryAnything)
	})
}
