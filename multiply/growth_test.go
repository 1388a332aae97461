package multiply

import (
	"encoding/json"
	"errors"
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

// ladder builds n roots each calling one step of a row of n apps: n roots
// reaching n(n+1)/2 components in all, from a file of O(n) lines.
func ladder(n int) *topology.Graph {
	g := line(n)
	comps, edges := g.Components, g.Edges
	for i := range n {
		r := &topology.Component{Name: fmt.Sprintf("event-%05d", i), Kind: topology.KindApp,
			Pos: topology.Pos{File: "retrylint.yaml", Line: i + 3, Col: 3}}
		call := &topology.Call{To: comps[i].Name, Kind: topology.EdgeCall}
		edges = append(edges, &topology.Edge{From: r, To: comps[i], Call: call})
		comps = append(comps, r)
	}
	return topology.NewGraph(comps, edges)
}

// TestCheckSize: a row of 30,000 components is 30,000 chains and passes;
// 1,000 roots over a row of 1,000 are 500,500 chains, over the cap, and
// the error names the first root's place and the numbers.
func TestCheckSize(t *testing.T) {
	if err := CheckSize(line(30000), MaxChains); err != nil {
		t.Errorf("a row of 30,000 components: %v", err)
	}
	if err := CheckSize(ladder(300), MaxChains); err != nil {
		t.Errorf("300 roots over 300 components (45,150 chains): %v", err)
	}
	err := CheckSize(ladder(1000), MaxChains)
	var big *TooManyChains
	if !errors.As(err, &big) {
		t.Fatalf("1,000 roots over 1,000 components: error %v, want *TooManyChains", err)
	}
	if want := "retrylint.yaml:3:3: 1,000 event sources"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want prefix %q", err, want)
	}
	if !strings.Contains(err.Error(), "250,000") || !strings.Contains(err.Error(), "split the topology into pipelines") {
		t.Errorf("error %q does not give the cap and the way out", err)
	}
}

// TestCheckSizeLinear: counting stops at the cap, so what a ladder costs
// grows with its graph, not with its (quadratic) chains.
func TestCheckSizeLinear(t *testing.T) {
	growth.Linear(t, 2000, ladder, func(g *topology.Graph) { _ = CheckSize(g, 100_000) })
}
