package report

import (
	"fmt"
	"io"
	"testing"

	"github.com/retrylint/retrylint/internal/growth"
	"github.com/retrylint/retrylint/model"
)

// longChains is what multiplying a row of n components gives: a chain per
// component, each keeping the ends of its path, its last factor and its
// formula's ends, as multiply reports them.
func longChains(n int) *model.Result {
	r := &model.Result{Version: 1}
	name := func(i int) string { return fmt.Sprintf("app-%05d", i) }
	for i := 1; i < n; i++ {
		path := []string{name(0)}
		for j := 1; j <= min(i, 4); j++ {
			path = append(path, name(j))
		}
		if i > 8 {
			path = append(path, model.Elision)
		}
		for j := max(i-3, 5); j <= i; j++ {
			path = append(path, name(j))
		}
		retries, attempts, total := 2, 3, int64(9223372036854775807)
		r.Chains = append(r.Chains, model.Chain{Root: name(0), Target: name(i), Path: path,
			Factors:        []model.Factor{{From: name(i - 1), To: name(i), Retries: &retries, Effective: true, Attempts: &attempts, File: "retrylint.yaml", Line: 7}},
			OmittedFactors: i - 1,
			Formula:        "(2+1)×(2+1)×(2+1)×(2+1)×… 29,991 more …×(2+1)×(2+1)×(2+1)×(2+1) = ≥ 9223372036854775807",
			Attempts:       &total})
	}
	return r
}

// TestJSONChainsLinear: writing the chains of n components costs O(n).
func TestJSONChainsLinear(t *testing.T) {
	growth.Linear(t, 2000, longChains, func(r *model.Result) {
		if err := WriteJSON(io.Discard, r); err != nil {
			t.Fatal(err)
		}
	})
}

type byteCounter struct{ n int }

func (c *byteCounter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

func benchmarkJSONChains(b *testing.B, n int) {
	r := longChains(n)
	b.ReportAllocs()
	size := 0
	for b.Loop() {
		c := &byteCounter{}
		if err := WriteJSON(c, r); err != nil {
			b.Fatal(err)
		}
		size = c.n
	}
	b.ReportMetric(float64(size), "json-bytes")
}

func BenchmarkJSONChains7500(b *testing.B)  { benchmarkJSONChains(b, 7500) }
func BenchmarkJSONChains30000(b *testing.B) { benchmarkJSONChains(b, 30000) }
