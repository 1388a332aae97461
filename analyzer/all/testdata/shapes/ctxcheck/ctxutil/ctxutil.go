// Package ctxutil has small helpers over contexts.
package ctxutil

import "context"

// Canceled reports whether ctx has ended, without waiting.
func Canceled(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return true
	default:
		return false
	}
}

// Alive reports whether ctx still runs.
func Alive(ctx context.Context) bool { return ctx.Err() == nil }

// Logged reports whether the context ended, and logs it: it does more
// than ask the context.
func Logged(ctx context.Context, log func(string)) bool {
	if ctx.Err() != nil {
		log("context ended")
		return true
	}
	return false
}
