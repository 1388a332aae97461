// Package policy holds retry predicates for callers elsewhere.
package policy

import (
	"context"
	"errors"
)

// Always retries whatever went wrong.
func Always(error) bool { return true }

// Budget retries while a budget lasts, whatever the error.
type Budget struct{ left int }

func (b *Budget) Allow(err error) bool {
	b.left--
	return b.left >= 0
}

var ErrThrottled = errors.New("throttled")

// Transient looks at the error.
func Transient(err error) bool {
	return errors.Is(err, ErrThrottled) || errors.Is(err, context.DeadlineExceeded)
}
