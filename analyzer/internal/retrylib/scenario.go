package retrylib

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// This file runs a small predicate given to a library — a CheckRetry
// policy, an OnError retriable, a wait condition, an AWS IsErrorRetryable
// — for one kind of failure at a time, to tell which failures it retries.

// tri is a truth value that may be unknown.
type tri int8

const (
	triUnknown tri = iota
	triFalse
	triTrue
)

func triOf(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

func (a tri) not() tri {
	switch a {
	case triTrue:
		return triFalse
	case triFalse:
		return triTrue
	}
	return triUnknown
}

// and is false when either side is, true when both are, else unknown.
func (a tri) and(b tri) tri {
	switch {
	case a == triFalse || b == triFalse:
		return triFalse
	case a == triTrue && b == triTrue:
		return triTrue
	}
	return triUnknown
}

// or is true when either side is, false when both are, else unknown.
func (a tri) or(b tri) tri { return a.not().and(b.not()).not() }

// scenario runs a small predicate (a CheckRetry policy, an OnError
// retriable, an AWS IsErrorRetryable) for one kind of failure and tells
// whether the predicate retries it. The hooks describe the failure: value
// gives the constant an expression has in it (resp.StatusCode is 404),
// truth the truth of a boolean atom (apierrors.IsNotFound(err) holds), and
// verdict reads a returned value as "retry" or not.
type scenario struct {
	t       *reader
	value   func(ast.Expr) constant.Value
	truth   func(ast.Expr) tri
	verdict func(ast.Expr) tri
	// onReturn, when set, reads a whole return statement instead of
	// verdict reading its first result.
	onReturn func(*ast.ReturnStmt) tri
	// env holds the bool variables set on the path run so far
	// (shouldRetry = true).
	env   map[string]tri
	depth int
}

// fork runs one branch with its own copy of the variables set so far.
func (s *scenario) fork(run func() (tri, bool)) (tri, bool) {
	saved := s.env
	s.env = make(map[string]tri, len(saved))
	for k, v := range saved {
		s.env[k] = v
	}
	defer func() { s.env = saved }()
	return run()
}

// assign records what a statement sets a bool variable to.
func (s *scenario) assign(st ast.Stmt) {
	set := func(id *ast.Ident, v ast.Expr) {
		if s.env == nil {
			s.env = map[string]tri{}
		}
		if tv, ok := s.t.info.Types[v]; ok && tv.Type != nil && types.Identical(tv.Type.Underlying(), types.Typ[types.Bool]) {
			s.env[id.Name] = s.eval(v)
			return
		}
		delete(s.env, id.Name)
	}
	switch st := st.(type) {
	case *ast.AssignStmt:
		if len(st.Lhs) != len(st.Rhs) {
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok && s.env != nil {
					delete(s.env, id.Name)
				}
			}
			return
		}
		for i, l := range st.Lhs {
			if id, ok := l.(*ast.Ident); ok && (st.Tok == token.ASSIGN || st.Tok == token.DEFINE) {
				set(id, st.Rhs[i])
			}
		}
	case *ast.DeclStmt:
		gd, ok := st.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, id := range vs.Names {
				switch {
				case len(vs.Values) == len(vs.Names):
					set(id, vs.Values[i])
				case len(vs.Values) == 0:
					if obj := s.t.info.Defs[id]; obj != nil && types.Identical(obj.Type().Underlying(), types.Typ[types.Bool]) {
						if s.env == nil {
							s.env = map[string]tri{}
						}
						s.env[id.Name] = triFalse
					}
				}
			}
		}
	}
}

// retries runs the body of a predicate: the verdict of the first return
// statement reached, or unknown.
func (s *scenario) retries(body *ast.BlockStmt) tri {
	if body == nil {
		return triUnknown
	}
	v, _ := s.exec(body.List, nil)
	return v
}

// exec runs stmts then rest; returned reports whether a return statement
// was reached.
func (s *scenario) exec(stmts, rest []ast.Stmt) (v tri, returned bool) {
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > 64 {
		return triUnknown, true
	}
	for i, st := range stmts {
		after := append(append([]ast.Stmt{}, stmts[i+1:]...), rest...)
		switch st := st.(type) {
		case *ast.ReturnStmt:
			if s.onReturn != nil {
				return s.onReturn(st), true
			}
			if len(st.Results) == 0 {
				return triUnknown, true
			}
			return s.verdict(st.Results[0]), true
		case *ast.BlockStmt:
			return s.exec(st.List, after)
		case *ast.AssignStmt, *ast.DeclStmt:
			s.assign(st)
		case *ast.IfStmt:
			if st.Init != nil {
				s.assign(st.Init)
			}
			var elseList []ast.Stmt
			switch e := st.Else.(type) {
			case *ast.BlockStmt:
				elseList = e.List
			case *ast.IfStmt:
				elseList = []ast.Stmt{e}
			}
			switch s.eval(st.Cond) {
			case triTrue:
				return s.exec(st.Body.List, after)
			case triFalse:
				return s.exec(elseList, after)
			}
			a, _ := s.fork(func() (tri, bool) { return s.exec(st.Body.List, after) })
			b, _ := s.fork(func() (tri, bool) { return s.exec(elseList, after) })
			if a == b {
				return a, true
			}
			return triUnknown, true
		case *ast.SwitchStmt:
			return s.switchStmt(st, after)
		}
	}
	if len(rest) > 0 {
		return s.exec(rest, nil)
	}
	return triUnknown, false
}

func (s *scenario) switchStmt(st *ast.SwitchStmt, after []ast.Stmt) (tri, bool) {
	var def *ast.CaseClause
	var unknown []tri
	for _, c := range st.Body.List {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			def = cc
			continue
		}
		m := triFalse
		for _, e := range cc.List {
			var r tri
			if st.Tag == nil {
				r = s.eval(e)
			} else {
				r = s.equal(st.Tag, e)
			}
			if r == triTrue {
				m = triTrue
				break
			}
			if r == triUnknown {
				m = triUnknown
			}
		}
		switch m {
		case triTrue:
			v, _ := s.exec(cc.Body, after)
			return s.merge(unknown, v), true
		case triUnknown:
			v, _ := s.fork(func() (tri, bool) { return s.exec(cc.Body, after) })
			unknown = append(unknown, v)
		}
	}
	var v tri
	if def != nil {
		v, _ = s.exec(def.Body, after)
	} else {
		v, _ = s.exec(after, nil)
	}
	return s.merge(unknown, v), true
}

func (s *scenario) merge(alts []tri, v tri) tri {
	for _, a := range alts {
		if a != v {
			return triUnknown
		}
	}
	return v
}

// eval evaluates a condition in the scenario.
func (s *scenario) eval(e ast.Expr) tri {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		if v, ok := s.env[id.Name]; ok {
			return v
		}
	}
	if s.truth != nil {
		if r := s.truth(e); r != triUnknown {
			return r
		}
	}
	if v := s.val(e); v != nil && v.Kind() == constant.Bool {
		return triOf(constant.BoolVal(v))
	}
	switch x := e.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return s.eval(x.X).not()
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND:
			return s.eval(x.X).and(s.eval(x.Y))
		case token.LOR:
			return s.eval(x.X).or(s.eval(x.Y))
		case token.EQL:
			return s.equal(x.X, x.Y)
		case token.NEQ:
			return s.equal(x.X, x.Y).not()
		case token.LSS, token.LEQ, token.GTR, token.GEQ:
			a, b := s.val(x.X), s.val(x.Y)
			if a == nil || b == nil || a.Kind() == constant.Unknown || b.Kind() == constant.Unknown {
				return triUnknown
			}
			return triOf(constant.Compare(a, x.Op, b))
		}
	case *ast.Ident:
		if r := s.t.sole(x); r != ast.Expr(x) {
			return s.eval(r)
		}
	}
	return triUnknown
}

func (s *scenario) equal(a, b ast.Expr) tri {
	x, y := s.val(a), s.val(b)
	if x == nil || y == nil || x.Kind() == constant.Unknown || y.Kind() == constant.Unknown {
		return triUnknown
	}
	if x.Kind() != y.Kind() && !(isNumeric(x) && isNumeric(y)) {
		return triFalse
	}
	return triOf(constant.Compare(x, token.EQL, y))
}

func isNumeric(v constant.Value) bool {
	return v.Kind() == constant.Int || v.Kind() == constant.Float
}

// val is the constant value of e in the scenario, or nil.
func (s *scenario) val(e ast.Expr) constant.Value {
	e = ast.Unparen(e)
	if s.value != nil {
		if v := s.value(e); v != nil {
			return v
		}
	}
	if tv, ok := s.t.info.Types[e]; ok && tv.Value != nil {
		return tv.Value
	}
	if id, ok := e.(*ast.Ident); ok {
		if r := s.t.sole(id); r != ast.Expr(id) {
			return s.val(r)
		}
	}
	return nil
}

// boolVerdict reads a returned bool: retry when it is true.
func (s *scenario) boolVerdict(e ast.Expr) tri { return s.eval(e) }

// execReturns runs stmts, reading each return statement with read.
func (s *scenario) execReturns(stmts []ast.Stmt, read func(*ast.ReturnStmt) tri) (tri, bool) {
	s.onReturn = read
	defer func() { s.onReturn = nil }()
	return s.exec(stmts, nil)
}

// sole follows a local variable to the one value the function ever gives
// it — for the first of several results of a call, that call — so that a
// predicate reads the same on every path through it; any other
// expression, and a variable given several values, is returned as it is.
func (t *reader) sole(e ast.Expr) ast.Expr {
	for range maxTrace {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return e
		}
		v, ok := t.info.Uses[id].(*types.Var)
		if !ok {
			return e
		}
		value, index, ok := t.soleAssignment(v)
		if !ok || index > 0 {
			return e
		}
		e = value
	}
	return e
}

// soleAssignment returns the one value given to a local variable in the
// function that declares it, with its place among a call's results (-1
// when it is not one of several); ok is false for a package variable, a
// parameter, or a variable given no value or several.
func (t *reader) soleAssignment(v *types.Var) (value ast.Expr, index int, ok bool) {
	if v.Pkg() == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil, -1, false
	}
	body := t.declaringBody(v.Pos())
	if body == nil {
		return nil, -1, false
	}
	n := 0
	t.eachAssignment(body, v, func(_ token.Pos, e ast.Expr, i int) {
		value, index = e, i
		n++
	})
	return value, index, n == 1
}

// soleConst returns the constant value of e, following local variables
// given one value and conversions (time.Duration(n)).
func (t *reader) soleConst(e ast.Expr) constant.Value {
	for range maxTrace {
		if e == nil {
			return nil
		}
		if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
			return tv.Value
		}
		if r := t.sole(e); r != e {
			e = r
			continue
		}
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return nil
		}
		if tv, ok := t.info.Types[call.Fun]; !ok || !tv.IsType() {
			return nil
		}
		e = call.Args[0]
	}
	return nil
}
