// Package flows holds Temporal workflows and the client that starts
// them; the retries are the Temporal server's, configured by the
// options' RetryPolicy.
package flows

import (
	"context"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

func Charge(ctx context.Context, id string) error { return nil }

func Ship(ctx context.Context, id string) error { return nil }

// Order bounds its activity's retries by attempts.
func Order(ctx workflow.Context, id string) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    time.Second,
			BackoffCoefficient: 2,
			MaximumAttempts:    5,
		},
	})
	return workflow.ExecuteActivity(ctx, Charge, id).Get(ctx, nil)
}

// Fulfil sets no RetryPolicy: the server's default retries without limit.
func Fulfil(ctx workflow.Context, id string) error {
	ao := workflow.ActivityOptions{StartToCloseTimeout: time.Minute}
	ctx = workflow.WithActivityOptions(ctx, ao) // want `unbounded-retry: .*MaximumAttempts`
	return workflow.ExecuteActivity(ctx, Ship, id).Get(ctx, nil)
}

// Deliver bounds the unlimited attempts with a schedule-to-close timeout.
func Deliver(ctx workflow.Context, id string) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    time.Minute,
		ScheduleToCloseTimeout: time.Hour,
	})
	return workflow.ExecuteActivity(ctx, Ship, id).Get(ctx, nil)
}

// Poll waits a constant interval, forever.
func Poll(ctx workflow.Context, id string) error {
	rp := &temporal.RetryPolicy{ // want `fixed-sleep: .*BackoffCoefficient`
		InitialInterval:    5 * time.Second,
		BackoffCoefficient: 1.0,
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute, RetryPolicy: rp}) // want `unbounded-retry: `
	return workflow.ExecuteActivity(ctx, Charge, id).Get(ctx, nil)
}

// Audit disables retries.
func Audit(ctx workflow.Context, id string) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	return workflow.ExecuteActivity(ctx, Charge, id).Get(ctx, nil)
}

// Local activities always have a deadline; their wait may still be fixed.
func Local(ctx workflow.Context, id string) error {
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 5 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{BackoffCoefficient: 1}, // want `fixed-sleep: `
	})
	return workflow.ExecuteLocalActivity(ctx, Charge, id).Get(ctx, nil)
}

// Parent starts a child that is not retried, and one retried forever.
func Parent(ctx workflow.Context, id string) error {
	once := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "once-" + id})
	if err := workflow.ExecuteChildWorkflow(once, Order, id).Get(once, nil); err != nil {
		return err
	}
	forever := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{ // want `unbounded-retry: .*WorkflowExecutionTimeout`
		WorkflowID:  "forever-" + id,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second},
	})
	return workflow.ExecuteChildWorkflow(forever, Order, id).Get(forever, nil)
}

// Start starts workflows from a client.
func Start(ctx context.Context, c client.Client, id string) error {
	if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: "orders"}, Order, id); err != nil {
		return err
	}
	opts := client.StartWorkflowOptions{
		ID:          "retry-" + id,
		TaskQueue:   "orders",
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 0},
	}
	if _, err := c.ExecuteWorkflow(ctx, opts, Order, id); err != nil { // want `unbounded-retry: `
		return err
	}
	bounded := client.StartWorkflowOptions{
		ID:                       "bounded-" + id,
		TaskQueue:                "orders",
		WorkflowExecutionTimeout: time.Hour,
		RetryPolicy:              &temporal.RetryPolicy{BackoffCoefficient: 1, InitialInterval: 10 * time.Second}, // want `fixed-sleep: `
	}
	_, err := c.ExecuteWorkflow(ctx, bounded, Order, id)
	return err
}
