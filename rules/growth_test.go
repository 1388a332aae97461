package rules

import (
	"fmt"
	"testing"

	"github.com/retrylint/retrylint/internal/growth"
	"github.com/retrylint/retrylint/topology"
)

// retryLine builds n apps in a row, each retrying the next twice on any
// failure: every edge has a retry layer below it, and every component is
// over the budget.
func retryLine(n int) *topology.Graph {
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

// TestRulesLinear: the rules over a line of n retrying components, each
// with its findings, cost O(n): a rule that looks below every edge must
// not walk the whole rest of the line each time.
func TestRulesLinear(t *testing.T) {
	growth.Linear(t, 1000, retryLine, func(g *topology.Graph) {
		if fs, _ := Run(g, Options{}); len(fs) == 0 {
			t.Fatal("no findings on a line of retry layers")
		}
	})
}
