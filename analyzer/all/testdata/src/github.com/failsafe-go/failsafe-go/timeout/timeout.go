// Package timeout is a test stand-in for
// github.com/failsafe-go/failsafe-go/timeout (v0.9.8).
package timeout

import (
	"time"

	"github.com/failsafe-go/failsafe-go"
)

type Timeout[R any] interface {
	failsafe.Policy[R]
}

type Builder[R any] interface {
	OnTimeoutExceeded(listener func(event failsafe.ExecutionDoneEvent[R])) Builder[R]
	Build() Timeout[R]
}

type config[R any] struct{ timeLimit time.Duration }

func (c *config[R]) ToExecutor(_ R) any { return c }

func New[R any](timeLimit time.Duration) Timeout[R] { return NewBuilder[R](timeLimit).Build() }

func NewBuilder[R any](timeLimit time.Duration) Builder[R] { return &config[R]{timeLimit} }

func (c *config[R]) OnTimeoutExceeded(func(failsafe.ExecutionDoneEvent[R])) Builder[R] { return c }

func (c *config[R]) Build() Timeout[R] { return c }
