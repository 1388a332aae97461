// Package client is a test stand-in for go.temporal.io/sdk/client
// (v1.51.0).
package client

import (
	"context"

	"go.temporal.io/sdk/internal"
)

type (
	StartWorkflowOptions = internal.StartWorkflowOptions
	WorkflowRun          = internal.WorkflowRun
)

type Options struct {
	HostPort  string
	Namespace string
}

type Client interface {
	ExecuteWorkflow(ctx context.Context, options StartWorkflowOptions, workflow any, args ...any) (WorkflowRun, error)
	SignalWithStartWorkflow(ctx context.Context, workflowID string, signalName string, signalArg any,
		options StartWorkflowOptions, workflow any, workflowArgs ...any) (WorkflowRun, error)
	Close()
}

func Dial(options Options) (Client, error) { return nil, nil }
