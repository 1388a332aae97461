// Package util polls a condition once every interval its caller gives,
// going round on the condition's errors too, until a timeout.
package util

import (
	"fmt"
	"time"
)

// WaitFor polls f once every interval, up to timeout; an error of f is
// kept for the message and polled again.
func WaitFor(timeout, interval time.Duration, f func() (bool, error)) error {
	var lastErr error
	deadline := time.After(timeout)
	for {
		select {
		case <-deadline:
			return fmt.Errorf("time limit exceeded, last error: %v", lastErr)
		default:
		}
		stop, err := f()
		if stop {
			return nil
		}
		if err != nil {
			lastErr = err
		}
		time.Sleep(interval)
	}
}
