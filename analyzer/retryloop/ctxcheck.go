package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
)

// readContextCheck reports whether fn is a predicate over a context: one
// bool result, and a body that asks a context it is given whether it has
// ended (ctx.Err(), a receive from ctx.Done()) and calls nothing else that
// could fail, or that returns true where a context has ended.
func (a *checker) readContextCheck(fn *types.Func, decl *ast.FuncDecl) bool {
	sig := fn.Type().(*types.Signature)
	if decl.Body == nil || sig.Results().Len() != 1 || !isBool(sig.Results().At(0).Type()) {
		return false
	}
	if a.trueWhenDone(decl.Body) {
		return true
	}
	if len(decl.Body.List) > 4 {
		return false
	}
	ctxParams := map[types.Object]bool{}
	for _, p := range fieldObjs(a, decl.Type.Params) {
		if p != nil && isContext(p.Type()) {
			ctxParams[p] = true
		}
	}
	if len(ctxParams) == 0 {
		return false
	}
	asks, other := false, false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Err" || sel.Sel.Name == "Done") {
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && ctxParams[a.info().ObjectOf(id)] {
				asks = true
				return false
			}
		}
		other = true
		return true
	})
	return asks && !other
}

// trueWhenDone reports whether a function with one bool result returns
// true where a context has ended: in a select case on ctx.Done(), or
// under if ctx.Err() != nil. A loop that leaves on that result
// (ctxCanceled := g.failWait(err); if ctxCanceled { return }) stops with
// the context, whichever context the function asks.
func (a *checker) trueWhenDone(body *ast.BlockStmt) bool {
	found := false
	returnsTrue := func(list []ast.Stmt) bool {
		yes := false
		for _, st := range list {
			ast.Inspect(st, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.ReturnStmt:
					if len(n.Results) == 1 {
						if id, ok := ast.Unparen(n.Results[0]).(*ast.Ident); ok && id.Name == "true" && a.info().Uses[id] == types.Universe.Lookup("true") {
							yes = true
						}
					}
				}
				return !yes
			})
		}
		return yes
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CommClause:
			if n.Comm != nil && a.ctxDone(recvOf(n.Comm)) && returnsTrue(n.Body) {
				found = true
			}
		case *ast.IfStmt:
			if mentionsCtxErr(a, n.Cond) && returnsTrue(n.Body.List) {
				found = true
			}
		}
		return true
	})
	return found
}

// mentionsCtxErr reports whether a condition calls Err() on a context.
func mentionsCtxErr(a *checker, e ast.Expr) bool {
	return anyNode(e, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Err" && isContext(a.typeOf(sel.X))
	})
}

// contextCheck reports whether call asks a context predicate, of this
// package or another, whether a context has ended.
func (a *checker) contextCheck(call *ast.CallExpr) bool {
	fn := a.callee(call)
	if fn == nil || !isBool(a.typeOf(call)) {
		return false
	}
	if decl := a.decls[fn.Origin()]; decl != nil {
		return a.readContextCheck(fn, decl)
	}
	s, ok := a.importSummary(fn)
	return ok && s.ContextCheck
}

// takesContext reports whether a call is given a context.Context.
func (a *checker) takesContext(call *ast.CallExpr) bool {
	for _, arg := range call.Args {
		if isContext(a.typeOf(arg)) {
			return true
		}
	}
	return false
}

// setWhenDone reports whether a local bool variable is set in a select
// case that receives from ctx.Done() or a stop channel (chan struct{}):
// a loop that tests it stops when its owner does.
func (w *walker) setWhenDone(id *ast.Ident) bool {
	obj, ok := w.info().ObjectOf(id).(*types.Var)
	if !ok || !isBool(obj.Type()) || obj.Parent() == nil || obj.Parent() == obj.Pkg().Scope() {
		return false
	}
	found := false
	ast.Inspect(w.fc.body, func(n ast.Node) bool {
		cc, ok := n.(*ast.CommClause)
		if found || !ok || cc.Comm == nil {
			return !found
		}
		recv := recvOf(cc.Comm)
		if recv == nil || !w.a.ctxDone(recv) && !isStopChan(w.a.typeOf(recv)) {
			return true
		}
		for _, st := range cc.Body {
			if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
				for _, l := range as.Lhs {
					if lid, ok := l.(*ast.Ident); ok && w.info().Uses[lid] == obj {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// isStopChan reports whether t is a channel of struct{}, the type of a
// stop, quit or done channel.
func isStopChan(t types.Type) bool {
	if t == nil {
		return false
	}
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	st, ok := ch.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}
