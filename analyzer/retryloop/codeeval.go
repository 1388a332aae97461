package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzer/internal/predicates"
)

// codeEnv runs the body of a predicate for one status or code through the
// shared predicate evaluator. In a strict run (a predicate of the code
// alone) anything it cannot decide stops the run; in a lenient one (the
// predicate also takes the failure, a context) a test that does not read
// the code counts for nothing.
type codeEnv struct {
	a       *checker
	status  types.Object // the parameter holding the status or code
	v       int64
	lenient bool
	lists   map[types.Object][]int64
	run     *predicates.Run
}

func (e *codeEnv) reset(v int64) {
	e.v = v
	if e.lists == nil {
		e.lists = map[types.Object][]int64{}
	}
	if e.run == nil {
		e.run = &predicates.Run{
			Info:      e.a.info(),
			Undecided: predicates.Stop,
			Value:     e.value,
			Truth:     e.truth,
			Answer:    e.answer,
			List:      e.list,
			Repairs:   e.a.repairs,
		}
		if e.lenient {
			e.run.Undecided = predicates.Skip
		}
	}
}

// body runs statements to their return: what the function answers.
func (e *codeEnv) body(list []ast.Stmt) (predicates.Truth, bool) {
	return e.run.Body(list)
}

// repairs reports whether a statement does work beside the answer: a
// call whose result it keeps, or one that is not a log line (a function
// taking ...any).
func (a *checker) repairs(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.AssignStmt, *ast.ExprStmt, *ast.DeclStmt:
	default:
		return false
	}
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if tv := a.info().Types[n.Fun]; tv.IsType() || tv.IsBuiltin() {
				return true
			}
			if isPkgFunc(a.callee(n), "time", "Sleep") {
				return true // waiting out a limit changes nothing
			}
			sig, ok := a.typeOf(n.Fun).(*types.Signature)
			if ok && sig.Variadic() {
				if sl, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice); ok && types.IsInterface(sl.Elem()) {
					return true // fs.Debugf(f, "...", err): a log line
				}
			}
			found = true
		}
		return !found
	})
	return found
}

// answer reads a return: its one bool, or the first bool of (retry bool,
// err error), or that of the helper whose answer it returns.
func (e *codeEnv) answer(s *ast.ReturnStmt) predicates.Truth {
	switch {
	case len(s.Results) == 1:
		if call, isCall := ast.Unparen(s.Results[0]).(*ast.CallExpr); isCall && !isBool(e.a.typeOf(call)) {
			return e.call(call)
		}
		return e.run.Bool(s.Results[0])
	case len(s.Results) > 1 && e.lenient:
		for _, x := range s.Results {
			if isBool(e.a.typeOf(x)) {
				return e.run.Bool(x)
			}
		}
	}
	return predicates.Unknown
}

// list is a list of codes a range statement or a membership test walks:
// one the run was handed for a parameter, or a constant table.
func (e *codeEnv) list(x ast.Expr) ([]constant.Value, bool) {
	ns, ok := e.ints(x)
	if !ok {
		return nil, false
	}
	out := make([]constant.Value, len(ns))
	for i, n := range ns {
		out[i] = constant.MakeInt64(n)
	}
	return out, true
}

func (e *codeEnv) ints(x ast.Expr) ([]int64, bool) {
	if id, isIdent := ast.Unparen(x).(*ast.Ident); isIdent {
		if l, known := e.lists[e.a.info().ObjectOf(id)]; known {
			return l, true
		}
	}
	return e.a.intList(x)
}

// truth decides what only the code can: resp == nil is false, there
// being a status; a call of another predicate handed the code.
func (e *codeEnv) truth(x ast.Expr) predicates.Truth {
	switch x := x.(type) {
	case *ast.BinaryExpr:
		if x.Op != token.EQL && x.Op != token.NEQ || !isNilIdent(x.X) && !isNilIdent(x.Y) {
			return predicates.Unknown
		}
		other := x.X
		if isNilIdent(x.X) {
			other = x.Y
		}
		if id, isIdent := ast.Unparen(other).(*ast.Ident); isIdent && e.a.info().ObjectOf(id) == e.status {
			return predicates.Of(x.Op == token.NEQ)
		}
	case *ast.CallExpr:
		return e.call(x)
	}
	return predicates.Unknown
}

// value is the code where an expression reads it: the parameter,
// resp.StatusCode, status.Code(err).
func (e *codeEnv) value(x ast.Expr) constant.Value {
	switch x := x.(type) {
	case *ast.Ident:
		if e.a.info().ObjectOf(x) == e.status {
			return constant.MakeInt64(e.v)
		}
	case *ast.SelectorExpr:
		if e.isStatus(x) {
			return constant.MakeInt64(e.v)
		}
	case *ast.CallExpr:
		if e.a.codeOfParam(x, e.status) {
			return constant.MakeInt64(e.v)
		}
	}
	return nil
}

// isStatus reports whether x is the status of the response being
// evaluated: resp.StatusCode.
func (e *codeEnv) isStatus(x ast.Expr) bool {
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "StatusCode" {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && e.a.info().ObjectOf(id) == e.status
}

// call evaluates a call of another predicate handed the code: by its
// summary, which reads a list it is given as the list of codes it accepts.
func (e *codeEnv) call(call *ast.CallExpr) predicates.Truth {
	fn := e.a.callee(call)
	if fn == nil {
		return predicates.Unknown
	}
	if isPkgFunc(fn, "slices", "Contains") && len(call.Args) == 2 {
		n := e.run.Val(call.Args[1])
		list, ok := e.ints(call.Args[0])
		if n == nil || n.Kind() != constant.Int || !ok {
			return predicates.Unknown
		}
		k, _ := constant.Int64Val(n)
		return predicates.Of(slices.Contains(list, k))
	}
	cs := e.a.codesOf(fn)
	if cs == nil {
		return predicates.Unknown
	}
	at := max(cs.Arg, 1) - 1
	if at >= len(call.Args) {
		return predicates.Unknown
	}
	arg := call.Args[at]
	id, isIdent := ast.Unparen(arg).(*ast.Ident)
	if !e.isStatus(arg) && !(isIdent && e.a.info().ObjectOf(id) == e.status) {
		return predicates.Unknown
	}
	if cs.Member > 0 {
		if cs.Member > len(call.Args) {
			return predicates.Unknown
		}
		list, ok := e.ints(call.Args[cs.Member-1])
		if !ok {
			return predicates.Unknown
		}
		return predicates.Of(slices.Contains(list, e.v))
	}
	return predicates.Of(cs.accepts(int(e.v)))
}
