// Package backoff is a test stand-in for github.com/Rican7/retry/backoff
// (v0.3.1): algorithms that grow without a cap.
package backoff

import (
	"math"
	"time"
)

type Algorithm func(attempt uint) time.Duration

func Incremental(initial, increment time.Duration) Algorithm {
	return func(attempt uint) time.Duration { return initial + increment*time.Duration(attempt) }
}

func Linear(factor time.Duration) Algorithm {
	return func(attempt uint) time.Duration { return factor * time.Duration(attempt) }
}

func Exponential(factor time.Duration, base float64) Algorithm {
	return func(attempt uint) time.Duration {
		return factor * time.Duration(math.Pow(base, float64(attempt)))
	}
}

func BinaryExponential(factor time.Duration) Algorithm { return Exponential(factor, 2) }

func Fibonacci(factor time.Duration) Algorithm {
	return func(attempt uint) time.Duration { return factor * time.Duration(fib(attempt)) }
}

func fib(n uint) uint {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}
