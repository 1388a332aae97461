package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// canceledText is what context.Canceled.Error() says.
const canceledText = "context canceled"

// canceledSide reports which way a same-package predicate over the failure
// answers for context.Canceled: an operation given the loop's context
// fails with it once the context ends, and a loop that leaves on that
// answer leaves when the context ends. known is false when the predicate
// cannot be read, or its answer depends on more than the error.
func (a *checker) canceledSide(fn *types.Func, call *ast.CallExpr, errArg ast.Expr) (result, known bool) {
	if fn == nil || !isBool(a.typeOf(call)) {
		return false, false
	}
	param := a.errParam(fn, call, errArg)
	if param == nil {
		return false, false
	}
	return a.evalCanceledStmts(a.decls[fn.Origin()].Body.List, param, map[types.Object]bool{}, 0)
}

// errParam is the parameter of a same-package fn that call binds to errArg.
func (a *checker) errParam(fn *types.Func, call *ast.CallExpr, errArg ast.Expr) types.Object {
	decl := a.decls[fn.Origin()]
	if decl == nil || decl.Body == nil {
		return nil
	}
	params := fieldObjs(a, decl.Type.Params)
	for i, arg := range call.Args {
		if arg == errArg && i < len(params) {
			return params[i]
		}
	}
	return nil
}

// evalCanceledStmts runs a predicate's statements with its error parameter
// context.Canceled; local booleans computed on the way are remembered.
func (a *checker) evalCanceledStmts(list []ast.Stmt, param types.Object, env map[types.Object]bool, depth int) (result, known bool) {
	if depth > 4 {
		return false, false
	}
	for _, s := range list {
		switch s := s.(type) {
		case *ast.ReturnStmt:
			if len(s.Results) != 1 {
				return false, false
			}
			return a.evalCanceled(s.Results[0], param, env, depth)
		case *ast.IfStmt:
			if s.Init != nil {
				return false, false
			}
			c, ok := a.evalCanceled(s.Cond, param, env, depth)
			if !ok {
				return false, false
			}
			if branch := takenBranch(s, c); len(branch) > 0 {
				if _, ok := branch[len(branch)-1].(*ast.ReturnStmt); !ok {
					return false, false
				}
				return a.evalCanceledStmts(branch, param, env, depth+1)
			}
		case *ast.AssignStmt:
			if s.Tok != token.DEFINE || len(s.Lhs) != len(s.Rhs) {
				return false, false
			}
			for i, lhs := range s.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok {
					return false, false
				}
				obj := a.info().Defs[id]
				if obj == nil || !isBool(obj.Type()) {
					continue // a target for errors.As, a copy: not an answer
				}
				if v, ok := a.evalCanceled(s.Rhs[i], param, env, depth); ok {
					env[obj] = v
				}
			}
		case *ast.DeclStmt, *ast.EmptyStmt:
		default:
			return false, false
		}
	}
	return false, false
}

// evalCanceled evaluates a boolean expression with the error parameter
// context.Canceled: comparisons with nil and sentinels, errors.Is and
// errors.As, tests of its text, other same-package predicates, !, && and
// ||.
func (a *checker) evalCanceled(e ast.Expr, param types.Object, env map[types.Object]bool, depth int) (result, known bool) {
	isParam := func(x ast.Expr) bool {
		id, ok := ast.Unparen(x).(*ast.Ident)
		return ok && a.info().ObjectOf(id) == param
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj := a.info().ObjectOf(e)
		switch obj {
		case types.Universe.Lookup("true"):
			return true, true
		case types.Universe.Lookup("false"):
			return false, true
		}
		v, ok := env[obj]
		return v, ok
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			r, ok := a.evalCanceled(e.X, param, env, depth)
			return !r, ok
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			x, okx := a.evalCanceled(e.X, param, env, depth)
			if okx && (e.Op == token.LAND && !x || e.Op == token.LOR && x) {
				return x, true
			}
			y, oky := a.evalCanceled(e.Y, param, env, depth)
			if oky && (e.Op == token.LAND && !y || e.Op == token.LOR && y) {
				return y, true
			}
			return y, okx && oky
		case token.EQL, token.NEQ:
			x, y := e.X, e.Y
			if isParam(y) {
				x, y = y, x
			}
			if isParam(x) {
				if same, ok := a.isCanceled(y); ok {
					return same == (e.Op == token.EQL), true
				}
				return false, false
			}
			if s, ok := a.canceledString(x, isParam); ok {
				if lit, ok := a.stringConst(y); ok {
					return (s == lit) == (e.Op == token.EQL), true
				}
			}
		}
	case *ast.CallExpr:
		fn := a.callee(e)
		switch {
		case isPkgFunc(fn, "errors", "Is") && len(e.Args) == 2 && isParam(e.Args[0]):
			same, ok := a.isCanceled(e.Args[1])
			return same, ok
		case isPkgFunc(fn, "errors", "As") && len(e.Args) == 2 && isParam(e.Args[0]):
			return a.canceledAs(e.Args[1])
		case fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "strings" && len(e.Args) == 2:
			s, ok := a.canceledString(e.Args[0], isParam)
			lit, okl := a.stringConst(e.Args[1])
			if !ok || !okl {
				return false, false
			}
			switch fn.Name() {
			case "Contains":
				return strings.Contains(s, lit), true
			case "HasPrefix":
				return strings.HasPrefix(s, lit), true
			case "HasSuffix":
				return strings.HasSuffix(s, lit), true
			case "EqualFold":
				return strings.EqualFold(s, lit), true
			}
		case fn != nil && fn.Pkg() == a.pass.Pkg && len(e.Args) == 1 && isParam(e.Args[0]) && isBool(a.typeOf(e)):
			if inner := a.errParam(fn, e, e.Args[0]); inner != nil {
				return a.evalCanceledStmts(a.decls[fn.Origin()].Body.List, inner, map[types.Object]bool{}, depth+1)
			}
		}
	}
	return false, false
}

// isCanceled reports whether an error expression is context.Canceled;
// known is false unless it is a package-level error variable or nil.
func (a *checker) isCanceled(e ast.Expr) (same, known bool) {
	if isNilIdent(e) {
		return false, true
	}
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return false, false
	}
	v, ok := a.info().ObjectOf(id).(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !isError(v.Type()) {
		return false, false
	}
	return v.Pkg().Path() == "context" && v.Name() == "Canceled", true
}

// canceledAs answers errors.As(context.Canceled, target): only an
// interface that asks for nothing but Error matches its plain error value.
func (a *checker) canceledAs(target ast.Expr) (result, known bool) {
	ptr, ok := types.Unalias(a.typeOf(target)).(*types.Pointer)
	if !ok {
		return false, false
	}
	iface, ok := ptr.Elem().Underlying().(*types.Interface)
	if !ok {
		return false, true // a concrete error type: context.Canceled is none of them
	}
	for i := range iface.NumMethods() {
		if iface.Method(i).Name() != "Error" {
			return false, true
		}
	}
	return true, true
}

// canceledString is the text of the error parameter, for err.Error().
func (a *checker) canceledString(e ast.Expr, isParam func(ast.Expr) bool) (string, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return "", false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Error" || !isParam(sel.X) {
		return "", false
	}
	return canceledText, true
}

// stringConst is the value of a constant string expression.
func (a *checker) stringConst(e ast.Expr) (string, bool) {
	if v := a.info().Types[e].Value; v != nil && v.Kind() == constant.String {
		return constant.StringVal(v), true
	}
	return "", false
}

// ctxExit marks the paths a failure of context.Canceled takes, when the
// operation that failed was given a context: there the loop sees its
// context end, and leaving there is its context exit.
func (w *walker) ctxExit(fn *types.Func, call *ast.CallExpr, errArg ast.Expr, t, f []*path) {
	side, known := w.a.canceledSide(fn, call, errArg)
	if !known {
		return
	}
	key := w.errKey(errArg)
	if key == nil {
		return
	}
	paths := f
	if side {
		paths = t
	}
	for _, p := range paths {
		if fact, ok := p.errs[key]; ok && fact.op != nil && w.a.takesContext(fact.op) {
			p.ctxExit = true
		}
	}
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
