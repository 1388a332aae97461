package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
)

// tri is what a test of a code predicate comes to for one code: true,
// false, or neutral — it does not depend on the code (ctx.Err() != nil,
// isTemporary(err)), and counts for nothing.
type tri int8

const (
	neutral tri = iota
	yes
	no
)

func triOf(b bool) tri {
	if b {
		return yes
	}
	return no
}

// codeEnv evaluates the body of a predicate for one status or code. In a
// strict run (a predicate of the code alone) anything it cannot evaluate
// stops the run; in a lenient one (the predicate also takes the failure,
// a context) a test that does not read the code is neutral.
type codeEnv struct {
	a       *checker
	status  types.Object // the parameter holding the status or code
	v       int64
	lenient bool
	ints    map[types.Object]int64
	lists   map[types.Object][]int64
	depth   int
}

func (e *codeEnv) reset(v int64) {
	e.v = v
	e.ints = map[types.Object]int64{}
	if e.lists == nil {
		e.lists = map[types.Object][]int64{}
	}
}

// body runs statements to their return: what the function answers.
func (e *codeEnv) body(list []ast.Stmt) (tri, bool) {
	r, returned, ok := e.stmts(list)
	if !ok || !returned {
		return neutral, false
	}
	return r, true
}

// stmts runs statements; returned reports whether they returned.
func (e *codeEnv) stmts(list []ast.Stmt) (r tri, returned, ok bool) {
	if e.depth > 8 {
		return neutral, false, false
	}
	e.depth++
	defer func() { e.depth-- }()
	repaired := false
	for _, s := range list {
		r, returned, ok = e.stmt(s)
		if _, isReturn := s.(*ast.ReturnStmt); isReturn && repaired && r == yes {
			// A token refreshed, a client rebuilt before the answer: the
			// next try is not the same request, whatever the status.
			r = neutral
		}
		if !ok || returned {
			return r, returned, ok
		}
		repaired = repaired || e.a.repairs(s)
	}
	return neutral, false, true
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

func (e *codeEnv) stmt(s ast.Stmt) (r tri, returned, ok bool) {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return e.ret(s)
	case *ast.BlockStmt:
		return e.stmts(s.List)
	case *ast.IfStmt:
		if s.Init != nil {
			if _, _, ok := e.stmt(s.Init); !ok {
				return neutral, false, false
			}
		}
		c, ok := e.boolExpr(s.Cond)
		if !ok {
			return neutral, false, false
		}
		if c == yes {
			return e.stmts(s.Body.List)
		}
		if s.Else != nil {
			return e.stmt(s.Else)
		}
		return neutral, false, true
	case *ast.SwitchStmt:
		return e.switchStmt(s)
	case *ast.RangeStmt:
		return e.rangeStmt(s)
	case *ast.AssignStmt:
		// code := resp.StatusCode: a name for the code, or for a value
		// of its own.
		if len(s.Lhs) == len(s.Rhs) && (s.Tok == token.DEFINE || s.Tok == token.ASSIGN) {
			for i, l := range s.Lhs {
				id, isIdent := l.(*ast.Ident)
				if !isIdent {
					continue
				}
				obj := e.a.info().ObjectOf(id)
				if n, known := e.intExpr(s.Rhs[i]); known && obj != nil {
					e.ints[obj] = n
				} else if obj != nil {
					delete(e.ints, obj)
				}
			}
		}
		return neutral, false, e.lenient
	}
	return neutral, false, e.lenient
}

// ret reads the answer of a return: its one bool, or the first bool of
// (retry bool, err error), or that of the helper whose answer it returns.
func (e *codeEnv) ret(s *ast.ReturnStmt) (tri, bool, bool) {
	switch {
	case len(s.Results) == 1:
		if call, isCall := ast.Unparen(s.Results[0]).(*ast.CallExpr); isCall && !isBool(e.a.typeOf(call)) {
			r, ok := e.call(call)
			return r, true, ok
		}
		r, ok := e.boolExpr(s.Results[0])
		return r, true, ok
	case len(s.Results) > 1 && e.lenient:
		for _, x := range s.Results {
			if isBool(e.a.typeOf(x)) {
				r, ok := e.boolExpr(x)
				return r, true, ok
			}
		}
	}
	return neutral, true, false
}

func (e *codeEnv) switchStmt(s *ast.SwitchStmt) (tri, bool, bool) {
	if s.Init != nil && !e.lenient {
		return neutral, false, false
	}
	var chosen []ast.Stmt
	found := false
	for _, cl := range s.Body.List {
		cc := cl.(*ast.CaseClause)
		for _, x := range cc.List {
			var c tri
			var ok bool
			if s.Tag != nil {
				c, ok = e.compare(s.Tag, token.EQL, x)
			} else {
				c, ok = e.boolExpr(x)
			}
			if !ok {
				return neutral, false, false
			}
			if c == yes && !found {
				chosen, found = cc.Body, true
			}
		}
	}
	if !found {
		for _, cl := range s.Body.List {
			if cc := cl.(*ast.CaseClause); cc.List == nil {
				chosen, found = cc.Body, true
			}
		}
	}
	if !found {
		return neutral, false, true
	}
	return e.stmts(chosen)
}

// rangeStmt runs a loop over a list of codes it knows, element by element.
func (e *codeEnv) rangeStmt(s *ast.RangeStmt) (tri, bool, bool) {
	list, ok := e.list(s.X)
	if !ok {
		return neutral, false, e.lenient
	}
	var val types.Object
	if id, isIdent := s.Value.(*ast.Ident); isIdent && id.Name != "_" {
		val = e.a.info().ObjectOf(id)
	}
	for _, n := range list {
		if val != nil {
			e.ints[val] = n
		}
		r, returned, ok := e.stmts(s.Body.List)
		if !ok || returned {
			return r, returned, ok
		}
	}
	return neutral, false, true
}

func (e *codeEnv) list(x ast.Expr) ([]int64, bool) {
	if id, isIdent := ast.Unparen(x).(*ast.Ident); isIdent {
		if l, known := e.lists[e.a.info().ObjectOf(id)]; known {
			return l, true
		}
	}
	return e.a.intList(x)
}

func (e *codeEnv) unknown() (tri, bool) { return neutral, e.lenient }

func (e *codeEnv) boolExpr(x ast.Expr) (tri, bool) {
	if tv := e.a.info().Types[x]; tv.Value != nil && tv.Value.Kind() == constant.Bool {
		return triOf(constant.BoolVal(tv.Value)), true
	}
	switch x := ast.Unparen(x).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			r, ok := e.boolExpr(x.X)
			switch r {
			case yes:
				return no, ok
			case no:
				return yes, ok
			}
			return r, ok
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND, token.LOR:
			l, ok := e.boolExpr(x.X)
			if !ok {
				return neutral, false
			}
			if x.Op == token.LAND && l == no || x.Op == token.LOR && l == yes {
				return l, true
			}
			r, ok := e.boolExpr(x.Y)
			if !ok {
				return neutral, false
			}
			if r == neutral {
				return l, true
			}
			return r, true
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return e.compare(x.X, x.Op, x.Y)
		}
	case *ast.CallExpr:
		return e.call(x)
	}
	return e.unknown()
}

// compare compares the code (or code/k) with a constant; resp == nil is
// false, there being a status.
func (e *codeEnv) compare(x ast.Expr, op token.Token, y ast.Expr) (tri, bool) {
	if isNilIdent(y) || isNilIdent(x) {
		other := x
		if isNilIdent(x) {
			other = y
		}
		if id, isIdent := ast.Unparen(other).(*ast.Ident); isIdent && e.a.info().ObjectOf(id) == e.status {
			switch op {
			case token.EQL:
				return no, true
			case token.NEQ:
				return yes, true
			}
		}
		return e.unknown()
	}
	l, lok := e.intExpr(x)
	r, rok := e.intExpr(y)
	if !lok || !rok {
		return e.unknown()
	}
	switch op {
	case token.EQL:
		return triOf(l == r), true
	case token.NEQ:
		return triOf(l != r), true
	case token.LSS:
		return triOf(l < r), true
	case token.LEQ:
		return triOf(l <= r), true
	case token.GTR:
		return triOf(l > r), true
	case token.GEQ:
		return triOf(l >= r), true
	}
	return e.unknown()
}

func (e *codeEnv) intExpr(x ast.Expr) (int64, bool) {
	if tv := e.a.info().Types[x]; tv.Value != nil && tv.Value.Kind() == constant.Int {
		return constant.Int64Val(tv.Value)
	}
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		obj := e.a.info().ObjectOf(x)
		if obj == e.status {
			return e.v, true
		}
		if n, known := e.ints[obj]; known {
			return n, true
		}
	case *ast.SelectorExpr:
		// shouldRetry(resp *http.Response): resp.StatusCode
		if e.isStatus(x) {
			return e.v, true
		}
	case *ast.BinaryExpr:
		if x.Op == token.QUO {
			l, ok1 := e.intExpr(x.X)
			r, ok2 := e.intExpr(x.Y)
			if ok1 && ok2 && r != 0 {
				return l / r, true
			}
		}
	case *ast.CallExpr:
		if tv := e.a.info().Types[x.Fun]; tv.IsType() && len(x.Args) == 1 {
			return e.intExpr(x.Args[0])
		}
		if e.a.codeOfParam(x, e.status) {
			return e.v, true // status.Code(err), the failure's code
		}
	}
	return 0, false
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
func (e *codeEnv) call(call *ast.CallExpr) (tri, bool) {
	fn := e.a.callee(call)
	if fn == nil {
		return e.unknown()
	}
	if isPkgFunc(fn, "slices", "Contains") && len(call.Args) == 2 {
		if n, ok := e.intExpr(call.Args[1]); ok {
			if list, ok := e.list(call.Args[0]); ok {
				return triOf(slices.Contains(list, n)), true
			}
		}
		return e.unknown()
	}
	cs := e.a.codesOf(fn)
	if cs == nil {
		return e.unknown()
	}
	at := max(cs.Arg, 1) - 1
	if at >= len(call.Args) {
		return e.unknown()
	}
	arg := call.Args[at]
	id, isIdent := ast.Unparen(arg).(*ast.Ident)
	if !e.isStatus(arg) && !(isIdent && e.a.info().ObjectOf(id) == e.status) {
		return e.unknown()
	}
	if cs.Member > 0 {
		if cs.Member > len(call.Args) {
			return e.unknown()
		}
		list, ok := e.list(call.Args[cs.Member-1])
		if !ok {
			return e.unknown()
		}
		for _, n := range list {
			if n == e.v {
				return yes, true
			}
		}
		return no, true
	}
	return triOf(cs.accepts(int(e.v))), true
}
