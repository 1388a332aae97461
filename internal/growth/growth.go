// Package growth checks that the cost of a computation grows linearly with
// the size of its input: it measures the bytes allocated at size n and 4n
// and fails when the ratio is nearer the 16 of a quadratic than the 4 of a
// linear growth. Bytes allocated do not depend on the machine's speed or
// load, so the check holds on a busy CI runner.
package growth

import (
	"runtime"
	"testing"
	"time"
)

// MaxRatio is the largest ratio of allocations at 4n and n accepted as
// linear: 4 plus room for logarithmic factors and fixed costs.
const MaxRatio = 6.0

// Allocated returns the bytes f allocates.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Linear fails t unless run(4n) allocates at most MaxRatio times what
// run(n) does. setup builds the input of size n outside the measure.
func Linear[In any](t testing.TB, n int, setup func(n int) In, run func(In)) {
	t.Helper()
	small, large := setup(n), setup(4*n)
	a := Allocated(func() { run(small) })
	b := Allocated(func() { run(large) })
	ratio := float64(b) / float64(max(a, 1))
	t.Logf("n=%d: %d bytes; 4n=%d: %d bytes; ratio %.2f", n, a, 4*n, b, ratio)
	if ratio > MaxRatio {
		t.Errorf("allocations grow %.1f× from n=%d to 4n=%d (%d → %d bytes): not linear (want ≤ %.0f×)", ratio, n, 4*n, a, b, MaxRatio)
	}
}

// MaxTimeRatio is the largest ratio of times at 4n and n accepted as
// linear: halfway, on a log scale, between linear (4) and quadratic (16),
// for the noise of a shared machine.
const MaxTimeRatio = 8.0

// LinearTime fails t unless run(4n) takes at most MaxTimeRatio times what
// run(n) does. The two are timed in turns, ten rounds, and each keeps its
// best: a busy machine slows both alike, and the best is the least
// disturbed. Use it where the cost is time, not allocations (a matcher
// that backtracks allocates nothing).
func LinearTime[In any](t testing.TB, n int, setup func(n int) In, run func(In)) {
	t.Helper()
	small, large := setup(n), setup(4*n)
	var a, b time.Duration
	for range 10 {
		a = keepBest(a, sample(func() { run(small) }))
		b = keepBest(b, sample(func() { run(large) }))
	}
	ratio := float64(b) / float64(max(a, 1))
	t.Logf("n=%d: %v; 4n=%d: %v; ratio %.2f", n, a, 4*n, b, ratio)
	if ratio > MaxTimeRatio {
		t.Errorf("time grows %.1f× from n=%d to 4n=%d (%v → %v): not linear (want ≤ %.0f×)", ratio, n, 4*n, a, b, MaxTimeRatio)
	}
}

// sample is the time of one run of f, averaged over as many runs as take
// two milliseconds.
func sample(f func()) time.Duration {
	reps := 0
	start := time.Now()
	for time.Since(start) < 2*time.Millisecond || reps == 0 {
		f()
		reps++
	}
	return time.Since(start) / time.Duration(reps)
}

func keepBest(best, d time.Duration) time.Duration {
	if best == 0 || d < best {
		return d
	}
	return best
}
