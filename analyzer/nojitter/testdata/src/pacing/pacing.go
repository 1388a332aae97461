// Package pacing computes waits for callers in other packages.
package pacing

import (
	"math/rand/v2"
	"time"
)

// Exponential doubles base with every attempt, up to max.
func Exponential(base, max time.Duration, attempt int) time.Duration {
	d := base << attempt
	if d > max || d <= 0 {
		d = max
	}
	return d
}

// Jittered is Exponential with full jitter.
func Jittered(base, max time.Duration, attempt int) time.Duration {
	return time.Duration(rand.Int64N(int64(Exponential(base, max, attempt)) + 1))
}

// Linear grows by base with every attempt, without a bound.
func Linear(base time.Duration, attempt int) time.Duration {
	return base * time.Duration(attempt+1)
}

// Fixed is the same for every attempt.
func Fixed(time.Duration, int) time.Duration { return 250 * time.Millisecond }

// Stretch waits when the error is worth a retry and returns the next wait,
// a quarter longer each time, up to max.
func Stretch(d, max time.Duration, err error) time.Duration {
	if err != nil {
		if d < max {
			d += d / 4
			if d > max {
				d = max
			}
		}
		time.Sleep(d)
	}
	return d
}
