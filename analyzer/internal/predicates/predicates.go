// Package predicates runs the body of a retry predicate — a function handed
// one failure that answers whether to try again — for one failure at a
// time, and tells its answer. It is the one evaluator of predicates that
// the retry-loop model (a project's isRetryable(code int) bool) and the
// readers of retry libraries (a CheckRetry policy, an OnError retriable, an
// AWS IsErrorRetryable) share: each describes the failure through hooks
// and chooses what a condition it cannot decide means.
package predicates

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// Truth is a truth value that may be unknown.
type Truth int8

const (
	Unknown Truth = iota
	False
	True
)

// Of is the truth of b.
func Of(b bool) Truth {
	if b {
		return True
	}
	return False
}

// Not is the negation; unknown stays unknown.
func (a Truth) Not() Truth {
	switch a {
	case True:
		return False
	case False:
		return True
	}
	return Unknown
}

// And is false when either side is, true when both are, else unknown.
func (a Truth) And(b Truth) Truth {
	switch {
	case a == False || b == False:
		return False
	case a == True && b == True:
		return True
	}
	return Unknown
}

// Or is true when either side is, false when both are, else unknown.
func (a Truth) Or(b Truth) Truth { return a.Not().And(b.Not()).Not() }

// Undecided says what a run does with a condition it cannot decide.
type Undecided int8

const (
	// Fork runs both branches of an undecided condition; where their
	// answers differ the answer is unknown. For a policy run for one
	// failure, whose other inputs are free.
	Fork Undecided = iota
	// Skip takes an undecided condition as one that does not depend on
	// the failure and counts for nothing: its branch is not taken, and
	// && and || answer with their other side. For a predicate that also
	// reads a context or an attempt count beside the failure.
	Skip
	// Stop ends the run without an answer at anything it cannot decide:
	// a statement it does not know, a condition, a return. For a
	// predicate of the failure alone, which must decide from it.
	Stop
)

// maxDepth bounds the statements nested or chained in one run.
const maxDepth = 64

// Run evaluates a predicate's body for one failure. The hooks describe
// the failure; each may be nil.
type Run struct {
	Info      *types.Info
	Undecided Undecided
	// Value is the failure's value of an expression (resp.StatusCode is
	// 404), or nil.
	Value func(ast.Expr) constant.Value
	// Truth is the failure's truth of a boolean expression
	// (apierrors.IsNotFound(err) holds, err != nil), or Unknown.
	Truth func(ast.Expr) Truth
	// Answer reads a return statement as "retry" or not; nil reads its
	// first result as a bool.
	Answer func(*ast.ReturnStmt) Truth
	// List is the known list of values a range statement walks.
	List func(ast.Expr) ([]constant.Value, bool)
	// Repairs reports whether a statement changes what the next try
	// sends (a token refreshed, a client rebuilt): a "retry" answered
	// after it does not depend on the failure alone, and is unknown.
	Repairs func(ast.Stmt) bool
	// Follow gives the one value a local variable is ever set to, or
	// the expression itself.
	Follow func(ast.Expr) ast.Expr
	// Free reports, in a Fork run, whether an undecided condition is
	// free of the failure (mutate(obj), a flag): some run takes each
	// branch, so the answer is true when either branch answers true.
	Free func(ast.Expr) bool

	vars     map[types.Object]constant.Value
	repaired bool
	stopped  bool
	depth    int
}

// Body runs stmts to their first return and gives its answer; returned
// is false when no return was reached or the run stopped.
func (r *Run) Body(stmts []ast.Stmt) (answer Truth, returned bool) {
	r.vars, r.repaired, r.stopped, r.depth = nil, false, false, 0
	v, returned := r.exec(stmts, nil)
	if r.stopped {
		return Unknown, false
	}
	return v, returned
}

// stop records, in a Stop run, that the run cannot decide.
func (r *Run) stop() {
	if r.Undecided == Stop {
		r.stopped = true
	}
}

// fork runs one branch with its own copy of the state so far.
func (r *Run) fork(run func() (Truth, bool)) (Truth, bool) {
	vars, repaired := r.vars, r.repaired
	r.vars = make(map[types.Object]constant.Value, len(vars))
	for k, v := range vars {
		r.vars[k] = v
	}
	defer func() { r.vars, r.repaired = vars, repaired }()
	return run()
}

// exec runs stmts then rest; returned reports whether a return
// statement was reached.
func (r *Run) exec(stmts, rest []ast.Stmt) (v Truth, returned bool) {
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > maxDepth {
		r.stop()
		return Unknown, true
	}
	for i, st := range stmts {
		if r.stopped {
			return Unknown, true
		}
		after := func() []ast.Stmt { return append(append([]ast.Stmt{}, stmts[i+1:]...), rest...) }
		switch st := st.(type) {
		case *ast.ReturnStmt:
			return r.answer(st), true
		case *ast.BlockStmt:
			return r.exec(st.List, after())
		case *ast.IfStmt:
			return r.ifStmt(st, after())
		case *ast.SwitchStmt:
			return r.switchStmt(st, after())
		case *ast.RangeStmt:
			if v, returned, ok := r.rangeStmt(st); ok && returned {
				return v, true
			}
		case *ast.AssignStmt, *ast.DeclStmt:
			r.assign(st)
		case *ast.EmptyStmt:
		default:
			r.stop()
		}
		if r.Repairs != nil && r.Repairs(st) {
			r.repaired = true
		}
	}
	if len(rest) > 0 {
		return r.exec(rest, nil)
	}
	return Unknown, false
}

// answer reads a return statement.
func (r *Run) answer(st *ast.ReturnStmt) Truth {
	var v Truth
	switch {
	case r.Answer != nil:
		v = r.Answer(st)
	case len(st.Results) > 0:
		v = r.Bool(st.Results[0])
	}
	if v == Unknown {
		r.stop()
	}
	if v == True && r.repaired {
		return Unknown
	}
	return v
}

func (r *Run) ifStmt(st *ast.IfStmt, after []ast.Stmt) (Truth, bool) {
	if st.Init != nil {
		r.exec([]ast.Stmt{st.Init}, nil)
	}
	var elseList []ast.Stmt
	switch e := st.Else.(type) {
	case *ast.BlockStmt:
		elseList = e.List
	case *ast.IfStmt:
		elseList = []ast.Stmt{e}
	}
	c := r.Bool(st.Cond)
	if c == Unknown && r.Undecided != Fork {
		c = False
	}
	switch c {
	case True:
		return r.exec(st.Body.List, after)
	case False:
		return r.exec(elseList, after)
	}
	a, _ := r.fork(func() (Truth, bool) { return r.exec(st.Body.List, after) })
	b, _ := r.fork(func() (Truth, bool) { return r.exec(elseList, after) })
	switch {
	case a == b:
		return a, true
	case r.Free != nil && r.Free(st.Cond):
		return a.Or(b), true
	}
	return Unknown, true
}

func (r *Run) switchStmt(st *ast.SwitchStmt, after []ast.Stmt) (Truth, bool) {
	if st.Init != nil {
		r.exec([]ast.Stmt{st.Init}, nil)
	}
	var def *ast.CaseClause
	var forked []Truth
	for _, c := range st.Body.List {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			def = cc
			continue
		}
		m := False
		for _, e := range cc.List {
			var t Truth
			if st.Tag == nil {
				t = r.Bool(e)
			} else {
				t = r.equal(st.Tag, e)
				if t == Unknown {
					r.stop()
				}
			}
			if t == Unknown && r.Undecided != Fork {
				t = False
			}
			if t == True {
				m = True
				break
			}
			if t == Unknown {
				m = Unknown
			}
		}
		switch m {
		case True:
			v, _ := r.exec(cc.Body, after)
			return merge(forked, v), true
		case Unknown:
			v, _ := r.fork(func() (Truth, bool) { return r.exec(cc.Body, after) })
			forked = append(forked, v)
		}
	}
	var v Truth
	returned := true
	if def != nil {
		v, returned = r.exec(def.Body, after)
	} else {
		v, returned = r.exec(after, nil)
	}
	if len(forked) > 0 {
		return merge(forked, v), true
	}
	return v, returned
}

// merge is v when every forked answer agrees with it, else unknown.
func merge(forked []Truth, v Truth) Truth {
	for _, a := range forked {
		if a != v {
			return Unknown
		}
	}
	return v
}

// rangeStmt runs a loop over a known list, element by element; ok is
// false when the list is not known, and the loop is passed over.
func (r *Run) rangeStmt(st *ast.RangeStmt) (v Truth, returned, ok bool) {
	var list []constant.Value
	if r.List != nil {
		list, ok = r.List(st.X)
	}
	if !ok {
		r.stop()
		return Unknown, false, false
	}
	var elem types.Object
	if id, isIdent := st.Value.(*ast.Ident); isIdent && id.Name != "_" {
		elem = r.Info.ObjectOf(id)
	}
	for _, x := range list {
		if elem != nil {
			r.set(elem, x)
		}
		if v, returned := r.exec(st.Body.List, nil); returned || r.stopped {
			return v, true, true
		}
	}
	return Unknown, false, true
}

func (r *Run) set(obj types.Object, v constant.Value) {
	if obj == nil {
		return
	}
	if v == nil || v.Kind() == constant.Unknown {
		delete(r.vars, obj)
		return
	}
	if r.vars == nil {
		r.vars = map[types.Object]constant.Value{}
	}
	r.vars[obj] = v
}

// assign records what a statement sets local variables to.
func (r *Run) assign(st ast.Stmt) {
	switch st := st.(type) {
	case *ast.AssignStmt:
		if len(st.Lhs) != len(st.Rhs) || st.Tok != token.ASSIGN && st.Tok != token.DEFINE {
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					r.set(r.Info.ObjectOf(id), nil)
				}
			}
			return
		}
		for i, l := range st.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				r.set(r.Info.ObjectOf(id), r.eval(st.Rhs[i]))
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
				obj := r.Info.Defs[id]
				switch {
				case len(vs.Values) == len(vs.Names):
					r.set(obj, r.eval(vs.Values[i]))
				case len(vs.Values) == 0 && obj != nil:
					r.set(obj, zero(obj.Type()))
				}
			}
		}
	}
}

// eval is the value of a bool or constant expression in the run, or nil.
func (r *Run) eval(e ast.Expr) constant.Value {
	if tv, ok := r.Info.Types[e]; ok && tv.Type != nil && isBool(tv.Type) {
		switch r.Bool(e) {
		case True:
			return constant.MakeBool(true)
		case False:
			return constant.MakeBool(false)
		}
		return nil
	}
	return r.Val(e)
}

// zero is the zero value of a bool or a number, or nil.
func zero(t types.Type) constant.Value {
	b, ok := t.Underlying().(*types.Basic)
	switch {
	case !ok:
		return nil
	case b.Info()&types.IsBoolean != 0:
		return constant.MakeBool(false)
	case b.Info()&types.IsInteger != 0:
		return constant.MakeInt64(0)
	}
	return nil
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// Bool is the truth of a condition in the run.
func (r *Run) Bool(e ast.Expr) Truth {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		if v, ok := r.vars[r.Info.ObjectOf(id)]; ok && v.Kind() == constant.Bool {
			return Of(constant.BoolVal(v))
		}
	}
	if r.Truth != nil {
		if t := r.Truth(e); t != Unknown {
			return t
		}
	}
	if v := r.Val(e); v != nil && v.Kind() == constant.Bool {
		return Of(constant.BoolVal(v))
	}
	t := r.structure(e)
	if t == Unknown {
		r.stop()
	}
	return t
}

func (r *Run) structure(e ast.Expr) Truth {
	switch x := e.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return r.Bool(x.X).Not()
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND, token.LOR:
			return r.logic(x)
		case token.EQL:
			return r.equal(x.X, x.Y)
		case token.NEQ:
			return r.equal(x.X, x.Y).Not()
		case token.LSS, token.LEQ, token.GTR, token.GEQ:
			a, b := r.Val(x.X), r.Val(x.Y)
			if !known(a) || !known(b) || a.Kind() == constant.Bool || b.Kind() == constant.Bool {
				return Unknown
			}
			return Of(constant.Compare(a, x.Op, b))
		}
	case *ast.Ident:
		if r.Follow != nil {
			if f := r.Follow(x); f != ast.Expr(x) {
				return r.Bool(f)
			}
		}
	}
	return Unknown
}

// logic is && and ||, short-circuit: the right side is not run when
// the left decides. In a Skip run an undecided side counts for nothing.
func (r *Run) logic(x *ast.BinaryExpr) Truth {
	decides := False
	if x.Op == token.LOR {
		decides = True
	}
	l := r.Bool(x.X)
	if l == decides || r.stopped {
		return l
	}
	rt := r.Bool(x.Y)
	if r.Undecided == Skip {
		if rt == Unknown {
			return l
		}
		if l == Unknown {
			return rt
		}
	}
	if x.Op == token.LAND {
		return l.And(rt)
	}
	return l.Or(rt)
}

func known(v constant.Value) bool { return v != nil && v.Kind() != constant.Unknown }

// equal compares two values in the run: false for values of different
// kinds.
func (r *Run) equal(a, b ast.Expr) Truth {
	x, y := r.Val(a), r.Val(b)
	if !known(x) || !known(y) {
		return Unknown
	}
	if x.Kind() != y.Kind() && !(isNumeric(x) && isNumeric(y)) {
		return False
	}
	return Of(constant.Compare(x, token.EQL, y))
}

func isNumeric(v constant.Value) bool {
	return v.Kind() == constant.Int || v.Kind() == constant.Float
}

// Val is the constant value of e in the run, or nil.
func (r *Run) Val(e ast.Expr) constant.Value {
	e = ast.Unparen(e)
	if r.Value != nil {
		if v := r.Value(e); v != nil {
			return v
		}
	}
	if tv, ok := r.Info.Types[e]; ok && tv.Value != nil {
		return tv.Value
	}
	switch x := e.(type) {
	case *ast.Ident:
		if v, ok := r.vars[r.Info.ObjectOf(x)]; ok {
			return v
		}
		if r.Follow != nil {
			if f := r.Follow(x); f != ast.Expr(x) {
				return r.Val(f)
			}
		}
	case *ast.CallExpr:
		// int(code), time.Duration(n): a conversion keeps the value.
		if tv := r.Info.Types[x.Fun]; tv.IsType() && len(x.Args) == 1 {
			if v := r.Val(x.Args[0]); known(v) && isNumeric(v) {
				return v
			}
		}
	case *ast.BinaryExpr:
		return r.arith(x)
	}
	return nil
}

// arith is integer arithmetic on known values: code/100.
func (r *Run) arith(x *ast.BinaryExpr) constant.Value {
	op := x.Op
	switch op {
	case token.ADD, token.SUB, token.MUL, token.REM:
	case token.QUO:
		op = token.QUO_ASSIGN // integer division
	default:
		return nil
	}
	a, b := r.Val(x.X), r.Val(x.Y)
	if !known(a) || !known(b) || a.Kind() != constant.Int || b.Kind() != constant.Int {
		return nil
	}
	if (op == token.QUO_ASSIGN || op == token.REM) && constant.Sign(b) == 0 {
		return nil
	}
	return constant.BinaryOp(a, op, b)
}
