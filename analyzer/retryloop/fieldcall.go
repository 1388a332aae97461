package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
)

// fieldCallRetry says how a call through a function-typed field of the
// package retries (c.refresh(topics), where refresh is set to a closure
// that runs a retry loop): as every value the package gives that field,
// when each one retries. The field must be unexported, so that the
// package's own writes are all it can hold.
func (a *checker) fieldCallRetry(call *ast.CallExpr) *RetrySummary {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	v, ok := a.info().ObjectOf(sel.Sel).(*types.Var)
	if !ok || !v.IsField() || v.Exported() || v.Pkg() != a.pass.Pkg {
		return nil
	}
	if _, ok := v.Type().Underlying().(*types.Signature); !ok {
		return nil
	}
	if r, ok := a.fieldRetries[v]; ok {
		return r
	}
	if a.fieldRetries == nil {
		a.fieldRetries = map[*types.Var]*RetrySummary{}
	}
	a.fieldRetries[v] = nil // a field set to a value that calls it again does not retry by that
	values, known := a.fieldWrites(v)
	var first *RetrySummary
	for _, e := range values {
		if !known {
			break
		}
		r := a.funcValueRetry(e, 0)
		if r == nil {
			first = nil
			break
		}
		if first == nil {
			first = r
		}
	}
	a.fieldRetries[v] = first
	return first
}

// funcValueRetry says how a function value retries when called: a
// function literal by its own loop or a retrying call it makes, a named
// function or method by its summary, a local variable by the value it
// is given, and a call given one such value (newSingleFlight(refresh))
// as a wrapper running it.
func (a *checker) funcValueRetry(e ast.Expr, depth int) *RetrySummary {
	if depth > 4 {
		return nil
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return a.litRetry(x)
	case *ast.Ident, *ast.SelectorExpr:
		var id *ast.Ident
		if sel, ok := x.(*ast.SelectorExpr); ok {
			id = sel.Sel
		} else {
			id = x.(*ast.Ident)
		}
		switch obj := a.info().ObjectOf(id).(type) {
		case *types.Func:
			if r := a.retryOf(obj); r != nil && r.Param < 0 {
				return r
			}
		case *types.Var:
			if obj.IsField() || obj.Parent() == nil || obj.Parent() == obj.Pkg().Scope() {
				return nil
			}
			if rhs := a.onlyValue(obj); rhs != nil {
				return a.funcValueRetry(rhs, depth+1)
			}
		}
	case *ast.CallExpr:
		if _, ok := a.info().TypeOf(x).Underlying().(*types.Signature); !ok {
			return nil
		}
		for _, arg := range x.Args {
			if _, ok := a.info().TypeOf(arg).Underlying().(*types.Signature); !ok {
				continue
			}
			if r := a.funcValueRetry(arg, depth+1); r != nil {
				return r
			}
		}
	}
	return nil
}

// litRetry says how a function literal retries when called: by a retry
// loop of its own, or by a call outside any loop to a function that
// retries.
func (a *checker) litRetry(lit *ast.FuncLit) *RetrySummary {
	for _, l := range a.retries.byFunc[lit] {
		if !l.LocalOS {
			ly := a.layerOf(l)
			return &RetrySummary{Attempts: ly.Attempts, Unbounded: ly.Unbounded, At: ly.At, Param: -1}
		}
	}
	var r *RetrySummary
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.CallExpr:
			if inner, _ := a.retryAt(n); inner != nil && inner.Param < 0 {
				c := *inner
				r = &c
			}
		}
		return r == nil
	})
	return r
}

// onlyValue is the value a local variable is given, when it is written
// once and its address is not taken: retry := func(...) { ... }, or the
// closure handed to a runner.
func (a *checker) onlyValue(v *types.Var) ast.Expr {
	var rhs ast.Expr
	count := 0
	for _, f := range a.pass.Files {
		if f.FileStart > v.Pos() || v.Pos() > f.FileEnd {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					id, ok := ast.Unparen(l).(*ast.Ident)
					if !ok || a.info().ObjectOf(id) != v {
						continue
					}
					count++
					if (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) && len(n.Lhs) == len(n.Rhs) {
						rhs = n.Rhs[i]
					}
				}
			case *ast.ValueSpec:
				// var f func() counts as a write: set again later, it
				// has two values.
				for i, id := range n.Names {
					if a.info().Defs[id] != v {
						continue
					}
					count++
					if len(n.Values) == len(n.Names) {
						rhs = n.Values[i]
					}
				}
			case *ast.UnaryExpr:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && a.info().ObjectOf(id) == v {
					count = 2
				}
			}
			return count < 2
		})
	}
	if count != 1 {
		return nil
	}
	return rhs
}
