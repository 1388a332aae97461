// Package workflow is a test stand-in for go.temporal.io/sdk/workflow
// (v1.51.0).
package workflow

import "go.temporal.io/sdk/internal"

type (
	Context              = internal.Context
	Future               = internal.Future
	ChildWorkflowFuture  = internal.ChildWorkflowFuture
	ChildWorkflowOptions = internal.ChildWorkflowOptions
)

type ActivityOptions = internal.ActivityOptions

type LocalActivityOptions = internal.LocalActivityOptions

func WithActivityOptions(ctx Context, options ActivityOptions) Context {
	return internal.WithActivityOptions(ctx, options)
}

func WithLocalActivityOptions(ctx Context, options LocalActivityOptions) Context {
	return internal.WithLocalActivityOptions(ctx, options)
}

func WithChildOptions(ctx Context, cwo ChildWorkflowOptions) Context {
	return internal.WithChildWorkflowOptions(ctx, cwo)
}

func ExecuteActivity(ctx Context, activity any, args ...any) Future {
	return internal.ExecuteActivity(ctx, activity, args...)
}

func ExecuteLocalActivity(ctx Context, activity any, args ...any) Future {
	return internal.ExecuteLocalActivity(ctx, activity, args...)
}

func ExecuteChildWorkflow(ctx Context, childWorkflow any, args ...any) ChildWorkflowFuture {
	return internal.ExecuteChildWorkflow(ctx, childWorkflow, args...)
}
