package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
)

// findStreaks finds the counters of a for loop that count successes in a
// row: for stable < 3 { if check() == nil { stable++ } else { stable = 0;
// wait } }. Such a counter is set back where an attempt fails, so however
// long the dependency stays down it never reaches its limit: it is no
// attempt limit. The body is walked once to see where the resets happen.
func (a *checker) findStreaks(fc *funcCtx, lc *loopCtx, s *ast.ForStmt) {
	if !a.resetsCounter(fc, lc) {
		return
	}
	lc.streaks = map[types.Object]bool{}
	probe := *lc
	probe.streaks = lc.streaks
	w := &walker{a: a, fc: fc, lc: &probe}
	in := []*path{a.entryPath(fc, &probe, s.Body)}
	if s.Init != nil {
		in = w.stmt(s.Init, in, scope{})
	}
	if s.Cond != nil {
		in, _ = w.cond(s.Cond, in, 0)
	}
	w.stmts(s.Body.List, in, scope{})
}

// resetsCounter reports whether the loop sets one of its counters to a
// constant.
func (a *checker) resetsCounter(fc *funcCtx, lc *loopCtx) bool {
	for obj := range lc.counters {
		for _, as := range fc.assigns[obj] {
			if lc.contains(as.pos) && as.tok == token.ASSIGN && as.rhs != nil && a.info().Types[as.rhs].Value != nil {
				return true
			}
		}
	}
	return false
}

// noteStreak records a counter set back to a constant on a path where an
// attempt failed.
func (w *walker) noteStreak(s *ast.AssignStmt, in []*path) {
	if w.lc.streaks == nil || s.Tok != token.ASSIGN || len(s.Lhs) != len(s.Rhs) {
		return
	}
	for i, l := range s.Lhs {
		obj := w.objOf(l)
		if obj == nil || !w.lc.counters[obj] || w.info().Types[s.Rhs[i]].Value == nil {
			continue
		}
		for _, p := range in {
			if p.lastFailed() {
				w.lc.streaks[obj] = true
			}
		}
	}
}

// mentionsStreak reports whether e reads a counter of successes in a row.
func (a *checker) mentionsStreak(lc *loopCtx, e ast.Expr) bool {
	if len(lc.streaks) == 0 {
		return false
	}
	return anyNode(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		return ok && lc.streaks[a.info().ObjectOf(id)]
	})
}

// lastFailed reports whether the most recent operation on the path is
// known to have failed: a reset there answers that failure, not a later
// check (retries = 1 after the listing was found still alive).
func (p *path) lastFailed() bool {
	if p.last == nil {
		return false
	}
	for _, f := range p.errs {
		if f.op == p.last && f.state == errNonNil && !f.wait {
			return true
		}
	}
	return false
}
