package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A loop may wait on every round yet for a time worked out from whether
// the attempt failed: failed = true where it failed, then
// pause = pacer.Pause(pause, failed), or time.After(next(err != nil)).
// The pause after a failure is then the failure's own, however long the
// pause after a success: the loop retries, it is not merely periodic.

// noteFailMark records a bool or duration variable set to a constant
// where an attempt has just failed: a mark of the failure that a later
// pause may read (failed = true; sleepTime = time.Second before the
// timer at the top of the loop is re-armed with it).
func (w *walker) noteFailMark(s *ast.AssignStmt, in []*path) {
	if len(s.Lhs) != len(s.Rhs) {
		return
	}
	for i, l := range s.Lhs {
		obj := w.objOf(l)
		if obj == nil || !isBool(obj.Type()) && !isDuration(obj.Type()) {
			continue
		}
		tv := w.info().Types[s.Rhs[i]]
		value := ""
		switch {
		case tv.Value != nil:
			value = tv.Value.ExactString()
		case isDuration(obj.Type()) && w.callsFunc(s.Rhs[i]):
			// delay = backoff(retry) where it failed, delay = the poll
			// interval elsewhere: a back-off worked out for the failure
			// (not the interval brought forward, interval / 4) tells the
			// rounds apart.
			value = "=" + types.ExprString(s.Rhs[i])
		default:
			continue
		}
		for _, p := range in {
			if w.lc.failMarks == nil {
				w.lc.failMarks = map[types.Object]*markValues{}
			}
			m := w.lc.failMarks[obj]
			if m == nil {
				m = &markValues{fail: map[string]bool{}, ok: map[string]bool{}}
				w.lc.failMarks[obj] = m
			}
			if p.lastFailed() {
				m.fail[value] = true
			} else {
				m.ok[value] = true
			}
		}
	}
}

// callsFunc reports whether e calls a function or method: not a builtin
// (min, max) and not a conversion.
func (w *walker) callsFunc(e ast.Expr) bool {
	return anyNode(e, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		return ok && w.a.callee(call) != nil
	})
}

// markValues are the constants a variable is set to where an attempt has
// just failed and elsewhere.
type markValues struct{ fail, ok map[string]bool }

// marksFailure reports whether a failure sets the variable to a constant
// (a flag), or a duration set to more than one: reading it tells a
// failure's round from a success's (one interval everywhere is periodic).
func (w *walker) marksFailure(obj types.Object) bool {
	m := w.lc.failMarks[obj]
	if m == nil || len(m.fail) == 0 {
		return false
	}
	if isBool(obj.Type()) {
		return true // failed = true: a flag only a failure raises
	}
	values := len(m.fail)
	for v := range m.ok {
		if !m.fail[v] {
			values++
		}
	}
	return values > 1
}

// pauseFromFailure reports whether a wait's delay is worked out from the
// failure: it reads a failure mark of the loop, or tests an error against
// nil, directly or through the local variables it is computed from.
func (w *walker) pauseFromFailure(wt *Wait) bool {
	if wt.Delay == nil {
		return false
	}
	seen := map[types.Object]bool{}
	var from func(e ast.Expr, depth int) bool
	from = func(e ast.Expr, depth int) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BinaryExpr:
				if (n.Op == token.EQL || n.Op == token.NEQ) && w.errNilTest(n) {
					found = true
				}
			case *ast.Ident:
				obj := w.info().Uses[n]
				if obj == nil || seen[obj] {
					return true
				}
				seen[obj] = true
				if w.marksFailure(obj) {
					found = true
					return false
				}
				if depth < 3 {
					for _, as := range w.fc.assigns[obj] {
						if as.rhs != nil && from(as.rhs, depth+1) {
							found = true
							return false
						}
					}
				}
			}
			return true
		})
		return found
	}
	return from(wt.Delay, 0)
}

// errNilTest reports whether a comparison tests an error against nil.
func (w *walker) errNilTest(b *ast.BinaryExpr) bool {
	x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
	if isNilIdent(x) {
		x, y = y, x
	}
	return isNilIdent(y) && isError(w.a.typeOf(x))
}
