// Package retrypolicy is a test stand-in for
// github.com/failsafe-go/failsafe-go/retrypolicy (v0.9.8): by default 2
// retries (3 attempts), no delay, every error handled.
package retrypolicy

import (
	"time"

	"github.com/failsafe-go/failsafe-go"
)

const defaultMaxRetries = 2

type RetryPolicy[R any] interface {
	failsafe.Policy[R]
}

type Builder[R any] interface {
	failsafe.FailurePolicyBuilder[Builder[R], R]
	failsafe.DelayablePolicyBuilder[Builder[R], R]

	AbortOnResult(result R) Builder[R]
	AbortOnErrors(errs ...error) Builder[R]
	AbortOnErrorTypes(errs ...any) Builder[R]
	AbortIf(predicate func(R, error) bool) Builder[R]
	ReturnLastFailure() Builder[R]
	WithMaxAttempts(maxAttempts int) Builder[R]
	WithMaxRetries(maxRetries int) Builder[R]
	WithMaxDuration(maxDuration time.Duration) Builder[R]
	WithBackoff(delay time.Duration, maxDelay time.Duration) Builder[R]
	WithBackoffFactor(delay time.Duration, maxDelay time.Duration, delayFactor float64) Builder[R]
	WithRandomDelay(delayMin time.Duration, delayMax time.Duration) Builder[R]
	WithJitter(jitter time.Duration) Builder[R]
	WithJitterFactor(jitterFactor float64) Builder[R]
	OnAbort(listener func(failsafe.ExecutionEvent[R])) Builder[R]
	OnRetryScheduled(listener func(failsafe.ExecutionScheduledEvent[R])) Builder[R]
	OnRetry(listener func(failsafe.ExecutionEvent[R])) Builder[R]
	OnRetriesExceeded(listener func(failsafe.ExecutionEvent[R])) Builder[R]
	Build() RetryPolicy[R]
}

type config[R any] struct {
	maxRetries int
}

type retryPolicy[R any] struct{ config[R] }

func (rp *retryPolicy[R]) ToExecutor(_ R) any { return rp }

func NewWithDefaults[R any]() RetryPolicy[R] { return NewBuilder[R]().Build() }

func NewBuilder[R any]() Builder[R] { return &config[R]{maxRetries: defaultMaxRetries} }

func (c *config[R]) HandleErrors(errs ...error) Builder[R]                       { return c }
func (c *config[R]) HandleErrorTypes(errs ...any) Builder[R]                     { return c }
func (c *config[R]) HandleResult(result R) Builder[R]                            { return c }
func (c *config[R]) HandleIf(predicate func(R, error) bool) Builder[R]           { return c }
func (c *config[R]) OnSuccess(func(failsafe.ExecutionEvent[R])) Builder[R]       { return c }
func (c *config[R]) OnFailure(func(failsafe.ExecutionEvent[R])) Builder[R]       { return c }
func (c *config[R]) WithDelay(delay time.Duration) Builder[R]                    { return c }
func (c *config[R]) WithDelayFunc(delayFunc failsafe.DelayFunc[R]) Builder[R]    { return c }
func (c *config[R]) AbortOnResult(result R) Builder[R]                           { return c }
func (c *config[R]) AbortOnErrors(errs ...error) Builder[R]                      { return c }
func (c *config[R]) AbortOnErrorTypes(errs ...any) Builder[R]                    { return c }
func (c *config[R]) AbortIf(predicate func(R, error) bool) Builder[R]            { return c }
func (c *config[R]) ReturnLastFailure() Builder[R]                               { return c }
func (c *config[R]) WithMaxAttempts(maxAttempts int) Builder[R]                  { return c }
func (c *config[R]) WithMaxRetries(maxRetries int) Builder[R]                    { return c }
func (c *config[R]) WithMaxDuration(maxDuration time.Duration) Builder[R]        { return c }
func (c *config[R]) WithBackoff(delay, maxDelay time.Duration) Builder[R]        { return c }
func (c *config[R]) WithBackoffFactor(d, m time.Duration, f float64) Builder[R]  { return c }
func (c *config[R]) WithRandomDelay(delayMin, delayMax time.Duration) Builder[R] { return c }
func (c *config[R]) WithJitter(jitter time.Duration) Builder[R]                  { return c }
func (c *config[R]) WithJitterFactor(jitterFactor float64) Builder[R]            { return c }
func (c *config[R]) OnAbort(func(failsafe.ExecutionEvent[R])) Builder[R]         { return c }
func (c *config[R]) OnRetryScheduled(func(failsafe.ExecutionScheduledEvent[R])) Builder[R] {
	return c
}
func (c *config[R]) OnRetry(func(failsafe.ExecutionEvent[R])) Builder[R]           { return c }
func (c *config[R]) OnRetriesExceeded(func(failsafe.ExecutionEvent[R])) Builder[R] { return c }
func (c *config[R]) Build() RetryPolicy[R]                                         { return &retryPolicy[R]{*c} }
