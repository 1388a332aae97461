package multiply

import (
	"fmt"

	"github.com/retrylint/retrylint/topology"
)

// MaxChains caps the (root, reachable component) pairs one pipeline may
// have. Each pair is a chain: a row of its root's table and an entry of the
// JSON report. Their number is the roots times what each reaches, so a
// small file with many event sources over one long line of calls asks for
// millions of chains (4,000 roots over 4,000 components: 8 million, GBs of
// report). Real pipelines have hundreds.
const MaxChains = 250_000

// TooManyChains is the error of a pipeline with more than MaxChains
// chains: its position is that of the first root.
type TooManyChains struct {
	Pos   topology.Pos
	Roots int
	Limit int
}

func (e *TooManyChains) Error() string {
	return fmt.Sprintf("%s: %s event sources (components nothing invokes) reach more than %s components in all: "+
		"one chain each, over the %s retrylint tabulates per pipeline; split the topology into pipelines "+
		"(one directory with its own retrylint.yaml each) or name fewer paths",
		e.Pos, Group(int64(e.Roots)), Group(int64(e.Limit)), Group(int64(e.Limit)))
}

// CheckSize returns a *TooManyChains error when the roots of g reach more
// than limit components in all (counted once per root), without
// multiplying anything. It stops counting at the limit, so its cost is
// bounded by the limit and the edges of what it visits.
func CheckSize(g *topology.Graph, limit int) error {
	roots := g.Roots()
	seen := make(map[*topology.Component]int, len(g.Components)) // component → 1 + index of the last root that reached it
	total := 0
	var stack []*topology.Component
	for i, r := range roots {
		stack = append(stack[:0], r)
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[c] == i+1 {
				continue
			}
			seen[c] = i + 1
			if total++; total > limit {
				return &TooManyChains{Pos: roots[0].Pos, Roots: len(roots), Limit: limit}
			}
			for _, e := range g.Out[c] {
				if seen[e.To] != i+1 {
					stack = append(stack, e.To)
				}
			}
		}
	}
	return nil
}
