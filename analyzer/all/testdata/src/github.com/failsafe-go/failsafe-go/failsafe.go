// Package failsafe is a test stand-in for github.com/failsafe-go/failsafe-go
// (v0.9.8): With(policies...) builds an Executor whose Run and Get run a
// function through the policies, the first policy outermost.
package failsafe

import (
	"context"
	"time"
)

type Policy[R any] interface {
	ToExecutor(typeToken R) any
}

type ExecutionAttempt[R any] interface {
	LastResult() R
	LastError() error
	Attempts() int
	Retries() int
}

type Execution[R any] interface {
	ExecutionAttempt[R]
	Context() context.Context
	Canceled() <-chan struct{}
}

type ExecutionEvent[R any] struct {
	ExecutionAttempt[R]
}

type ExecutionScheduledEvent[R any] struct {
	ExecutionAttempt[R]
	Delay time.Duration
}

type ExecutionDoneEvent[R any] struct {
	Result R
	Error  error
}

type FailurePolicyBuilder[S any, R any] interface {
	HandleErrors(errs ...error) S
	HandleErrorTypes(errs ...any) S
	HandleResult(result R) S
	HandleIf(predicate func(R, error) bool) S
	OnSuccess(listener func(ExecutionEvent[R])) S
	OnFailure(listener func(ExecutionEvent[R])) S
}

type DelayFunc[R any] func(exec ExecutionAttempt[R]) time.Duration

type DelayablePolicyBuilder[S any, R any] interface {
	WithDelay(delay time.Duration) S
	WithDelayFunc(delayFunc DelayFunc[R]) S
}

type Executor[R any] interface {
	Compose(innerPolicy Policy[R]) Executor[R]
	Context() context.Context
	WithContext(ctx context.Context) Executor[R]
	OnDone(listener func(ExecutionDoneEvent[R])) Executor[R]
	OnSuccess(listener func(ExecutionDoneEvent[R])) Executor[R]
	OnFailure(listener func(ExecutionDoneEvent[R])) Executor[R]
	Run(fn func() error) error
	RunWithExecution(fn func(exec Execution[R]) error) error
	Get(fn func() (R, error)) (R, error)
	GetWithExecution(fn func(exec Execution[R]) (R, error)) (R, error)
}

type executor[R any] struct {
	policies []Policy[R]
	ctx      context.Context
}

func With[R any](policies ...Policy[R]) Executor[R] {
	return &executor[R]{policies: policies, ctx: context.Background()}
}

func (e *executor[R]) Compose(innerPolicy Policy[R]) Executor[R] {
	e.policies = append(e.policies, innerPolicy)
	return e
}

func (e *executor[R]) Context() context.Context { return e.ctx }

func (e *executor[R]) WithContext(ctx context.Context) Executor[R] {
	c := *e
	if ctx != nil {
		c.ctx = ctx
	}
	return &c
}

func (e *executor[R]) OnDone(func(ExecutionDoneEvent[R])) Executor[R]    { return e }
func (e *executor[R]) OnSuccess(func(ExecutionDoneEvent[R])) Executor[R] { return e }
func (e *executor[R]) OnFailure(func(ExecutionDoneEvent[R])) Executor[R] { return e }

func (e *executor[R]) Run(fn func() error) error { return fn() }

func (e *executor[R]) RunWithExecution(fn func(exec Execution[R]) error) error { return fn(nil) }

func (e *executor[R]) Get(fn func() (R, error)) (R, error) { return fn() }

func (e *executor[R]) GetWithExecution(fn func(exec Execution[R]) (R, error)) (R, error) {
	return fn(nil)
}
