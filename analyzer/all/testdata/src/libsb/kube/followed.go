package kube

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

// createCondition returns a condition that creates the pod and goes
// round on any failure.
func (c *Controller) createCondition(pod *Pod) wait.ConditionWithContextFunc {
	return func(ctx context.Context) (bool, error) {
		if _, err := c.pods.Create(ctx, pod); err != nil {
			return false, nil
		}
		return true, nil
	}
}

// EnsureCreatedBy polls with the condition of a helper.
func (c *Controller) EnsureCreatedBy(ctx context.Context, pod *Pod) error {
	return wait.PollUntilContextTimeout(ctx, 2*time.Second, time.Minute, true, c.createCondition(pod)) // want `fixed-sleep: wait.PollUntilContextTimeout waits a constant 2s between attempts` `unclassified-retry: wait.PollUntilContextTimeout retries every error`
}

// anyError is a retriable kept in a package variable: it accepts every
// error.
var anyError = func(error) bool { return true }

// UpdateAnyway retries whatever the update returns.
func (c *Controller) UpdateAnyway(ctx context.Context, pod *Pod) error {
	return retry.OnError(retry.DefaultBackoff, anyError, func() error { // want `unclassified-retry: retry.OnError retries every error`
		_, err := c.pods.Update(ctx, pod)
		return err
	})
}
