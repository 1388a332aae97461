package retryloop

import (
	"go/ast"
	"go/types"
)

// isContextSentinel reports whether e is context.Canceled or
// context.DeadlineExceeded.
func (a *checker) isContextSentinel(e ast.Expr) bool {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		id = e.Sel
	case *ast.Ident:
		id = e
	default:
		return false
	}
	v, ok := a.info().ObjectOf(id).(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "context" && (v.Name() == "Canceled" || v.Name() == "DeadlineExceeded")
}

// contextErrTest splits on errors.Is(err, context.Canceled) and the like.
// Where it holds, the operation failed because its context ended: leaving
// there is the loop's context exit, a bound. It is no classification: a
// loop that leaves only then still retries every real failure.
func (w *walker) contextErrTest(errExpr ast.Expr, in []*path) (t, f []*path) {
	key := w.errKey(errExpr)
	return split(in,
		func(p *path) {
			p.guard, p.bound = guardBound, BoundContext
			p.maybeOK = false
			p.contextErr = true
			if key == nil {
				return
			}
			fact := p.errs[key]
			if fact.wait {
				return
			}
			if fact.state == errNil {
				p.dead = true
				return
			}
			fact.state = errNonNil
			p.errs[key] = fact
		},
		func(p *path) {
			p.guard = guardError
			if fact, ok := p.errs[key]; ok && key != nil && fact.state == errUnknown && !fact.wait {
				p.maybeOK = true
			}
		})
}
