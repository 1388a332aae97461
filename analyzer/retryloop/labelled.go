package retryloop

import (
	"go/ast"
	"slices"
)

// foldLabelled makes one loop of a labelled for (or range) loop that goes
// round both by continue and by a goto to its own label: the goto loop
// found at the label is folded into the for loop, so that the loop is
// reported once, at its for, with the operations, waits and failure paths
// of both ways round.
func foldLabelled(loops []*Loop) []*Loop {
	byNode := make(map[ast.Node]*Loop, len(loops))
	for _, l := range loops {
		byNode[l.Node] = l
	}
	out := loops[:0:0]
	for _, l := range loops {
		ls, ok := l.Node.(*ast.LabeledStmt)
		if l.Form != FormGoto || !ok {
			out = append(out, l)
			continue
		}
		if loop := byNode[ls.Stmt]; loop != nil {
			fold(loop, l)
			continue
		}
		out = append(out, l)
	}
	return out
}

// fold adds to the for loop l what the goto loop g to its label retries.
// A goto to the label runs the for statement again: its condition and its
// body's exits bound both ways round, but a counter of its init starts
// over, one of its post statement does not advance, and a range starts
// over, so an attempt limit of those bounds the goto's way round no
// longer; what bounds that way is what the goto loop found.
func fold(l, g *Loop) {
	for _, op := range g.Ops {
		if !slices.Contains(l.Ops, op) {
			l.Ops = append(l.Ops, op)
		}
	}
	for _, w := range g.Waits {
		if !slices.ContainsFunc(l.Waits, func(x *Wait) bool { return x.Node == w.Node }) {
			l.Waits = append(l.Waits, w)
		}
	}
	if l.Bound == BoundAttempts && restarts(l.Node) {
		l.Bound, l.Attempts = g.Bound, g.Attempts
	}
	if !g.Classified {
		l.Classified = false
		if l.Unclassified == nil {
			l.Unclassified = g.Unclassified
		}
	}
	for _, p := range g.Permanent {
		if !slices.Contains(l.Permanent, p) {
			l.Permanent = append(l.Permanent, p)
		}
	}
	if l.Context == nil {
		l.Context, l.ContextExpr = g.Context, g.ContextExpr
	}
	l.LocalOS = l.LocalOS && g.LocalOS
}

// restarts reports whether a goto to the label of loop undoes its count:
// a for with an init or post statement, or a range.
func restarts(loop ast.Node) bool {
	switch s := loop.(type) {
	case *ast.ForStmt:
		return s.Init != nil || s.Post != nil
	case *ast.RangeStmt:
		return true
	}
	return false
}
