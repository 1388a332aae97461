package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
)

// classifyDone splits on a predicate that holds for a nil error too, such
// as skipRetry(err) that returns true on success and on what can never
// succeed: where it holds the attempt may have succeeded (done), where it
// does not the attempt failed and is retried.
func (w *walker) classifyDone(errExpr ast.Expr, in []*path) (t, f []*path) {
	key := w.errKey(errExpr)
	return split(in,
		func(p *path) {
			p.classified, p.guard = true, guardError
			p.breakerExcluded = true
			if fact, ok := p.errs[key]; ok && key != nil && fact.state == errUnknown && !fact.wait {
				p.maybeOK = true
			}
		},
		func(p *path) {
			p.classified, p.guard = true, guardError
			p.maybeOK = false
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
		})
}

// trueForNil reports whether a same-package predicate returns true when
// the error it is given is nil: it starts with `if err == nil { return
// true }`, or returns `err == nil || ...`.
func (a *checker) trueForNil(fn *types.Func, call *ast.CallExpr, errArg ast.Expr) bool {
	if fn == nil || !isBool(a.typeOf(call)) {
		return false
	}
	decl := a.decls[fn.Origin()]
	if decl == nil {
		return false
	}
	params := fieldObjs(a, decl.Type.Params)
	var param types.Object
	for i, arg := range call.Args {
		if arg == errArg && i < len(params) {
			param = params[i]
		}
	}
	if param == nil {
		return false
	}
	v, known := a.evalNilStmts(decl.Body.List, param, 0)
	return known && v
}

// evalNilStmts runs a predicate's statements with its error parameter nil.
func (a *checker) evalNilStmts(list []ast.Stmt, param types.Object, depth int) (result, known bool) {
	if depth > 4 {
		return false, false
	}
	for _, s := range list {
		switch s := s.(type) {
		case *ast.ReturnStmt:
			if len(s.Results) != 1 {
				return false, false
			}
			return a.evalNil(s.Results[0], param)
		case *ast.IfStmt:
			if s.Init != nil {
				return false, false
			}
			c, ok := a.evalNil(s.Cond, param)
			if !ok {
				return false, false
			}
			branch := takenBranch(s, c)
			if len(branch) > 0 {
				if _, ok := branch[len(branch)-1].(*ast.ReturnStmt); ok {
					return a.evalNilStmts(branch, param, depth+1)
				}
				return false, false
			}
		case *ast.DeclStmt, *ast.EmptyStmt:
		default:
			return false, false
		}
	}
	return false, false
}

// evalNil evaluates a boolean expression with the error parameter nil:
// err == nil, err != nil, errors.Is/As(err, ...), !, && and ||.
func (a *checker) evalNil(e ast.Expr, param types.Object) (result, known bool) {
	isParam := func(x ast.Expr) bool {
		id, ok := ast.Unparen(x).(*ast.Ident)
		return ok && a.info().ObjectOf(id) == param
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		switch a.info().ObjectOf(e) {
		case types.Universe.Lookup("true"):
			return true, true
		case types.Universe.Lookup("false"):
			return false, true
		}
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			r, ok := a.evalNil(e.X, param)
			return !r, ok
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			x, ok := a.evalNil(e.X, param)
			if ok && (e.Op == token.LAND && !x || e.Op == token.LOR && x) {
				return x, true
			}
			y, oky := a.evalNil(e.Y, param)
			if oky && (e.Op == token.LAND && !y || e.Op == token.LOR && y) {
				return y, true
			}
			if ok && oky {
				return y, true
			}
		case token.EQL, token.NEQ:
			if isParam(e.X) && isNilIdent(e.Y) || isParam(e.Y) && isNilIdent(e.X) {
				return e.Op == token.EQL, true
			}
		}
	case *ast.CallExpr:
		fn := a.callee(e)
		if (isPkgFunc(fn, "errors", "Is") || isPkgFunc(fn, "errors", "As")) && len(e.Args) == 2 && isParam(e.Args[0]) {
			return false, true // errors.Is(nil, X) is false
		}
	}
	return false, false
}
