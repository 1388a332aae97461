// Package temporal is a test stand-in for go.temporal.io/sdk/temporal
// (v1.51.0).
package temporal

import "go.temporal.io/sdk/internal"

type RetryPolicy = internal.RetryPolicy
