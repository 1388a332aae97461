// Package multiply computes, for every triggering event (a root of the
// retry topology) and every component it reaches, the worst-case number of
// executions of that component, by dynamic programming over the graph —
// never by enumerating paths. Each result keeps a witness path and its
// formula in the notation (2+1)×(3+1) = 12.
//
// "Attempts" of a component means executions of that component per
// triggering event: for an app run by a Cloud Run job it counts container
// starts (task count × (maxRetries+1) per job execution); for a job, job
// executions; for a workflow, workflow executions; for a push target,
// deliveries that reach it.
package multiply

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Count is a number of executions: finite (saturating at MaxInt64) or
// unbounded.
type Count struct {
	N         int64 // valid when !Unbounded
	Unbounded bool
}

// One is the count of a root.
var One = Count{N: 1}

// Saturated reports whether the finite count hit the int64 ceiling.
func (c Count) Saturated() bool { return !c.Unbounded && c.N == math.MaxInt64 }

// Mul multiplies with saturation.
func (c Count) Mul(d Count) Count {
	if c.Unbounded || d.Unbounded {
		return Count{Unbounded: true}
	}
	return Count{N: satMul(c.N, d.N)}
}

// Less orders counts: unbounded is the largest.
func (c Count) Less(d Count) bool {
	if c.Unbounded {
		return false
	}
	if d.Unbounded {
		return true
	}
	return c.N < d.N
}

func satMul(a, b int64) int64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(lo)
}

// String prints the count: "12", "≥ 9223372036854775807", "unbounded".
func (c Count) String() string {
	switch {
	case c.Unbounded:
		return "unbounded"
	case c.Saturated():
		return "≥ " + strconv.FormatInt(c.N, 10)
	}
	return strconv.FormatInt(c.N, 10)
}

// Group formats n with thousands separators: 1008 → "1,008".
func Group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
