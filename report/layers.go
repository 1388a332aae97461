package report

import (
	"github.com/retrylint/retrylint/model"

	"fmt"
	"sort"
)

// layerGraph is the graph of retry layers that the chains' witness paths
// walk: the components and the edges between them, each edge with the
// factor it multiplies executions by.
type layerGraph struct {
	nodes   []string
	edges   []layerEdge
	failing map[string]bool // components with an error finding
}

// layerEdge is one invocation on a witness path.
type layerEdge struct {
	model.Factor
}

// dead reports whether the edge retries but its predicate never matches
// the failure that comes up from below: a retry layer that does nothing.
func (e layerEdge) dead() bool {
	return !e.Effective && (e.Retries == nil || *e.Retries > 0)
}

// multiplies reports whether the edge multiplies executions.
func (e layerEdge) multiplies() bool {
	return e.Effective && (e.Attempts == nil || *e.Attempts > 1)
}

// label is the edge's factor: "×4 (3 retries)", "×∞ (unbounded)",
// "dead: 2 retries never match", or "" for a plain invocation.
func (e layerEdge) label() string {
	switch {
	case e.dead() && e.Retries == nil:
		return "dead: unbounded retries never match"
	case e.dead():
		return fmt.Sprintf("dead: %s never match", plural(*e.Retries, "retry", "retries"))
	case e.Attempts == nil:
		return "×∞ (unbounded)"
	case *e.Attempts > 1 && e.Retries != nil && *e.Attempts == *e.Retries+1:
		return fmt.Sprintf("×%d (%s)", *e.Attempts, plural(*e.Retries, "retry", "retries"))
	case *e.Attempts > 1:
		return fmt.Sprintf("×%d", *e.Attempts)
	}
	return ""
}

// plural formats n with the singular or plural noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// layersOf builds the layer graph of the chains of root ("" for every
// root). Nodes and edges appear in the order the longest witness paths
// visit them, so the same result always draws the same diagram.
func layersOf(r *model.Result, root string) *layerGraph {
	chains := make([]model.Chain, 0, len(r.Chains))
	for _, c := range r.Chains {
		if root == "" || c.Root == root {
			chains = append(chains, c)
		}
	}
	sort.SliceStable(chains, func(i, j int) bool {
		a, b := chains[i], chains[j]
		if a.Root != b.Root {
			return a.Root < b.Root
		}
		if len(a.Path) != len(b.Path) {
			return len(a.Path) > len(b.Path)
		}
		return a.Target < b.Target
	})
	g := &layerGraph{failing: make(map[string]bool)}
	seenNode := make(map[string]bool)
	seenEdge := make(map[[2]string]bool)
	addNode := func(n string) {
		if !seenNode[n] {
			seenNode[n] = true
			g.nodes = append(g.nodes, n)
		}
	}
	for _, c := range chains {
		for _, n := range c.Path {
			if n != model.Elision {
				addNode(n)
			}
		}
		for _, f := range c.Factors {
			addNode(f.From)
			addNode(f.To)
			key := [2]string{f.From, f.To}
			if !seenEdge[key] {
				seenEdge[key] = true
				g.edges = append(g.edges, layerEdge{f})
			}
		}
	}
	for _, f := range r.Findings {
		if f.Severity == model.Error && f.Component != "" && seenNode[f.Component] {
			g.failing[f.Component] = true
		}
	}
	return g
}

// roots lists the roots of the chains, sorted.
func roots(chains []model.Chain) []string {
	seen := make(map[string]bool)
	var out []string
	for _, c := range chains {
		if !seen[c.Root] {
			seen[c.Root] = true
			out = append(out, c.Root)
		}
	}
	sort.Strings(out)
	return out
}
