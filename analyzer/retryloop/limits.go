package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// loopLimit is, for a retry loop whose attempts are no constant, the
// expression as written that its counter runs up to — for try := 1; try
// <= tries; try++ gives "tries" — or down from — for left := c.max + 1; ;
// left-- gives "c.max + 1". "" for any other loop.
func (a *checker) loopLimit(l *Loop) string {
	s, ok := l.Node.(*ast.ForStmt)
	if !ok || l.Attempts > 0 || l.Bound == BoundNone {
		return ""
	}
	if b, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr); ok && s.Cond != nil {
		switch {
		case (b.Op == token.LSS || b.Op == token.LEQ) && a.countsUp(s, b.X) && a.variable(b.Y):
			return types.ExprString(b.Y)
		case (b.Op == token.GTR || b.Op == token.GEQ) && a.countsUp(s, b.Y) && a.variable(b.X):
			return types.ExprString(b.X)
		}
	}
	if as, ok := s.Init.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && a.variable(as.Rhs[0]) {
		if id, ok := as.Lhs[0].(*ast.Ident); ok && a.decremented(s, a.info().ObjectOf(id)) {
			return types.ExprString(as.Rhs[0])
		}
	}
	return ""
}

// countsUp reports whether e is a variable the for statement s declares
// in its init or increments in its post statement.
func (a *checker) countsUp(s *ast.ForStmt, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	obj := a.info().ObjectOf(id)
	if as, ok := s.Init.(*ast.AssignStmt); ok {
		for _, lhs := range as.Lhs {
			if l, ok := lhs.(*ast.Ident); ok && a.info().ObjectOf(l) == obj {
				return true
			}
		}
	}
	inc, ok := s.Post.(*ast.IncDecStmt)
	if !ok || inc.Tok != token.INC {
		return false
	}
	x, ok := ast.Unparen(inc.X).(*ast.Ident)
	return ok && a.info().ObjectOf(x) == obj
}

// decremented reports whether the for statement s counts v down, in its
// post statement or its body.
func (a *checker) decremented(s *ast.ForStmt, v types.Object) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if dec, ok := n.(*ast.IncDecStmt); ok && dec.Tok == token.DEC {
			if x, ok := ast.Unparen(dec.X).(*ast.Ident); ok && a.info().ObjectOf(x) == v {
				found = true
			}
		}
		return !found
	})
	return v != nil && found
}

// variable reports whether e is an integer expression with no constant
// value.
func (a *checker) variable(e ast.Expr) bool {
	tv, ok := a.info().Types[e]
	return ok && tv.Value == nil && tv.Type != nil && isInteger(tv.Type)
}

// ownLimit is the Limit and LimitArg of the summary r of decl, whose
// first retry loop is l.
func (a *checker) ownLimit(decl *ast.FuncDecl, l *Loop, r *RetrySummary) (string, int) {
	if r.Attempts > 0 || r.Unbounded {
		return "", 0
	}
	limit := a.loopLimit(l)
	if limit == "" {
		return "", 0
	}
	for i, p := range fieldObjs(a, decl.Type.Params) {
		if p != nil && p.Name() == limit {
			return limit, i + 1
		}
	}
	return limit, 0
}

// layerAt describes as a retry layer the call of a function that retries
// as r says: what its argument sets, when its attempts are a parameter's
// (a constant there is the count), or what its own loop counts to.
func (a *checker) layerAt(name string, r *RetrySummary, call *ast.CallExpr) Layer {
	ly := Layer{Name: name, At: r.At, Attempts: r.Attempts, Unbounded: r.Unbounded}
	if ly.Attempts > 0 || ly.Unbounded {
		return ly
	}
	if arg := a.limitArg(r, call); arg != nil {
		if tv := a.info().Types[arg]; tv.Value != nil && tv.Value.Kind() == constant.Int {
			if n, exact := constant.Int64Val(tv.Value); exact && n > 0 {
				ly.Attempts = int(min(n, 1<<20))
				return ly
			}
		}
		ly.Limit = "the argument " + types.ExprString(arg)
		return ly
	}
	if r.LimitArg == 0 {
		ly.Limit = r.Limit
	}
	return ly
}

// limitArg is the argument of call that sets the attempts of the function
// it calls, or nil: the parameter of r's LimitArg, when the callee's
// parameter there has the name r's Limit gives (a summary a wrapper took
// from another function keeps its limit, but not its parameters).
func (a *checker) limitArg(r *RetrySummary, call *ast.CallExpr) ast.Expr {
	fn := a.callee(call)
	if r.LimitArg == 0 || fn == nil || r.LimitArg > len(call.Args) {
		return nil
	}
	params := fn.Signature().Params()
	if r.LimitArg > params.Len() || params.At(r.LimitArg-1).Name() != r.Limit {
		return nil
	}
	return call.Args[r.LimitArg-1]
}
