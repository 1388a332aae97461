// Package paced waits with a delay another package computes.
package paced

import (
	"errors"
	"time"

	"example.com/e2e/pacing"
)

var errBusy = errors.New("busy")

func send() error { return errBusy }

// Send backs off without jitter, through pacing.Exponential.
func Send() error {
	var err error
	for attempt := range 8 {
		if err = send(); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(pacing.Exponential(100*time.Millisecond, 10*time.Second, attempt))
	}
	return err
}
