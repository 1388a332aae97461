// Package job is the worker's unit of work.
package job

import (
	"context"

	"example.com/app/billing"
	"example.com/app/client"
	"example.com/app/retry"
)

// Run generates through the retry wrapper, around the client's own
// retries, then charges once.
func Run(ctx context.Context, c *client.Client, b *billing.Biller) error {
	if err := retry.Do(ctx, func() error { return c.Generate(ctx) }); err != nil {
		return err
	}
	return b.Charge(ctx)
}
