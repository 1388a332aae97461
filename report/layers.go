package report

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/retrylint/retrylint/model"
)

// layerGraph is the graph of retry layers that the chains' witness paths
// walk: the components and the edges between them, each edge with the
// factor it multiplies executions by.
type layerGraph struct {
	nodes   []string
	edges   []layerEdge
	failing map[string]bool // components with an error finding
	assumed map[string]bool // components whose numbers rest on defaults
}

// layerEdge is one invocation on a witness path.
type layerEdge struct {
	model.Factor
	// inner are the further factors of the same invocation: the nested
	// retry loops of the caller's Go code, outermost first after Factor.
	inner []model.Factor
}

// dead reports whether the edge retries but its predicate never matches
// the failure that comes up from below: a retry layer that does nothing.
func (e layerEdge) dead() bool {
	return !e.Effective && (e.Retries == nil || *e.Retries > 0) && !e.innerMultiplies()
}

// multiplies reports whether the edge multiplies executions.
func (e layerEdge) multiplies() bool {
	return e.Multiplies() || e.innerMultiplies()
}

// innerMultiplies reports whether a further loop of the call multiplies.
func (e layerEdge) innerMultiplies() bool {
	for _, f := range e.inner {
		if f.Multiplies() {
			return true
		}
	}
	return false
}

// label is the edge's factor: "×4 (3 retries)", "×∞ (unbounded)",
// "dead: 2 retries never match", or "" for a plain invocation.
func (e layerEdge) label() string {
	if len(e.inner) > 0 {
		return e.originLabel() // the loops of one call: each with its place
	}
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

// originLabel is the edge's label with where its numbers come from, the
// file's base name and line: "×4 (3 retries, client.go:30)"; the nested
// loops of one call each with their own.
func (e layerEdge) originLabel() string {
	if len(e.inner) == 0 {
		l := e.label()
		o := shortOrigin(e.Factor)
		switch {
		case l == "" || o == "":
			return l
		case strings.HasSuffix(l, ")"):
			return strings.TrimSuffix(l, ")") + ", " + o + ")"
		}
		return l + " (" + o + ")"
	}
	total := 1
	var parts []string
	unbounded := false
	for _, f := range append([]model.Factor{e.Factor}, e.inner...) {
		if !f.Multiplies() {
			continue
		}
		if f.Attempts == nil {
			unbounded = true
		} else {
			total *= *f.Attempts
		}
		r := "unbounded"
		if f.Retries != nil {
			r = plural(*f.Retries, "retry", "retries")
		}
		if o := shortOrigin(f); o != "" {
			r += ", " + o
		}
		parts = append(parts, r)
	}
	if len(parts) == 0 {
		return ""
	}
	n := fmt.Sprint(total)
	if unbounded {
		n = "∞"
	}
	return "×" + n + " (" + strings.Join(parts, "; ") + ")"
}

// shortOrigin is a factor's origin with the file's base name.
func shortOrigin(f model.Factor) string {
	o := f.Origin()
	if i := strings.LastIndexByte(o, '/'); i >= 0 {
		o = o[i+1:]
	}
	return o
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
		added := false // the previous factor of this chain added an edge
		for i, f := range c.Factors {
			addNode(f.From)
			addNode(f.To)
			key := [2]string{f.From, f.To}
			if i > 0 && added && c.Factors[i-1].From == f.From && c.Factors[i-1].To == f.To {
				last := &g.edges[len(g.edges)-1]
				last.inner = append(last.inner, f)
				continue
			}
			added = false
			if !seenEdge[key] {
				seenEdge[key] = true
				g.edges = append(g.edges, layerEdge{Factor: f})
				added = true
			}
		}
	}
	for _, f := range r.Findings {
		if f.Severity == model.Error && f.Component != "" && seenNode[f.Component] {
			g.failing[f.Component] = true
		}
	}
	g.assumed = map[string]bool{}
	for _, name := range r.Assumed {
		if seenNode[name] {
			g.assumed[name] = true
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

// pipelinesOf lists the pipelines the chains (and, with findings, the
// findings) of r name, sorted, "" among them when some name none; nil
// when none names one: a run of one pipeline.
func pipelinesOf(r *model.Result, findings bool) []string {
	seen := make(map[string]bool)
	for _, c := range r.Chains {
		seen[c.Pipeline] = true
	}
	if findings {
		for _, f := range r.Findings {
			seen[f.Pipeline] = true
		}
	}
	if len(seen) == 0 || len(seen) == 1 && seen[""] {
		return nil
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// onePipeline is the part of r in pipeline p: its chains and findings.
func onePipeline(r *model.Result, p string) *model.Result {
	one := &model.Result{Version: r.Version, Tool: r.Tool}
	for _, c := range r.Chains {
		if c.Pipeline == p {
			one.Chains = append(one.Chains, c)
			if c.Assumed && !slices.Contains(one.Assumed, c.Target) {
				one.Assumed = append(one.Assumed, c.Target)
			}
		}
	}
	slices.Sort(one.Assumed)
	for _, f := range r.Findings {
		if f.Pipeline == p {
			one.Findings = append(one.Findings, f)
		}
	}
	return one
}
