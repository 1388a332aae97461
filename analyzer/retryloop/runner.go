package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzer/internal/retrylib"
)

// A retry runner is a function that runs a function value it was given
// again and again, deciding from what each run returns whether to run it
// once more: pacer.Call(func() (retry bool, err error) { ... }). Whatever
// its name, and however it waits, its loop is a retry loop, and the
// function value given to it at every call is an attempt.

// givenFunc returns the index of the function-typed parameter of the
// function being walked that a call runs: the call of the parameter
// itself, or a call handed the parameter (an invoker hook, a helper that
// calls it). -1 when none.
func (w *walker) givenFunc(call *ast.CallExpr) int {
	fd, ok := w.fc.fn.(*ast.FuncDecl)
	if !ok {
		return -1
	}
	return funcParamIndex(w.a, fd, append([]ast.Expr{call.Fun}, call.Args...))
}

// funcParamIndex returns the index of the first function-typed parameter
// of decl among exprs, or -1.
func funcParamIndex(a *checker, decl *ast.FuncDecl, exprs []ast.Expr) int {
	params := fieldObjs(a, decl.Type.Params)
	for _, e := range exprs {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			continue
		}
		obj := a.info().ObjectOf(id)
		for i, p := range params {
			if p != nil && p == obj {
				if _, ok := p.Type().Underlying().(*types.Signature); ok {
					return i
				}
			}
		}
	}
	return -1
}

// againFact records the answer of an attempt the walked function was
// given: in again, err = run(attempt), a bool beside the error is the
// attempt's verdict, true asking for another try (retry, again). A name
// that says success (done, ok) is a poll's "not yet", no failure. It
// reports whether it recorded one.
func (w *walker) againFact(lhs []ast.Expr, call *ast.CallExpr, in []*path) bool {
	if w.givenFunc(call) < 0 {
		return false
	}
	results := resultTypes(w.a.typeOf(call))
	if len(results) != len(lhs) {
		return false
	}
	found := false
	for i, l := range lhs {
		id, ok := ast.Unparen(l).(*ast.Ident)
		if !ok || id.Name == "_" || !isBool(results[i]) {
			continue
		}
		obj := w.info().ObjectOf(id)
		if obj == nil {
			continue
		}
		if successName.MatchString(id.Name) {
			// done, err := condition(): a poll that is not done yet has
			// not failed; only its error could have.
			w.doneBool = true
			continue
		}
		w.answer = 1
		for _, p := range in {
			p.errs[obj] = errFact{op: call, kind: kindAgain}
		}
		found = true
	}
	return found
}

// doneAnswer reports whether the walked function runs a function value
// it was given whose bool says it is done, and goes round on its errors:
// then the value answers for itself, true to stop, false to go again
// (RetrySummary.Answer -1). A poll that ends on the first error keeps
// reading only the error.
func (w *walker) doneAnswer(failing []*path) bool {
	if !w.doneBool || w.answer != 0 {
		return false
	}
	for _, p := range failing {
		if op := p.failedOp(); op != nil && w.givenFunc(op) >= 0 && p.errorFailure() {
			return true
		}
	}
	return false
}

// runsGiven reports whether one of the operations runs a function value
// the walked function was given: the attempt number it is handed with it
// counts tries, it does not pick the next candidate.
func (w *walker) runsGiven(ops []*ast.CallExpr) bool {
	for _, op := range ops {
		if w.givenFunc(op) >= 0 {
			return true
		}
	}
	return false
}

// limitParam returns the 1-based index of the integer parameter a runner's
// loop compares its counter with (try <= tries), or 0.
func (a *checker) limitParam(decl *ast.FuncDecl, l *Loop) int {
	s, ok := l.Node.(*ast.ForStmt)
	if !ok || s.Cond == nil {
		return 0
	}
	b, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
	if !ok {
		return 0
	}
	params := fieldObjs(a, decl.Type.Params)
	for _, side := range []ast.Expr{b.X, b.Y} {
		id, ok := ast.Unparen(side).(*ast.Ident)
		if !ok {
			continue
		}
		obj := a.info().ObjectOf(id)
		for i, p := range params {
			if p != nil && p == obj && isInteger(p.Type()) {
				return i + 1
			}
		}
	}
	return 0
}

// forwardedParam returns the 1-based index of decl's parameter that call
// hands on as its argument number limit (1-based), or 0.
func forwardedParam(a *checker, decl *ast.FuncDecl, call *ast.CallExpr, limit int) int {
	if limit <= 0 || limit > len(call.Args) {
		return 0
	}
	id, ok := ast.Unparen(call.Args[limit-1]).(*ast.Ident)
	if !ok {
		return 0
	}
	obj := a.info().ObjectOf(id)
	for i, p := range fieldObjs(a, decl.Type.Params) {
		if p != nil && p == obj {
			return i + 1
		}
	}
	return 0
}

// retryAt says how one call retries: the callee's summary, with the
// attempts a constant limit argument gives. retries is false when that
// limit allows a single attempt (run(fn, 1)).
func (a *checker) retryAt(call *ast.CallExpr) (r *RetrySummary, retries bool) {
	r = a.retryOf(a.callee(call))
	if r == nil {
		return nil, false
	}
	if r.LimitParam > 0 && r.LimitParam <= len(call.Args) {
		if tv := a.info().Types[call.Args[r.LimitParam-1]]; tv.Value != nil && tv.Value.Kind() == constant.Int {
			n, exact := constant.Int64Val(tv.Value)
			if !exact || n <= 1 {
				return r, false
			}
			c := *r
			c.Attempts, c.LimitParam = int(min(n, 1<<20)), 0
			return &c, true
		}
	}
	return r, true
}

// runnerLoops reads every call of a retry runner given a function
// literal as a retry loop whose attempt is the literal: what the literal
// returns decides whether it runs again, and it waits where it waits
// itself. The runner answers for its own bound and waits, reported at its
// loop; at the call, the attempt's classification, waits and nesting are
// what is left to say.
func (a *checker) runnerLoops(res *Result) []*Loop {
	var out []*Loop
	for _, f := range a.pass.Files {
		if !a.wantFile(f.Pos()) {
			continue
		}
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if l := a.runnerLoop(enclosingFunc(stack), call); l != nil {
				out = append(out, l)
			}
			return true
		})
	}
	return out
}

// enclosingFunc is the innermost function declaration or literal of a
// node stack, nil if none.
func enclosingFunc(stack []ast.Node) ast.Node {
	for i := len(stack) - 2; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return stack[i]
		}
	}
	return nil
}

func (a *checker) runnerLoop(fn ast.Node, call *ast.CallExpr) *Loop {
	if fn == nil {
		return nil
	}
	r, retries := a.retryAt(call)
	if r == nil || !retries {
		return nil
	}
	if fn := a.callee(call); fn != nil && a.funcObj(a.declOf(call)) == fn.Origin() {
		return nil // a runner calling itself
	}
	if r.Param < 0 || r.Param >= len(call.Args) {
		return a.endlessCall(fn, call, r)
	}
	lit := a.funcValue(call.Args[r.Param])
	if lit == nil && r.Blind {
		return a.blindRunnerCall(fn, call, r)
	}
	if lit == nil && r.PredicateParam > 0 && a.givenBlindPredicate(fn, call, r) {
		// RetryOn(d, op, func(err error) bool { return err != nil }): the
		// caller's predicate retries every failure of whatever op is.
		return a.blindPredicateCall(fn, call, r)
	}
	if lit == nil || lit.Body == nil {
		return a.endlessCall(fn, call, r)
	}
	fc := a.newFuncCtx(lit, lit.Body)
	lc := &loopCtx{mode: modeAttempt, start: lit.Body.Pos(), end: lit.Body.End()}
	fc.countersIn(lc)
	w := &walker{a: a, fc: fc, lc: lc, answer: r.Answer}
	w.stmts(lit.Body.List, []*path{newPath()}, scope{})
	if r.Poll && r.Answer == answerPoll {
		// A poll's condition that is not yet met goes round too: only an
		// error it swallowed (false, nil after err != nil) is a retry.
		w.rounds = slices.DeleteFunc(w.rounds, func(e event) bool { return e.p.failedOp() != nil && !e.p.errValueFailed() })
	}
	l := a.finish(w, FormRunner, call, call.Pos())
	if l == nil {
		return a.endlessCall(fn, call, r)
	}
	l.Func = fn
	if a.summarize(a.callee(call)).waits {
		// The runner paces the attempts itself: a wait of the attempt
		// adds to one the analysis does not see.
		for _, wt := range l.Waits {
			wt.Source = Delay{Unknown: true}
		}
	}
	if b := a.runnerBound(call, r); b != BoundNone || l.Bound == BoundNone {
		// The runner answers for the bound, unless the context that
		// would end it never ends: then only the attempt's own exits
		// (a stop state it checks) bound it.
		l.Bound = b
	}
	l.Attempts = r.Attempts
	if r.Marks != nil && !retrylib.IsLibrary(a.callee(call)) {
		// The runner hands the literal to a retry library as its
		// operation: what the literal marks permanent is the whole
		// classification, read as the library reads it.
		if known, classified, permanent := retrylib.ReadOperation(a.info(), lit, funcBody(fn), *r.Marks); known {
			l.Classified, l.Permanent, l.Retried = classified, permanent, nil
		}
	} else if r.Answer == 0 && !r.Blind && !a.givenBlindPredicate(fn, call, r) {
		// The runner reads the error and classifies it, at its loop;
		// what the attempt tests on the way is not what is retried.
		l.Classified, l.Permanent, l.Retried = true, nil, nil
	}
	l.Context = a.contextInScope(call.Pos())
	l.DeafRunner = r.Deaf && l.Context != nil
	return l
}

// deafWaits reports whether a loop waits between attempts with a wait
// that nothing but its time ends: time.Sleep, a bare <-time.After, a
// clock's Sleep.
func deafWaits(l *Loop) bool {
	for _, w := range l.Waits {
		switch {
		case w.ContextAware || w.Select:
		case w.Kind == WaitSleep, w.Kind == WaitAfter, w.Kind == WaitClock:
			return true
		}
	}
	return false
}

// blindRunnerCall reads a call that hands a blind runner a function or
// method value (retryer.Retry(ctx, c.fetch)): every error of that value
// goes round unread, at the call.
func (a *checker) blindRunnerCall(fn ast.Node, call *ast.CallExpr, r *RetrySummary) *Loop {
	arg := ast.Unparen(call.Args[r.Param])
	if _, ok := objOfExpr(a, arg).(*types.Func); !ok {
		return nil
	}
	// The value runs as the attempt: name it as the operation retried.
	op := &ast.CallExpr{Fun: arg, Lparen: arg.End(), Rparen: arg.End()}
	return &Loop{
		Form: FormRunner, Node: call, Pos: call.Pos(), Func: fn,
		Unclassified: op, Bound: a.runnerBound(call, r), Attempts: r.Attempts,
		Context: a.contextInScope(call.Pos()),
	}
}

// endlessCall reads a call of a function that retries work of its own
// (or work beside the function value it is given) until its context
// parameter ends, given a context nobody cancels: the call retries for
// ever. nil for any other call.
func (a *checker) endlessCall(fn ast.Node, call *ast.CallExpr, r *RetrySummary) *Loop {
	if r.CtxParam == 0 || retrylib.IsLibrary(a.callee(call)) || a.runnerBound(call, r) != BoundNone {
		return nil // a library's own reader answers for its calls
	}
	return &Loop{
		Form: FormRunner, Node: call, Pos: call.Pos(), Func: fn,
		Bound: BoundNone, Classified: true,
		Context: a.contextInScope(call.Pos()),
	}
}

// blindPredicateCall reads a call that hands a runner a predicate that
// classifies nothing, with an attempt the call does not show (a function
// value passed on): every failure of the attempt goes round, at the call.
func (a *checker) blindPredicateCall(fn ast.Node, call *ast.CallExpr, r *RetrySummary) *Loop {
	arg := ast.Unparen(call.Args[r.Param])
	op := &ast.CallExpr{Fun: arg, Lparen: arg.End(), Rparen: arg.End()}
	return &Loop{
		Form: FormRunner, Node: call, Pos: call.Pos(), Func: fn,
		Unclassified: op, Bound: a.runnerBound(call, r), Attempts: r.Attempts,
		Context: a.contextInScope(call.Pos()),
	}
}

// runnerBound is the bound of a runner's call: the runner's own loop
// answers for it, unless the runner ends only with its context and the
// call gives it one nobody cancels (context.Background()).
func (a *checker) runnerBound(call *ast.CallExpr, r *RetrySummary) BoundKind {
	i := r.CtxParam - 1
	if i < 0 || i >= len(call.Args) {
		return BoundAttempts
	}
	arg := ast.Unparen(call.Args[i])
	if a.madeDead(arg, map[*types.Var]bool{}, 0) {
		return BoundNone
	}
	if id, ok := arg.(*ast.Ident); ok {
		if v, ok := a.info().Uses[id].(*types.Var); ok && a.deadContext(v, call.Pos()) {
			return BoundNone
		}
	}
	return BoundAttempts
}

// predicateParam returns the 1-based index of a parameter of decl that
// is a predicate over an error (func(error) bool) and that its retry loop
// calls: Retry(ctx, op, policy, isRetryable) asks it whether to go round.
// 0 when none.
func (a *checker) predicateParam(decl *ast.FuncDecl, l *Loop) int {
	params := fieldObjs(a, decl.Type.Params)
	found := 0
	nodes := []ast.Node{l.Node}
	if call, ok := l.Node.(*ast.CallExpr); ok && l.Form == FormRunner {
		// run(5, step), step a closure that asks the predicate.
		if r, _ := a.retryAt(call); r != nil && r.Param >= 0 && r.Param < len(call.Args) {
			if lit := a.funcValue(call.Args[r.Param]); lit != nil {
				nodes = append(nodes, lit.Body)
			}
		}
	}
	for _, node := range nodes {
		ast.Inspect(node, func(n ast.Node) bool {
			return a.predicateCall(n, params, &found)
		})
	}
	return found
}

// predicateCall records in found the 1-based index of the predicate
// parameter a call node makes, and says whether to look further.
func (a *checker) predicateCall(n ast.Node, params []types.Object, found *int) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok || *found > 0 {
		return *found == 0
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return true
	}
	for i, p := range params {
		if p != nil && p == a.info().ObjectOf(id) && errorPredicate(p.Type()) {
			*found = i + 1
		}
	}
	return *found == 0
}

// errorPredicate reports whether t is func(error) bool.
func errorPredicate(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Params().Len() == 1 && isError(sig.Params().At(0).Type()) &&
		sig.Results().Len() == 1 && isBool(sig.Results().At(0).Type())
}

// givenBlindPredicate reports whether a runner call gives the runner's
// predicate nothing that reads the failure: nil, or a function whose error
// parameter is never read (func(_ error) bool { return true }). Every
// error of the attempt then goes round.
func (a *checker) givenBlindPredicate(fn ast.Node, call *ast.CallExpr, r *RetrySummary) bool {
	i := r.PredicateParam - 1
	if i < 0 || i >= len(call.Args) {
		return false
	}
	arg := ast.Unparen(call.Args[i])
	if isNilIdent(arg) {
		return true
	}
	if lit := a.funcValue(arg); lit != nil {
		return litIgnoresParams(a, lit)
	}
	if f, ok := objOfExpr(a, arg).(*types.Func); ok {
		return a.ignoresFailure(f)
	}
	return false
}

// litIgnoresParams reports whether a function literal reads none of its
// parameters.
func litIgnoresParams(a *checker, lit *ast.FuncLit) bool {
	for _, f := range lit.Type.Params.List {
		for _, name := range f.Names {
			if obj := a.info().Defs[name]; obj != nil && name.Name != "_" && a.mentions(lit.Body, obj) && !onlyNilTest(a, lit.Body, obj) {
				return false
			}
		}
	}
	return true
}

// onlyNilTest reports whether a predicate's body only answers whether
// its error parameter is set: return err != nil, which retries every
// failure.
func onlyNilTest(a *checker, body *ast.BlockStmt, p types.Object) bool {
	if body == nil || len(body.List) != 1 || !isError(p.Type()) {
		return false
	}
	ret, ok := body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	b, ok := ast.Unparen(ret.Results[0]).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return false
	}
	x, y := b.X, b.Y
	if isNilIdent(x) {
		x, y = y, x
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	return ok && isNilIdent(y) && a.info().Uses[id] == p
}

// funcValue returns the function literal an argument is: the literal
// itself, or a local variable of fn assigned that literal once and never
// again (login := func() (bool, error) { ... }; run(login)). nil if none.
func (a *checker) funcValue(arg ast.Expr) *ast.FuncLit {
	arg = ast.Unparen(arg)
	if lit, ok := arg.(*ast.FuncLit); ok {
		return lit
	}
	id, ok := arg.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := a.info().Uses[id].(*types.Var)
	if !ok || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	lit, _ := ast.Unparen(a.onlyValue(v)).(*ast.FuncLit)
	return lit
}

// declOf is the function declaration holding a node, nil if none.
func (a *checker) declOf(n ast.Node) ast.Node {
	f := a.fileOf(n.Pos())
	if f == nil {
		return nil
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= n.Pos() && n.End() <= fd.End() {
			return fd
		}
	}
	return nil
}

// answerReturn reads one return of an attempt: the paths on which it asks
// for another try go round, the others end the attempts. With a bool
// answer (retry bool, err error) the bool decides; otherwise a non-nil
// error does.
func (w *walker) answerReturn(s *ast.ReturnStmt, in []*path) {
	sig := w.fc.sig
	if sig == nil || len(s.Results) == 0 {
		w.exit(in, s)
		return
	}
	results := s.Results
	if len(results) == 1 && sig.Results().Len() > 1 {
		call, ok := ast.Unparen(results[0]).(*ast.CallExpr)
		switch {
		case !ok:
			w.exit(in, s)
		case w.answer == 0 && w.a.errorResult(call) >= 0:
			// return c.Request(host, msg): the call is the attempt's
			// operation, and its error is the attempt's.
			t, f := w.nilCheck(call, in)
			w.round(t, s)
			w.exit(f, s)
		default:
			// return shouldRetry(ctx, resp, err): the answer of a helper.
			t, f := w.answerCall(call, in)
			w.round(t, s)
			w.exit(f, s)
		}
		return
	}
	if len(results) != sig.Results().Len() {
		w.exit(in, s)
		return
	}
	boolAt, errAt := -1, -1
	for i := 0; i < sig.Results().Len(); i++ {
		switch t := sig.Results().At(i).Type(); {
		case isBool(t) && boolAt < 0:
			boolAt = i
		case isError(t):
			errAt = i
		}
	}
	switch {
	case w.answer != 0 && boolAt >= 0:
		if w.answer == answerPoll && errAt >= 0 && !isNilIdent(results[errAt]) {
			// A poll stops on an error: (false, err) ends it, and only
			// (false, nil) goes round.
			failed, ok := w.nilCheck(results[errAt], in)
			w.exit(failed, s)
			in = ok
		}
		e := results[boolAt]
		var t, f []*path
		if tv := w.info().Types[e]; tv.Value != nil && tv.Value.Kind() == constant.Bool {
			if constant.BoolVal(tv.Value) {
				t = in
			} else {
				f = in
			}
		} else {
			t, f = w.cond(e, in, 0)
		}
		if w.answer < 0 {
			t, f = f, t
		}
		w.round(t, s)
		w.exit(f, s)
	case errAt >= 0:
		e := results[errAt]
		if isNilIdent(e) {
			w.exit(in, s)
			return
		}
		t, f := w.nilCheck(e, in)
		w.round(t, s)
		w.exit(f, s)
	default:
		w.exit(in, s)
	}
}

// answerPoll is the answer of a poll's condition (RetrySummary.Poll):
// true when done, and an error ends the poll; only (false, nil) goes
// round.
const answerPoll = -2

// answerCall splits on the answer of a helper an attempt returns as its
// own, (retry bool, err error): as a predicate call when its bool is what
// decides.
func (w *walker) answerCall(call *ast.CallExpr, in []*path) (t, f []*path) {
	if w.answer == 0 {
		return nil, in
	}
	t, f = w.callCond(call, in)
	if w.answer < 0 {
		t, f = f, t
	}
	return t, f
}

// ignoredSleep returns the time.Sleep of a same-package function that a
// call hands a context and that sleeps without it, outside any goroutine
// or function literal: shouldRetry(ctx, resp, err) waiting out a rate
// limit before it answers. nil otherwise.
func (a *checker) ignoredSleep(call *ast.CallExpr) ast.Node {
	fn := a.callee(call)
	if fn == nil {
		return nil
	}
	given := false
	for _, arg := range call.Args {
		if isContext(a.typeOf(arg)) {
			given = true
		}
	}
	if !given {
		return nil
	}
	s := a.summarize(fn)
	if s.decl == nil || !s.waits || s.ctxAware {
		return nil
	}
	var sleep ast.Node
	ast.Inspect(s.decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.CallExpr:
			if isPkgFunc(a.callee(n), "time", "Sleep") && sleep == nil {
				sleep = n
			}
		}
		return sleep == nil
	})
	return sleep
}

// isAnswer reports whether t is an attempt's answer, (retry bool, err
// error).
func isAnswer(t types.Type) bool {
	tup, ok := t.(*types.Tuple)
	return ok && tup.Len() == 2 && isBool(tup.At(0).Type()) && isError(tup.At(1).Type())
}
