package fixes

import (
	"context"
	stdtime "time"
)

// time imported under another name: the fix uses that name.
func Alias(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		if err := try(ctx); err == nil {
			return nil
		}
		stdtime.Sleep(stdtime.Second) // want `sleep-ignores-context`
	}
	return errTransient
}
