package fixes

import (
	"context"
	. "time"
)

// A dot import of time: the fix calls NewTimer unqualified.
func Dot(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		if err := try(ctx); err == nil {
			return nil
		}
		Sleep(Second) // want `sleep-ignores-context`
	}
	return errTransient
}
