// Package growth checks that the cost of a computation grows linearly with
// the size of its input: it measures the bytes allocated at size n and 4n
// and fails when the ratio is nearer the 16 of a quadratic than the 4 of a
// linear growth. Bytes allocated do not depend on the machine's speed or
// load, so the check holds on a busy CI runner.
package growth

import (
	"runtime"
	"testing"
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
