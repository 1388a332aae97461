// Package labelled holds labelled retry loops: each is one loop, reported
// once, however it goes round — by continue, by goto to its label, or
// both.
package labelled

import (
	"errors"
	"time"
)

var errBusy = errors.New("busy")

func dial() error  { return errBusy }
func greet() error { return nil }

// Both goes round by continue after a failed dial and by goto after a
// failed greeting: one loop, reported at its for.
func Both() error {
retry:
	for { // want `unbounded-retry: retry loop has no attempt limit`
		if err := dial(); err != nil {
			time.Sleep(time.Second)
			continue
		}
		if err := greet(); err != nil {
			time.Sleep(time.Second)
			goto retry
		}
		return nil
	}
}

// GotoOnly goes round by goto alone: the loop is the label's.
func GotoOnly() error {
again: // want `unbounded-retry: retry loop has no attempt limit`
	for {
		err := dial()
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
		goto again
	}
}

// ContinueLabel goes round by continue to its label: one loop.
func ContinueLabel() error {
outer:
	for { // want `unbounded-retry: retry loop has no attempt limit`
		for {
			if err := dial(); err != nil {
				time.Sleep(time.Second)
				continue outer
			}
			return nil
		}
	}
}

// Bounded stops after three attempts either way: nothing to report.
func Bounded() error {
	tries := 0
retry:
	for tries < 3 {
		tries++
		if err := dial(); err != nil {
			time.Sleep(time.Second)
			continue
		}
		if err := greet(); err != nil {
			time.Sleep(time.Second)
			goto retry
		}
		return nil
	}
	return errBusy
}

// Restarts counts its attempts in the for statement, which the goto runs
// again from its init: the goto's way round is never counted.
func Restarts() error {
retry:
	for i := 0; i < 3; i++ { // want `unbounded-retry: retry loop has no attempt limit`
		if err := dial(); err != nil {
			time.Sleep(time.Second)
			continue
		}
		if err := greet(); err != nil {
			time.Sleep(time.Second)
			goto retry
		}
		return nil
	}
	return errBusy
}
