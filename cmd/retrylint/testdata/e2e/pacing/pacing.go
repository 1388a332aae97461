// Package pacing computes the waits of retry loops elsewhere.
package pacing

import "time"

// Exponential doubles base with every attempt, up to max.
func Exponential(base, max time.Duration, attempt int) time.Duration {
	d := base << attempt
	if d > max || d <= 0 {
		d = max
	}
	return d
}
