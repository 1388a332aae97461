package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
)

// StepSummary describes a retry step: a function that performs an
// operation and, where the operation failed, waits and returns, while
// where it succeeded it returns without that wait. A loop that calls it
// again and again — for { d.watch() } — is a retry loop whose wait sits
// in the step.
type StepSummary struct {
	Grows, Random, Capped, Unknown bool
	// Value is the constant wait as written, when it does not change.
	Value string
	// Ctx reports that the wait ends when the context is cancelled.
	Ctx bool
	// Classified reports that the step inspects the failure before it
	// waits.
	Classified bool
	// At is where the step waits, file:line.
	At string
}

func (s *StepSummary) delay() Delay {
	return Delay{Grows: s.Grows, Random: s.Random, Capped: s.Capped, Unknown: s.Unknown, Value: s.Value}
}

// stepOf says whether fn is a retry step: its body in this package, or
// the fact of another package.
func (a *checker) stepOf(fn *types.Func) *StepSummary {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if a.steps == nil {
		a.steps = make(map[*types.Func]*StepSummary)
	}
	if s, ok := a.steps[fn]; ok {
		return s
	}
	a.steps[fn] = nil // a step that calls itself is not read through itself
	var s *StepSummary
	if decl := a.decls[fn]; decl != nil {
		if waitsOutsideLoops(a, decl.Body) {
			s = a.readStep(decl)
		}
	} else if f := a.summarize(fn).fact; f != nil {
		s = f.Step
	}
	a.steps[fn] = s
	return s
}

// waitsOutsideLoops reports whether a body waits somewhere outside its
// own loops: a wait inside a loop paces that loop, not the function's
// callers, so only such a body can be a retry step.
func waitsOutsideLoops(a *checker, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt, *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.CallExpr:
			if kind, _, _, ok := a.waitCall(n); ok && kind != "" {
				found = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				if call, ok := ast.Unparen(n.X).(*ast.CallExpr); ok && isPkgFunc(a.callee(call), "time", "After") {
					found = true
				}
				if sel, ok := ast.Unparen(n.X).(*ast.SelectorExpr); ok && sel.Sel.Name == "C" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// readStep follows the paths of a function body to its returns: some
// path where an operation failed must wait, and no path where it
// succeeded may.
func (a *checker) readStep(decl *ast.FuncDecl) *StepSummary {
	fc := a.helperCtx(decl)
	lc := &loopCtx{mode: modeRecursion, start: decl.Body.Pos(), end: decl.Body.End()}
	fc.countersIn(lc)
	w := &walker{a: a, fc: fc, lc: lc}
	w.exit(w.stmts(decl.Body.List, []*path{newPath()}, scope{}), decl.Body)
	var wait *Wait
	classified, succeeds := false, false
	for _, ev := range w.exits {
		p := ev.p
		if p.failedOp() == nil {
			if len(p.waits) > 0 {
				return nil // it waits after success too: a pacer, not a step
			}
			succeeds = succeeds || p.last != nil
			continue
		}
		if len(p.waits) > 0 && wait == nil {
			wait = p.waits[0]
			classified = p.classified
		}
	}
	if wait == nil || !succeeds || len(w.rounds) > 0 {
		return nil
	}
	d := wait.Source
	return &StepSummary{
		Grows: d.Grows, Random: d.Random, Capped: d.Capped, Unknown: d.Unknown, Value: d.Value,
		Ctx: wait.ContextAware, Classified: classified, At: a.position(wait.Node.Pos()),
	}
}

// step splits the paths at a call of a retry step whose result is not
// used: on one the step's operation failed and it waited, on the other
// it succeeded. It reports false for any other statement.
func (w *walker) step(s *ast.ExprStmt, in []*path) ([]*path, bool) {
	call, ok := ast.Unparen(s.X).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	st := w.a.stepOf(w.a.callee(call))
	if st == nil {
		return nil, false
	}
	var out []*path
	for _, p := range in {
		failed, ok := p.clone(), p.clone()
		for _, q := range []*path{failed, ok} {
			q.last = call
			q.guard = guardNone
			q.http, q.grpc = failure.AllHTTP(), failure.AllGRPC()
		}
		failed.errs[call] = errFact{op: call, state: errNonNil}
		failed.classified = failed.classified || st.Classified
		failed.waits = append(failed.waits, &Wait{
			Kind: WaitHelper, Node: call, Stmt: s, Delay: call,
			Source: st.delay(), ContextAware: st.Ctx,
		})
		ok.errs[call] = errFact{op: call, state: errNil}
		out = append(out, failed, ok)
	}
	return out, true
}
