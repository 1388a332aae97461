// Package retry is a test stand-in for github.com/Rican7/retry (v0.3.1):
// Retry calls the action until it returns nil, asking every strategy
// before each attempt; without strategies it retries at once, forever.
package retry

import "github.com/Rican7/retry/strategy"

type Action func(attempt uint) error

func Retry(action Action, strategies ...strategy.Strategy) error {
	var err error
	for attempt := uint(0); (attempt == 0 || err != nil) && shouldAttempt(attempt, strategies...); attempt++ {
		err = action(attempt + 1)
	}
	return err
}

func shouldAttempt(attempt uint, strategies ...strategy.Strategy) bool {
	ok := true
	for i := 0; ok && i < len(strategies); i++ {
		ok = strategies[i](attempt)
	}
	return ok
}
