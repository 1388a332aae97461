// Package fixes holds retry loops whose time.Sleep a fix must replace
// without breaking the build.
package fixes

import (
	"context"
	"errors"
	"time"
)

var errTransient = errors.New("transient")

func try(ctx context.Context) error { return errTransient }

// A timer declared later in the same block: the fix's timer takes
// another name.
func Later(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		if err := try(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `sleep-ignores-context`
		timer := attempt
		_ = timer
	}
	return errTransient
}

// The sleep is the init statement of an if: no statement list to put a
// select in, so no fix.
func IfInit(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		if err := try(ctx); err == nil {
			return nil
		}
		if time.Sleep(time.Second); attempt > 1 { // want `sleep-ignores-context`
			continue
		}
	}
	return errTransient
}

// A generic result: its zero value is *new(T), not nil.
func Do[T any](ctx context.Context, f func() (T, error)) (T, error) {
	for attempt := 0; attempt < 3; attempt++ {
		if v, err := f(); err == nil {
			return v, nil
		}
		time.Sleep(time.Second) // want `sleep-ignores-context`
	}
	var zero T
	return zero, errTransient
}

// A result of a generic type instantiated with a type parameter.
type Pair[T any] struct{ A, B T }

func DoPair[T any](ctx context.Context, f func() (Pair[T], error)) (Pair[T], error) {
	for attempt := 0; attempt < 3; attempt++ {
		if v, err := f(); err == nil {
			return v, nil
		}
		time.Sleep(time.Second) // want `sleep-ignores-context`
	}
	return Pair[T]{}, errTransient
}
