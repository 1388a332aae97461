// Package backoff is a test stand-in for github.com/jpillora/backoff
// (v1.1.0): Duration() returns Min×Factor^attempt, clamped to Max; zero
// fields default to Min 100ms, Max 10s, Factor 2; Jitter false.
package backoff

import (
	"math"
	"math/rand"
	"sync/atomic"
	"time"
)

type Backoff struct {
	attempt atomic.Uint64
	Factor  float64
	Jitter  bool
	Min     time.Duration
	Max     time.Duration
}

func (b *Backoff) Duration() time.Duration {
	return b.ForAttempt(float64(b.attempt.Add(1) - 1))
}

func (b *Backoff) ForAttempt(attempt float64) time.Duration {
	min, max, factor := b.Min, b.Max, b.Factor
	if min <= 0 {
		min = 100 * time.Millisecond
	}
	if max <= 0 {
		max = 10 * time.Second
	}
	if min >= max {
		return max
	}
	if factor <= 0 {
		factor = 2
	}
	durf := float64(min) * math.Pow(factor, attempt)
	if b.Jitter {
		durf = rand.Float64()*(durf-float64(min)) + float64(min)
	}
	return time.Duration(math.Min(durf, float64(max)))
}

func (b *Backoff) Reset() { b.attempt.Store(0) }

func (b *Backoff) Attempt() float64 { return float64(b.attempt.Load()) }

func (b *Backoff) Copy() *Backoff {
	return &Backoff{Factor: b.Factor, Jitter: b.Jitter, Min: b.Min, Max: b.Max}
}
