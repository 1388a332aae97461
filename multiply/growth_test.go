package multiply

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/growth"
	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

// line builds n apps in a row, each calling the next with 2 retries on any
// failure: the longest path a graph of n components can have.
func line(n int) *topology.Graph {
	comps := make([]*topology.Component, n)
	var edges []*topology.Edge
	for i := range comps {
		comps[i] = &topology.Component{Name: fmt.Sprintf("app-%05d", i), Kind: topology.KindApp}
		if i > 0 {
			call := &topology.Call{To: comps[i].Name, Kind: topology.EdgeCall, Retries: 2,
				Predicate: topology.Predicate{Any: true, Known: true}}
			edges = append(edges, &topology.Edge{From: comps[i-1], To: comps[i], Call: call})
		}
	}
	return topology.NewGraph(comps, edges)
}

// chainsJSON multiplies g and writes its chains as the JSON report does.
func chainsJSON(g *topology.Graph) int {
	res := Compute(g)
	out := &model.Result{Version: 1}
	for _, c := range res.Chains {
		out.Chains = append(out.Chains, c.Report())
	}
	w := &countWriter{}
	// One line a chain, as the JSON writer writes them.
	enc := json.NewEncoder(w)
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
	return w.n
}

type countWriter struct{ n int }

func (w *countWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)

func benchmarkLine(b *testing.B, n int) {
	g := line(n)
	b.ReportAllocs()
	size := 0
	for b.Loop() {
		size = chainsJSON(g)
	}
	b.ReportMetric(float64(size), "json-bytes")
}

func BenchmarkChainLine7500(b *testing.B)  { benchmarkLine(b, 7500) }
func BenchmarkChainLine30000(b *testing.B) { benchmarkLine(b, 30000) }

// TestChainsLinear: the chains of a path of n components, with their
// witness paths and formulas, cost O(n) to compute and to write.
func TestChainsLinear(t *testing.T) {
	growth.Linear(t, 2000, line, func(g *topology.Graph) { chainsJSON(g) })
}

// TestLongChainKeepsItsEnds: a long witness path keeps its first and last
// components and counts the terms it leaves out.
func TestLongChainKeepsItsEnds(t *testing.T) {
	g := line(40)
	res := Compute(g)
	w := res.Worst[g.Component("app-00039")]
	if got := strings.Join(w.Path(), " "); !strings.HasPrefix(got, "app-00000 app-00001") || !strings.HasSuffix(got, "app-00038 app-00039") || !strings.Contains(got, model.Elision) || len(w.Path()) != 2*PathEnds+2 {
		t.Errorf("path = %s", got)
	}
	if got, want := w.Formula(), "(2+1)×(2+1)×(2+1)×(2+1)×… 31 more …×(2+1)×(2+1)×(2+1)×(2+1) = 4052555153018976267"; got != want {
		t.Errorf("formula = %s\nwant      %s", got, want)
	}
	rc := w.Report()
	if len(rc.Factors) != 1 || rc.OmittedFactors != 38 || rc.Factors[len(rc.Factors)-1].To != "app-00039" {
		t.Errorf("report keeps %d factors, omits %d, last %+v", len(rc.Factors), rc.OmittedFactors, rc.Factors[len(rc.Factors)-1])
	}
	if n := len(w.Factors()); n != 39 {
		t.Errorf("Factors() = %d, want the whole path of 39", n)
	}
}
