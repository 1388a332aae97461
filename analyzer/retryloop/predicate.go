package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// codePredicate splits paths on a call to a same-package predicate over an
// HTTP status or gRPC code, such as retryable(resp.StatusCode), by reading
// which codes the predicate returns true for.
func (w *walker) codePredicate(fn *types.Func, call *ast.CallExpr, in []*path) (t, f []*path, ok bool) {
	if fn == nil || len(call.Args) != 1 {
		return nil, nil, false
	}
	arg := call.Args[0]
	grpc := isGRPCCode(w.a.typeOf(arg))
	if !grpc && !w.statusExpr(arg) && !hasStatusCode(w.a.typeOf(arg)) {
		return nil, nil, false
	}
	cs := w.a.codesOf(fn)
	if cs == nil || cs.GRPC != grpc {
		return nil, nil, false
	}
	holds := cs.accepts
	not := func(c int) bool { return !holds(c) }
	t, f = split(in, narrowCodes(holds, grpc), narrowCodes(not, grpc))
	return t, f, true
}

// CodeSummary is what a predicate over one HTTP status or gRPC code
// returns true for, code by code: exported so that retryable(code) reads
// the same in every package.
type CodeSummary struct {
	GRPC bool
	// Accepts is a bit set of the codes (0-599, or 0-16 for gRPC) for
	// which the predicate is true.
	Accepts []uint64
}

func (cs *CodeSummary) accepts(c int) bool {
	return c >= 0 && c/64 < len(cs.Accepts) && cs.Accepts[c/64]&(1<<(c%64)) != 0
}

// codesOf reads a predicate of one parameter over a status or code: its
// body in this package, code by code, or the fact of another package.
func (a *checker) codesOf(fn *types.Func) *CodeSummary {
	fn = fn.Origin()
	if cs, ok := a.codes[fn]; ok {
		return cs
	}
	cs := a.readCodes(fn)
	if a.codes == nil {
		a.codes = make(map[*types.Func]*CodeSummary)
	}
	a.codes[fn] = cs
	return cs
}

func (a *checker) readCodes(fn *types.Func) *CodeSummary {
	decl := a.decls[fn]
	if decl == nil {
		if f := a.summarize(fn).fact; f != nil {
			return f.Codes
		}
		return nil
	}
	sig := fn.Type().(*types.Signature)
	params := fieldObjs(a, decl.Type.Params)
	if len(params) != 1 || params[0] == nil || sig.Results().Len() != 1 || !isBool(sig.Results().At(0).Type()) {
		return nil
	}
	pt := params[0].Type()
	grpc := isGRPCCode(pt)
	if !grpc && !isInteger(pt) && !hasStatusCode(pt) {
		return nil
	}
	limit := 600
	if grpc {
		limit = 17
	}
	cs := &CodeSummary{GRPC: grpc, Accepts: make([]uint64, (limit+63)/64)}
	for c := 0; c < limit; c++ {
		v, known := a.evalPredicate(decl.Body.List, params[0], int64(c), 0)
		if !known {
			return nil
		}
		if v {
			cs.Accepts[c/64] |= 1 << (c % 64)
		}
	}
	return cs
}

// ignoresFailure reports whether fn takes the failure but never reads it:
// shouldRetry(err error) bool { return true }, or a predicate that only
// looks at other state. Calling it classifies nothing.
func (a *checker) ignoresFailure(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	decl := a.decls[fn]
	if decl == nil {
		f := a.summarize(fn).fact
		return f != nil && f.IgnoresFailure
	}
	return a.readIgnoresFailure(fn, decl)
}

func (a *checker) readIgnoresFailure(fn *types.Func, decl *ast.FuncDecl) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() != 1 || !isBool(sig.Results().At(0).Type()) {
		return false
	}
	var failure []types.Object
	unnamed := false
	for i, p := range fieldObjs(a, decl.Type.Params) {
		if t := sig.Params().At(i).Type(); isError(t) || isGRPCCode(t) || hasStatusCode(t) {
			if p == nil || p.Name() == "_" {
				unnamed = true
			} else {
				failure = append(failure, p)
			}
		}
	}
	if len(failure) == 0 {
		return unnamed
	}
	for _, p := range failure {
		if a.mentions(decl.Body, p) {
			return false
		}
	}
	return true
}

// takenBranch returns the statements an if runs when its condition is c:
// its body, its else block or else-if, or none.
func takenBranch(s *ast.IfStmt, c bool) []ast.Stmt {
	switch {
	case c:
		return s.Body.List
	case s.Else == nil:
		return nil
	}
	if b, ok := s.Else.(*ast.BlockStmt); ok {
		return b.List
	}
	return []ast.Stmt{s.Else}
}

// evalPredicate runs a predicate's statements for one value of its
// parameter. known is false when it meets anything it cannot evaluate.
func (a *checker) evalPredicate(stmts []ast.Stmt, param types.Object, v int64, depth int) (result, known bool) {
	if depth > 8 {
		return false, false
	}
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.ReturnStmt:
			if len(s.Results) != 1 {
				return false, false
			}
			return a.evalBool(s.Results[0], param, v)
		case *ast.IfStmt:
			if s.Init != nil {
				return false, false
			}
			c, ok := a.evalBool(s.Cond, param, v)
			if !ok {
				return false, false
			}
			branch := takenBranch(s, c)
			if r, known, done := a.evalBranch(branch, param, v, depth); done {
				return r, known
			}
		case *ast.SwitchStmt:
			if s.Init != nil {
				return false, false
			}
			var chosen []ast.Stmt
			found := false
			for _, cl := range s.Body.List {
				cc := cl.(*ast.CaseClause)
				if cc.List == nil {
					continue
				}
				for _, e := range cc.List {
					var c, ok bool
					if s.Tag != nil {
						c, ok = a.evalCompare(s.Tag, token.EQL, e, param, v)
					} else {
						c, ok = a.evalBool(e, param, v)
					}
					if !ok {
						return false, false
					}
					if c && !found {
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
			if found {
				if r, known, done := a.evalBranch(chosen, param, v, depth); done {
					return r, known
				}
			}
		default:
			return false, false
		}
	}
	return false, false
}

// evalBranch evaluates a branch; done reports whether it returned.
func (a *checker) evalBranch(list []ast.Stmt, param types.Object, v int64, depth int) (result, known, done bool) {
	if len(list) == 0 {
		return false, true, false
	}
	if _, ok := list[len(list)-1].(*ast.ReturnStmt); !ok {
		return false, false, true
	}
	r, k := a.evalPredicate(list, param, v, depth+1)
	return r, k, true
}

func (a *checker) evalBool(e ast.Expr, param types.Object, v int64) (result, known bool) {
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
			r, ok := a.evalBool(e.X, param, v)
			return !r, ok
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			x, ok := a.evalBool(e.X, param, v)
			if !ok {
				return false, false
			}
			if e.Op == token.LAND && !x || e.Op == token.LOR && x {
				return x, true
			}
			return a.evalBool(e.Y, param, v)
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return a.evalCompare(e.X, e.Op, e.Y, param, v)
		}
	}
	return false, false
}

// evalCompare compares the parameter (or param/k) with a constant.
func (a *checker) evalCompare(x ast.Expr, op token.Token, y ast.Expr, param types.Object, v int64) (result, known bool) {
	lv, lok := a.evalInt(x, param, v)
	rv, rok := a.evalInt(y, param, v)
	if !lok || !rok {
		return false, false
	}
	switch op {
	case token.EQL:
		return lv == rv, true
	case token.NEQ:
		return lv != rv, true
	case token.LSS:
		return lv < rv, true
	case token.LEQ:
		return lv <= rv, true
	case token.GTR:
		return lv > rv, true
	case token.GEQ:
		return lv >= rv, true
	}
	return false, false
}

func (a *checker) evalInt(e ast.Expr, param types.Object, v int64) (int64, bool) {
	if tv := a.info().Types[e]; tv.Value != nil && tv.Value.Kind() == constant.Int {
		return constant.Int64Val(tv.Value)
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if a.info().ObjectOf(e) == param {
			return v, true
		}
	case *ast.SelectorExpr:
		// shouldRetry(resp *http.Response): resp.StatusCode
		if id, ok := ast.Unparen(e.X).(*ast.Ident); ok && a.info().ObjectOf(id) == param && e.Sel.Name == "StatusCode" {
			return v, true
		}
	case *ast.BinaryExpr:
		if e.Op == token.QUO {
			x, ok1 := a.evalInt(e.X, param, v)
			y, ok2 := a.evalInt(e.Y, param, v)
			if ok1 && ok2 && y != 0 {
				return x / y, true
			}
		}
	case *ast.CallExpr:
		if tv := a.info().Types[e.Fun]; tv.IsType() && len(e.Args) == 1 {
			return a.evalInt(e.Args[0], param, v)
		}
	}
	return 0, false
}

// predicateRetriesBreaker reports whether a same-package predicate returns
// true for a circuit-breaker-open error: a return or an if condition that
// tests for it without negation, with a true outcome.
func (a *checker) predicateRetriesBreaker(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	decl := a.decls[fn.Origin()]
	if decl == nil {
		return false
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if a.testsBreakerOpen(r, false) {
					found = true
				}
			}
		case *ast.IfStmt:
			if a.testsBreakerOpen(n.Cond, false) && returnsTrue(a, n.Body) {
				found = true
			}
		}
		return !found
	})
	return found
}

// testsBreakerOpen reports whether e holds when the error is a breaker-open
// error: errors.Is(err, ErrOpen) or err == ErrOpen, not under a negation.
func (a *checker) testsBreakerOpen(e ast.Expr, negated bool) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return a.testsBreakerOpen(e.X, !negated)
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LOR, token.LAND:
			return a.testsBreakerOpen(e.X, negated) || a.testsBreakerOpen(e.Y, negated)
		case token.EQL:
			return !negated && (a.isBreakerOpen(e.X) || a.isBreakerOpen(e.Y))
		}
	case *ast.CallExpr:
		fn := a.callee(e)
		if !negated && (isPkgFunc(fn, "errors", "Is") || isPkgFunc(fn, "errors", "As")) && len(e.Args) == 2 {
			if a.isBreakerOpen(e.Args[1]) {
				return true
			}
			if t := a.typeOf(e.Args[1]); t != nil && breakerOpenName.MatchString(types.TypeString(t, func(*types.Package) string { return "" })) {
				return true
			}
		}
	}
	return false
}

func returnsTrue(a *checker, b *ast.BlockStmt) bool {
	for _, s := range b.List {
		if r, ok := s.(*ast.ReturnStmt); ok && len(r.Results) == 1 {
			if id, ok := ast.Unparen(r.Results[0]).(*ast.Ident); ok && a.info().ObjectOf(id) == types.Universe.Lookup("true") {
				return true
			}
		}
	}
	return false
}

// codeTable splits paths on a lookup in a package-level table of codes,
// map[codes.Code]bool{...} or map[int]bool{...}, written as a literal.
func (w *walker) codeTable(ix *ast.IndexExpr, in []*path) (t, f []*path, ok bool) {
	id, isIdent := ast.Unparen(ix.X).(*ast.Ident)
	if !isIdent {
		return nil, nil, false
	}
	lit := w.a.tableLiteral(w.info().ObjectOf(id))
	if lit == nil {
		return nil, nil, false
	}
	grpc := isGRPCCode(w.a.typeOf(ix.Index))
	var yes [600]bool
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return nil, nil, false
		}
		k := w.info().Types[kv.Key].Value
		v := w.info().Types[kv.Value].Value
		if k == nil || v == nil || k.Kind() != constant.Int || v.Kind() != constant.Bool {
			return nil, nil, false
		}
		n, exact := constant.Int64Val(k)
		if !exact || n < 0 || n >= 600 {
			return nil, nil, false
		}
		yes[n] = constant.BoolVal(v)
	}
	holds := func(c int) bool { return c >= 0 && c < 600 && yes[c] }
	not := func(c int) bool { return !holds(c) }
	t, f = split(in, narrowCodes(holds, grpc), narrowCodes(not, grpc))
	return t, f, true
}

// tableLiteral returns the map literal a package-level variable is
// declared with, if the package never assigns it elsewhere.
func (a *checker) tableLiteral(obj types.Object) *ast.CompositeLit {
	v, ok := obj.(*types.Var)
	if !ok || v.Parent() != a.pass.Pkg.Scope() {
		return nil
	}
	for _, f := range a.pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if a.info().Defs[n] == obj && i < len(vs.Values) {
						lit, _ := ast.Unparen(vs.Values[i]).(*ast.CompositeLit)
						return lit
					}
				}
			}
		}
	}
	return nil
}

// hasStatusCode reports whether t is a response with an integer
// StatusCode field, such as *http.Response.
func hasStatusCode(t types.Type) bool {
	if t == nil {
		return false
	}
	if ptr, ok := t.Underlying().(*types.Pointer); ok {
		t = ptr.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Name() == "StatusCode" && isInteger(f.Type()) {
			return true
		}
	}
	return false
}
