package retryloop

import (
	"go/ast"
	"go/types"
)

// readContextCheck reports whether fn is a predicate over a context it is
// given: one bool result, and a body that asks that context whether it
// has ended (ctx.Err(), a receive from ctx.Done()) and calls nothing
// else that could fail.
func (a *checker) readContextCheck(fn *types.Func, decl *ast.FuncDecl) bool {
	sig := fn.Type().(*types.Signature)
	if decl.Body == nil || sig.Results().Len() != 1 || !isBool(sig.Results().At(0).Type()) || len(decl.Body.List) > 4 {
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

// contextCheck reports whether call asks a context predicate, of this
// package or another, whether a context has ended.
func (a *checker) contextCheck(call *ast.CallExpr) bool {
	fn := a.callee(call)
	if fn == nil || !a.takesContext(call) {
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
