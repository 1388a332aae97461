// Package strategy is a test stand-in for github.com/Rican7/retry/strategy
// (v0.3.1).
package strategy

import (
	"time"

	"github.com/Rican7/retry/backoff"
	"github.com/Rican7/retry/jitter"
)

type Strategy func(attempt uint) bool

func Limit(attemptLimit uint) Strategy {
	return func(attempt uint) bool { return attempt < attemptLimit }
}

func Delay(duration time.Duration) Strategy {
	return func(attempt uint) bool {
		if attempt == 0 {
			time.Sleep(duration)
		}
		return true
	}
}

func Wait(durations ...time.Duration) Strategy {
	return func(attempt uint) bool {
		if attempt > 0 && len(durations) > 0 {
			i := min(int(attempt-1), len(durations)-1)
			time.Sleep(durations[i])
		}
		return true
	}
}

func Backoff(algorithm backoff.Algorithm) Strategy {
	return BackoffWithJitter(algorithm, func(d time.Duration) time.Duration { return d })
}

func BackoffWithJitter(algorithm backoff.Algorithm, transformation jitter.Transformation) Strategy {
	return func(attempt uint) bool {
		if attempt > 0 {
			time.Sleep(transformation(algorithm(attempt)))
		}
		return true
	}
}
