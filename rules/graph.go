package rules

import (
	"fmt"
	"strings"

	"github.com/retrylint/retrylint/multiply"
	"github.com/retrylint/retrylint/topology"
)

// fails reports whether the caller of e gives up (and so reports failure
// upward) when e's callee fails: not when it handles the error; a workflow
// only if some path of it ends FAILED.
func fails(e *topology.Edge) bool {
	if e.Caught {
		return false
	}
	if w := e.From.Workflow; w != nil {
		return len(w.FailPaths) > 0
	}
	return true
}

// propagates reports whether a failure of e's callee reaches e's caller as
// a failure of the caller: the callee emits a signal to it, the caller waits
// for the outcome, and it does not swallow the error.
func propagates(e *topology.Edge) bool {
	if e.Kind == topology.EdgeNotify || e.Kind == topology.EdgeDeliver {
		return false
	}
	return len(e.EmitsTo()) > 0 && fails(e)
}

// below walks the failure-propagation chain under c (c included) and
// returns, per component reached, the edge it was reached by (nil for c).
func below(g *topology.Graph, c *topology.Component) ([]*topology.Component, map[*topology.Component]*topology.Edge) {
	via := map[*topology.Component]*topology.Edge{c: nil}
	order := []*topology.Component{c}
	for i := 0; i < len(order); i++ {
		for _, e := range g.Out[order[i]] {
			if _, ok := via[e.To]; ok || !propagates(e) {
				continue
			}
			via[e.To] = e
			order = append(order, e.To)
		}
	}
	return order, via
}

// firstBelow walks the failure-propagation chain under c, nearest first,
// and stops at the first component with an out-edge that match accepts:
// it returns that edge and how the walk reached it. It reads only as much
// of the chain as it needs, so a check made on every edge of a long chain
// stays linear.
func firstBelow(g *topology.Graph, c *topology.Component, match func(*topology.Edge) bool) (*topology.Edge, map[*topology.Component]*topology.Edge) {
	via := map[*topology.Component]*topology.Edge{c: nil}
	order := []*topology.Component{c}
	for i := 0; i < len(order); i++ {
		var found *topology.Edge
		for _, e := range g.Out[order[i]] {
			if found == nil && match(e) {
				found = e
			}
			if _, ok := via[e.To]; ok || !propagates(e) {
				continue
			}
			via[e.To] = e
			order = append(order, e.To)
		}
		if found != nil {
			return found, via
		}
	}
	return nil, via
}

// pathTo names the path from the start of a walk to c.
func pathTo(via map[*topology.Component]*topology.Edge, c *topology.Component) string {
	names := []string{c.Name}
	for e := via[c]; e != nil; e = via[e.From] {
		names = append([]string{e.From.Name}, names...)
		if len(names) > len(via)+1 {
			break
		}
	}
	return strings.Join(names, " → ")
}

// factor returns the multiplication factor of e.
func (p *Pass) factor(e *topology.Edge) multiply.Factor {
	if f, ok := p.Mult.Factors[e]; ok {
		return f
	}
	return multiply.FactorOf(e)
}

// retriesAtLeast reports whether e retries n times or more; without limit
// is more than any count.
func retriesAtLeast(e *topology.Edge, n int) bool { return e.Unbounded || e.Retries >= n }

// retriesText describes an edge's retry count.
func retriesText(e *topology.Edge) string {
	if e.Unbounded {
		return "without limit"
	}
	if e.Retries == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", e.Retries)
}

// where names the call site of an edge for messages.
func where(e *topology.Edge) string {
	if e.Step != "" {
		return fmt.Sprintf("step %s of %s", e.Step, e.From.Name)
	}
	return e.From.Name
}

// failPathText describes how a workflow ends FAILED.
func failPathText(c *topology.Component) string {
	if c.Workflow == nil || len(c.Workflow.FailPaths) == 0 {
		return ""
	}
	fp := c.Workflow.FailPaths[0]
	for _, x := range c.Workflow.FailPaths { // a raise says more than a failing call
		if x.Kind == "raise" || x.Kind == "re-raise" || x.Kind == "unassigned-read" {
			fp = x
			break
		}
	}
	s := fp.Reason
	if len(fp.Steps) > 0 {
		s += " (steps " + strings.Join(fp.Steps, " → ") + ")"
	}
	return fmt.Sprintf("%s at %s", s, fp.Pos)
}

// notifyPos returns where c notifies a sink of failure, if it does.
func notifyPos(g *topology.Graph, c *topology.Component) (topology.Pos, string, bool) {
	for _, e := range g.Out[c] {
		if e.Kind == topology.EdgeNotify {
			return e.Pos, "notifies " + e.To.Name, true
		}
	}
	if w := c.Workflow; w != nil {
		for _, n := range w.Notifications {
			if n.BeforeFail {
				return n.Pos, fmt.Sprintf("notifies %s (step %s) before failing", orDash(n.URL), n.Step), true
			}
		}
	}
	return topology.Pos{}, "", false
}

func orDash(s string) string {
	if s == "" {
		return "a sink"
	}
	return s
}

func pos(e *topology.Edge) topology.Pos {
	if e.RetryPos.IsValid() {
		return e.RetryPos
	}
	return e.Pos
}

func secs(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", f), "0"), ".") + " s"
}
