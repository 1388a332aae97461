// Package jitter is a test stand-in for github.com/Rican7/retry/jitter
// (v0.3.1).
package jitter

import (
	"math/rand"
	"time"
)

type Transformation func(duration time.Duration) time.Duration

func Full(generator *rand.Rand) Transformation {
	return func(d time.Duration) time.Duration { return time.Duration(rand.Int63n(int64(d))) }
}

func Equal(generator *rand.Rand) Transformation {
	return func(d time.Duration) time.Duration { return d/2 + time.Duration(rand.Int63n(int64(d))/2) }
}

func Deviation(generator *rand.Rand, factor float64) Transformation {
	return func(d time.Duration) time.Duration { return d + time.Duration(factor*rand.Float64()*float64(d)) }
}

func NormalDistribution(generator *rand.Rand, standardDeviation float64) Transformation {
	return func(d time.Duration) time.Duration {
		return time.Duration(rand.NormFloat64()*standardDeviation + float64(d))
	}
}
