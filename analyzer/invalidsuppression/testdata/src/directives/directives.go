// Package directives holds suppression directives, good and bad, on retry
// loops and elsewhere: every bad one carries a want comment, every good
// one and every comment that is no directive must stay silent.
package directives

import (
	"errors"
	"time"
)

var errBusy = errors.New("busy")

func call() error { return errBusy }

// Bad: a misspelt rule, trailing the line, without a reason.
func trailingTypo() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		// want +1 `invalid-suppression: retrylint:ignore suppresses nothing: "no-jiter" is no rule \(did you mean no-jitter\?\) and it gives no reason; write //retrylint:ignore no-jitter REASON`
		time.Sleep(time.Second) //retrylint:ignore no-jiter
	}
	return err
}

// Bad: a misspelt rule, with a reason.
func typo() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		//retrylint:ignore fixed-slep the broker asks for one second // want `"fixed-slep" is no rule \(did you mean fixed-sleep\?\)`
		time.Sleep(time.Second)
	}
	return err
}

// Bad: the analyzer's name for the rule's.
func analyzerName() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		//retrylint:ignore fixedsleep the broker asks for one second // want `"fixedsleep" is no rule \(did you mean fixed-sleep\?\)`
		time.Sleep(time.Second)
	}
	return err
}

// Bad: a rule of the topology half.
func topologyRule() error {
	//retrylint:ignore job-max-retries the job is idempotent // want `"job-max-retries" is a topology rule, with no finding in Go code`
	return call()
}

// Bad: no reason.
func noReason() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		// want +1 `retrylint:ignore suppresses nothing: it gives no reason; write //retrylint:ignore fixed-sleep REASON`
		//retrylint:ignore fixed-sleep
		time.Sleep(time.Second)
	}
	return err
}

// Bad: no rule, no reason.
func bare() error {
	// want +1 `it names no rule and it gives no reason`
	//retrylint:ignore
	return call()
}

// Bad: a misspelt keyword.
func keyword() error {
	//retrylint-ignore fixed-sleep the broker asks for one second // want `"retrylint-ignore" is not retrylint:ignore, so it suppresses nothing`
	//retrylint:ignore:fixed-sleep the broker asks for one second // want `"retrylint:ignore:" is not retrylint:ignore`
	// Retrylint:ignore fixed-sleep the broker asks for one second // want `"Retrylint:ignore" is not retrylint:ignore`
	return call()
}

// Bad: a space after the comma ends the rule list.
func spacedList() error {
	//retrylint:ignore fixed-sleep, no-jitter the broker asks for one second // want `the rule list "fixed-sleep," has an empty name`
	return call()
}

// Bad in part: one name is known, the other misspelt.
func partly() error {
	//retrylint:ignore fixed-sleep,no-jiter the broker asks for one second // want `suppresses fixed-sleep only: "no-jiter" is no rule \(did you mean no-jitter\?\)`
	return call()
}

// Good: a rule and a reason.
func valid() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		//retrylint:ignore fixed-sleep the broker asks for exactly one second
		time.Sleep(time.Second)
	}
	return err
}

// Good: a trailing directive.
func trailing() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(time.Second) //retrylint:ignore fixed-sleep the broker asks for exactly one second
	}
	return err
}

// Good: several rules, a wildcard, a space after the marker, a tab.
func variants() error {
	//retrylint:ignore fixed-sleep,sleep-ignores-context the broker asks for exactly one second
	//retrylint:ignore all generated against a fake
	//retrylint:ignore retrylint generated against a fake
	// retrylint:ignore no-cap the server caps the wait
	//retrylint:ignore	nested-retry	the inner layer is off in production
	//retrylint:ignore invalid-suppression a directive may name this rule too
	return call()
}

// Good: comments that are no directives.
func remarks() error {
	//nolint:retrylint
	// retrylint ignores generated files
	// retrylint checks this package in CI
	/* retrylint:ignore in a block comment is no directive */
	// see retrylint:ignore in the README
	//nolint:errcheck // a linter of its own
	return call()
}
