package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
	"github.com/retrylint/retrylint/analyzer/internal/predicates"
)

// codePredicate splits paths on a call to a same-package predicate over an
// HTTP status or gRPC code, such as retryable(resp.StatusCode), by reading
// which codes the predicate returns true for.
func (w *walker) codePredicate(fn *types.Func, call *ast.CallExpr, in []*path) (t, f []*path, ok bool) {
	if fn == nil {
		return nil, nil, false
	}
	cs := w.codesAt(fn, call)
	if cs == nil {
		return nil, nil, false
	}
	holds := cs.accepts
	not := func(c int) bool { return !holds(c) }
	t, f = split(in, narrowCodes(holds, cs.GRPC), narrowCodes(not, cs.GRPC))
	return t, f, true
}

// codesAt is what a call of a code predicate accepts: the predicate's
// summary, the status it is given checked, a list it is given read.
func (w *walker) codesAt(fn *types.Func, call *ast.CallExpr) *CodeSummary {
	a := w.a
	cs := a.codesOf(fn)
	if cs == nil {
		return nil
	}
	at := max(cs.Arg, 1) - 1
	if at >= len(call.Args) {
		return nil
	}
	arg := call.Args[at]
	if cs.OfError {
		if !isError(a.typeOf(arg)) {
			return nil
		}
		return cs
	}
	grpc := failure.IsGRPCCode(a.typeOf(arg))
	if grpc != cs.GRPC || !grpc && !w.statusExpr(arg) && !hasStatusCode(a.typeOf(arg)) {
		return nil
	}
	if cs.Member == 0 {
		return cs
	}
	if cs.Member > len(call.Args) {
		return nil
	}
	list, ok := a.intList(call.Args[cs.Member-1])
	if !ok {
		return nil
	}
	return codesFrom(list, cs.GRPC)
}

// CodeSummary is what a predicate over an HTTP status or gRPC code
// returns true for, code by code: exported so that retryable(code) reads
// the same in every package.
type CodeSummary struct {
	GRPC bool
	// Accepts is a bit set of the codes (0-599, or 0-16 for gRPC) for
	// which the predicate is true.
	Accepts []uint64
	// Arg is the 1-based index of the parameter holding the status or
	// code; 0 for a predicate of that one parameter.
	Arg int
	// Member is the 1-based index of a list parameter when the predicate
	// is true exactly for the codes in that list (inList(resp, codes));
	// Accepts is then empty and the list is read at each call.
	Member int
	// OfError reports a predicate over the failure itself whose answer
	// is the gRPC code it reads from it (isRetriable(err) switching on
	// status.Code(err)): its argument is the error, not a code.
	OfError bool
}

func (cs *CodeSummary) accepts(c int) bool {
	return c >= 0 && c/64 < len(cs.Accepts) && cs.Accepts[c/64]&(1<<(c%64)) != 0
}

func codeLimit(grpc bool) int {
	if grpc {
		return 17
	}
	return 600
}

// codesFrom is the summary of a predicate true for the codes of a list.
func codesFrom(list []int64, grpc bool) *CodeSummary {
	limit := codeLimit(grpc)
	cs := &CodeSummary{GRPC: grpc, Accepts: make([]uint64, (limit+63)/64)}
	for _, c := range list {
		if c >= 0 && c < int64(limit) {
			cs.Accepts[c/64] |= 1 << (c % 64)
		}
	}
	return cs
}

// codesOf reads a predicate over a status or code: its body in this
// package, code by code, or the fact of another package.
func (a *checker) codesOf(fn *types.Func) *CodeSummary {
	fn = fn.Origin()
	if cs, ok := a.codes[fn]; ok {
		return cs
	}
	if a.codes == nil {
		a.codes = make(map[*types.Func]*CodeSummary)
	}
	a.codes[fn] = nil // recursion guard
	cs := a.readCodes(fn)
	a.codes[fn] = cs
	return cs
}

// readCodes evaluates a predicate for every code. A predicate of the
// status alone must be read to the end; one that also takes the failure
// or a context is read for what the status decides, every other test
// counting for nothing (ctx.Err() != nil is no reason a 401 is retried).
func (a *checker) readCodes(fn *types.Func) *CodeSummary {
	decl := a.decls[fn]
	if decl == nil {
		if f := a.summarize(fn).fact; f != nil {
			return f.Codes
		}
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() == 0 || !isBool(sig.Results().At(0).Type()) {
		return nil
	}
	params := fieldObjs(a, decl.Type.Params)
	at := -1
	for i, p := range params {
		if p == nil {
			continue
		}
		if t := p.Type(); failure.IsGRPCCode(t) || hasStatusCode(t) || isInteger(t) && !isDuration(t) && len(params) == 1 {
			if at >= 0 {
				return nil // two statuses: not a predicate over one
			}
			at = i
		}
	}
	ofError := false
	if at < 0 && len(params) == 1 && params[0] != nil && isError(params[0].Type()) && a.readsGRPCCode(decl.Body, params[0]) {
		// isRetriable(err error) bool { switch status.Code(err) { ... } }
		at, ofError = 0, true
	}
	if at < 0 {
		return nil
	}
	grpc := failure.IsGRPCCode(params[at].Type()) || ofError
	single := len(params) == 1
	if !single && sig.Results().Len() > 2 {
		return nil
	}
	if single && sig.Results().Len() != 1 {
		return nil
	}
	env := &codeEnv{a: a, status: params[at], lenient: !single}
	if m := a.memberParam(decl, params, env); m > 0 {
		return &CodeSummary{GRPC: grpc, Arg: at + 1, Member: m}
	}
	limit := codeLimit(grpc)
	cs := &CodeSummary{GRPC: grpc, Accepts: make([]uint64, (limit+63)/64), OfError: ofError}
	if !single {
		cs.Arg = at + 1
	}
	decided := false
	for c := 0; c < limit; c++ {
		env.reset(int64(c))
		v, ok := env.body(decl.Body.List)
		if !ok {
			return nil
		}
		if v != predicates.Unknown {
			decided = true
		}
		if v == predicates.True {
			cs.Accepts[c/64] |= 1 << (c % 64)
		}
	}
	if !decided {
		return nil // the status decides nothing
	}
	return cs
}

// readsGRPCCode reports whether a body reads the gRPC code of the error
// err: a call handed err alone that returns a code (status.Code(err)).
func (a *checker) readsGRPCCode(body *ast.BlockStmt, err types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && a.codeOfParam(call, err) {
			found = true
		}
		return !found
	})
	return found
}

// codeOfParam reports whether call reads the gRPC code of err:
// status.Code(err), handed err alone.
func (a *checker) codeOfParam(call *ast.CallExpr, err types.Object) bool {
	id, ok := ast.Unparen(a.codedError(call)).(*ast.Ident)
	return ok && a.info().ObjectOf(id) == err
}

// codedError returns the error whose gRPC code x reads, status.Code(err):
// a call handed one error that returns a code. nil for anything else.
func (a *checker) codedError(x ast.Expr) ast.Expr {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !failure.IsGRPCCode(a.typeOf(call)) || !isError(a.typeOf(call.Args[0])) {
		return nil
	}
	return call.Args[0]
}

// memberParam returns the 1-based index of a list parameter the predicate
// tests the status's membership of, or 0: true for the status when the list
// holds it, false otherwise, checked on a few probes.
func (a *checker) memberParam(decl *ast.FuncDecl, params []types.Object, env *codeEnv) int {
	probes := []int64{200, 401, 503}
	for i, p := range params {
		if p == nil || !isIntSlice(p.Type()) {
			continue
		}
		member := true
		for _, in := range probes {
			for _, v := range probes {
				env.reset(v)
				env.lists[p] = []int64{in}
				r, ok := env.body(decl.Body.List)
				if !ok || (r == predicates.True) != (v == in) || r == predicates.Unknown {
					member = false
				}
			}
		}
		env.reset(probes[0])
		env.lists[p] = nil
		if r, ok := env.body(decl.Body.List); !ok || r == predicates.True {
			member = false
		}
		if member {
			return i + 1
		}
	}
	return 0
}

func isIntSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	return ok && isInteger(s.Elem())
}

// intList reads a list of constant codes: a slice literal, or a
// package-level variable declared with one.
func (a *checker) intList(e ast.Expr) ([]int64, bool) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		id, isIdent := ast.Unparen(e).(*ast.Ident)
		if !isIdent {
			return nil, false
		}
		lit = a.tableLiteral(a.info().ObjectOf(id))
	}
	if lit == nil || !isIntSlice(a.typeOf(lit)) {
		return nil, false
	}
	var out []int64
	for _, elt := range lit.Elts {
		tv := a.info().Types[elt]
		if tv.Value == nil || tv.Value.Kind() != constant.Int {
			return nil, false
		}
		n, exact := constant.Int64Val(tv.Value)
		if !exact {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
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
	var params []types.Object
	unnamed := false
	for i, p := range fieldObjs(a, decl.Type.Params) {
		if t := sig.Params().At(i).Type(); isError(t) || failure.IsGRPCCode(t) || hasStatusCode(t) {
			if p == nil || p.Name() == "_" {
				unnamed = true
			} else {
				params = append(params, p)
			}
		}
	}
	if len(params) == 0 {
		return unnamed
	}
	for _, p := range params {
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
			if t := a.typeOf(e.Args[1]); t != nil && failure.BreakerOpen(types.TypeString(t, func(*types.Package) string { return "" })) {
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
	grpc := failure.IsGRPCCode(w.a.typeOf(ix.Index))
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
