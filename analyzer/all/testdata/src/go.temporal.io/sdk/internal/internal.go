// Package internal is a test stand-in for go.temporal.io/sdk/internal
// (v1.51.0), where the option and policy types the public packages alias
// are declared.
package internal

import (
	"context"
	"time"
)

type RetryPolicy struct {
	InitialInterval        time.Duration
	BackoffCoefficient     float64
	MaximumInterval        time.Duration
	MaximumAttempts        int32
	NonRetryableErrorTypes []string
}

type ActivityOptions struct {
	TaskQueue              string
	ScheduleToCloseTimeout time.Duration
	ScheduleToStartTimeout time.Duration
	StartToCloseTimeout    time.Duration
	HeartbeatTimeout       time.Duration
	WaitForCancellation    bool
	ActivityID             string
	RetryPolicy            *RetryPolicy
	DisableEagerExecution  bool
	Summary                string
}

type LocalActivityOptions struct {
	ScheduleToCloseTimeout time.Duration
	StartToCloseTimeout    time.Duration
	RetryPolicy            *RetryPolicy
	Summary                string
}

type ChildWorkflowOptions struct {
	Namespace                string
	WorkflowID               string
	TaskQueue                string
	WorkflowExecutionTimeout time.Duration
	WorkflowRunTimeout       time.Duration
	WorkflowTaskTimeout      time.Duration
	WaitForCancellation      bool
	RetryPolicy              *RetryPolicy
}

type StartWorkflowOptions struct {
	ID                       string
	TaskQueue                string
	WorkflowExecutionTimeout time.Duration
	WorkflowRunTimeout       time.Duration
	WorkflowTaskTimeout      time.Duration
	RetryPolicy              *RetryPolicy
}

type Context interface {
	Deadline() (deadline time.Time, ok bool)
	Done() Channel
	Err() error
	Value(key interface{}) interface{}
}

type Channel interface {
	Receive(ctx Context, valuePtr interface{}) (more bool)
}

type Future interface {
	Get(ctx Context, valuePtr interface{}) error
	IsReady() bool
}

type ChildWorkflowFuture interface {
	Future
}

type WorkflowRun interface {
	GetID() string
	GetRunID() string
	Get(ctx context.Context, valuePtr interface{}) error
}

func WithActivityOptions(ctx Context, options ActivityOptions) Context           { return ctx }
func WithLocalActivityOptions(ctx Context, options LocalActivityOptions) Context { return ctx }
func WithChildWorkflowOptions(ctx Context, cwo ChildWorkflowOptions) Context     { return ctx }

func ExecuteActivity(ctx Context, activity any, args ...any) Future { return nil }

func ExecuteLocalActivity(ctx Context, activity any, args ...any) Future { return nil }

func ExecuteChildWorkflow(ctx Context, childWorkflow any, args ...any) ChildWorkflowFuture {
	return nil
}
