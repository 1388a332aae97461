package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
	"github.com/retrylint/retrylint/internal/lazyre"
)

// maxCondDepth bounds the substitution of boolean variables by their
// definitions.
const maxCondDepth = 4

// cond splits paths on a boolean condition: those where it holds and those
// where it does not.
func (w *walker) cond(e ast.Expr, in []*path, depth int) (t, f []*path) {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			t, f = w.cond(e.X, in, depth)
			return f, t
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND:
			ta, fa := w.cond(e.X, in, depth)
			tb, fb := w.cond(e.Y, ta, depth)
			return tb, append(fa, fb...)
		case token.LOR:
			ta, fa := w.cond(e.X, in, depth)
			tb, fb := w.cond(e.Y, fa, depth)
			return append(ta, tb...), fb
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return w.compare(e.X, e.Op, e.Y, in, depth)
		}
	case *ast.CallExpr:
		if t, f, ok := w.stopFlag(e, in); ok {
			return t, f
		}
		return w.callCond(e, in)
	case *ast.IndexExpr:
		// retryable[status.Code(err)], a table of codes to retry.
		if w.derivedFromFailure(e.Index, 0) || w.statusExpr(e.Index) {
			if t, f, ok := w.codeTable(e, in); ok {
				return t, f
			}
			t, f := w.classify(ast.NewIdent("_"), false, in)
			for _, p := range append(t, f...) {
				p.predicated = true
			}
			return t, f
		}
	case *ast.TypeAssertExpr:
		// ne, ok := err.(net.Error): ok inspects the failure's type.
		if isError(w.a.typeOf(e.X)) {
			return w.classify(e.X, e.Type != nil && w.a.isBreakerOpen(e.Type), in)
		}
	case *ast.Ident:
		if t, f, ok := w.flagCond(e, in); ok {
			return t, f
		}
		if w.setWhenDone(e) {
			// for !terminating { select { case <-ctx.Done(): terminating = true ... } }
			return split(in, bounded(BoundContext), bounded(BoundContext))
		}
		if rhs := w.fc.boolDef(e, w.info()); rhs != nil && depth < maxCondDepth {
			return w.cond(rhs, in, depth+1)
		}
	case *ast.SelectorExpr:
		if t, f, ok := w.fieldCond(e, in); ok {
			return t, f
		}
		if t, f, ok := w.stopFlag(e, in); ok {
			return t, f
		}
	}
	return split(in, other, other)
}

// waitCond follows a wait helper whose bool result says whether the wait
// ran its course: `if !sleep(ctx, d) { return }` waits on both branches,
// and when its wait ends with the context or a channel it is given, the
// answer tells that end.
func (w *walker) waitCond(call *ast.CallExpr, in []*path) (t, f []*path, ok bool) {
	kind, _, aware, isWait := w.a.waitCall(call)
	if !isWait || kind == "" || !isBool(w.a.typeOf(call)) {
		return nil, nil, false
	}
	stop := aware
	for _, arg := range call.Args {
		if t := w.a.typeOf(arg); t == nil {
			continue
		} else if _, isChan := t.Underlying().(*types.Chan); isChan {
			stop = true // waitForRetry(shutdown, d): true when shut down
		}
	}
	in = w.effects(&ast.ExprStmt{X: call}, in, false)
	if stop {
		t, f = split(in, bounded(BoundContext), bounded(BoundContext))
	} else {
		t, f = split(in, other, other)
	}
	return t, f, true
}

// other marks a path whose last branch tested something unrelated to the
// attempt: neither its outcome nor a bound.
func other(p *path) { p.guard = guardOther }

// savedGuard is a path's guard before an if statement.
type savedGuard struct {
	guard      guard
	bound      BoundKind
	classified bool
}

// saveGuard remembers, on entering an if, what each path's last test was.
func saveGuard(in []*path) {
	for _, p := range in {
		p.saved = append(p.saved, savedGuard{p.guard, p.bound, p.classified})
	}
}

// restoreGuard undoes, on the paths that come out of an if, its test of
// something unrelated: `if verbose { log }` between a success test and the
// return it decides does not decide that return.
//
// With onlyCalls, the if's branches only call (log, count) and both go on:
// a test of the error there decides nothing, so it classifies nothing
// (`if isTimeout(err) { log.Print("timeout") }` retries every error still).
func restoreGuard(out []*path, onlyCalls bool) {
	for _, p := range out {
		if len(p.saved) == 0 {
			continue
		}
		s := p.saved[len(p.saved)-1]
		p.saved = p.saved[:len(p.saved)-1]
		if p.guard == guardOther {
			p.guard, p.bound = s.guard, s.bound
		}
		if onlyCalls {
			p.classified = s.classified
			if p.guard == guardError {
				p.guard, p.bound = s.guard, s.bound
			}
		}
	}
}

// onlyCalls reports whether an if statement's branches hold nothing but
// calls, and else-ifs or nested ifs that do the same (a log, and a counter
// picked by the error's text).
func onlyCalls(s *ast.IfStmt) bool {
	if !callsOnly(s.Body.List) {
		return false
	}
	switch e := s.Else.(type) {
	case *ast.IfStmt:
		return e.Init == nil && onlyCalls(e)
	case *ast.BlockStmt:
		return callsOnly(e.List)
	}
	return true
}

func callsOnly(list []ast.Stmt) bool {
	for _, st := range list {
		switch st := st.(type) {
		case *ast.ExprStmt:
		case *ast.IfStmt:
			if st.Init != nil || !onlyCalls(st) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// split copies the paths into two sets and applies mark to each copy.
// A mark may find its branch impossible on a path (the error is already
// known to be nil, no status code is left) and set dead: that copy is
// dropped.
func split(in []*path, markT, markF func(*path)) (t, f []*path) {
	t = make([]*path, 0, len(in))
	f = make([]*path, 0, len(in))
	for _, p := range in {
		pt, pf := p.clone(), p.clone()
		if markT != nil {
			markT(pt)
		}
		if markF != nil {
			markF(pf)
		}
		if !pt.dead {
			t = append(t, pt)
		}
		if !pf.dead {
			f = append(f, pf)
		}
	}
	return t, f
}

func bounded(k BoundKind) func(*path) {
	return func(p *path) { p.guard, p.bound, p.limited = guardBound, k, k }
}

// errKey returns the key under which paths track an error expression, or
// nil if it is not an error variable.
func (w *walker) errKey(e ast.Expr) any {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if obj := w.info().ObjectOf(e); obj != nil && isError(obj.Type()) {
			return obj
		}
	case *ast.SelectorExpr:
		if obj := w.info().ObjectOf(e.Sel); obj != nil && isError(obj.Type()) {
			if _, ok := obj.(*types.Var); ok {
				return obj
			}
		}
	}
	return nil
}

func (w *walker) compare(x ast.Expr, op token.Token, y ast.Expr, in []*path, depth int) (t, f []*path) {
	if isNilIdent(x) {
		x, y = y, x
	}
	// err != nil, op() != nil, ctx.Err() != nil
	if isNilIdent(y) && (op == token.EQL || op == token.NEQ) {
		t, f = w.nilCheck(x, in)
		if op == token.EQL {
			t, f = f, t
		}
		return t, f
	}
	if (op == token.EQL || op == token.NEQ) && (w.stopState(x, y) || w.stopState(y, x) || w.stopCounter(x, y) || w.stopCounter(y, x)) {
		// p.state == stopped: the owner is shutting down.
		return split(in, bounded(BoundContext), bounded(BoundContext))
	}
	tx, ty := w.a.typeOf(x), w.a.typeOf(y)
	// err == ErrSentinel
	if (op == token.EQL || op == token.NEQ) && (isError(tx) || isError(ty)) {
		errSide, other := x, y
		if w.errKey(x) == nil && w.errKey(y) != nil {
			errSide, other = y, x
		}
		if w.a.isContextSentinel(other) {
			t, f = w.contextErrTest(errSide, in)
		} else {
			t, f = w.classify(errSide, w.a.isBreakerOpen(other), in)
			markClosed(t, w.a.isClosedSentinel(other))
			markPermanent(t, permanentSentinel(other))
			markLocalOS(t, w.a.isErrno(other))
		}
		if op == token.NEQ {
			t, f = f, t
		}
		return t, f
	}
	// len(failed) > 0: a list of the attempts that failed.
	if t, f, ok := w.listCheck(x, op, y, in); ok {
		return t, f
	}
	if t, f, ok := w.listCheck(y, mirror(op), x, in); ok {
		return t, f
	}
	// Status and gRPC code checks.
	if t, f, ok := w.codeCheck(x, op, y, in); ok {
		return t, f
	}
	if t, f, ok := w.codeCheck(y, mirror(op), x, in); ok {
		return t, f
	}
	switch {
	case mentionsContextErr(w, x) || mentionsContextErr(w, y):
		return split(in, bounded(BoundContext), bounded(BoundContext))
	case isInteger(tx) && isInteger(ty) && (w.a.keyedCount(x) || w.a.keyedCount(y)):
		// failures[key] >= max, even keyed by something read from the
		// error: each item's attempts are limited, even where the loop
		// goes on with the next item.
		mark := func(p *path) {
			p.guard, p.bound, p.keyLimit, p.limited = guardBound, BoundAttempts, true, BoundAttempts
		}
		return split(in, mark, mark)
	case w.derivedFromFailure(x, 0) || w.derivedFromFailure(y, 0):
		// c := status.Code(err); c != codes.Unavailable, or a code read
		// from the error: a classification, not a bound.
		return w.classify(ast.NewIdent("_"), false, in)
	case isTimeish(tx) || isTimeish(ty):
		return split(in, bounded(BoundDeadline), bounded(BoundDeadline))
	case w.a.mentionsStreak(w.lc, x) || w.a.mentionsStreak(w.lc, y):
		// stable >= 3: enough successes in a row is a success test.
		mark := func(p *path) { p.guard = guardError }
		return split(in, mark, mark)
	case w.a.lenOfFailureList(w.fc, w.lc, x) || w.a.lenOfFailureList(w.fc, w.lc, y):
		return split(in, other, other) // what failed, before anything did
	case isInteger(tx) && isInteger(ty) && !isConst(w, x, y) && (w.lc.mode == modeRequeue || w.mentionsCounter(x) || w.mentionsCounter(y)):
		return split(in, bounded(BoundAttempts), bounded(BoundAttempts))
	case isInteger(tx) && isInteger(ty) && !isConst(w, x, y):
		// m.status != started: a value the attempt returned, no count.
		return split(in, other, other)
	case isBool(tx) && isConst(w, y):
		// done == false and the like
		if b := constant.BoolVal(w.info().Types[y].Value); (op == token.EQL) == b {
			return w.cond(x, in, depth)
		}
		f, t = w.cond(x, in, depth)
		return t, f
	}
	return split(in, other, other)
}

func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

func isInteger(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

func isBool(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// isConst reports whether every expression is a constant.
func isConst(w *walker, es ...ast.Expr) bool {
	for _, e := range es {
		if w.info().Types[e].Value == nil {
			return false
		}
	}
	return true
}

func mentionsContextErr(w *walker, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Err" && isContext(w.a.typeOf(sel.X))
}

// nilCheck splits on `x != nil` (t: x is non-nil).
func (w *walker) nilCheck(x ast.Expr, in []*path) (t, f []*path) {
	if mentionsContextErr(w, x) {
		return split(in, bounded(BoundContext), bounded(BoundContext))
	}
	if call, ok := ast.Unparen(x).(*ast.CallExpr); ok && w.a.errorResult(call) >= 0 {
		if kind, _, _, ok := w.a.waitCall(call); ok && kind != "" {
			in = w.effects(&ast.ExprStmt{X: call}, in, false)
			return split(in, bounded(BoundContext), bounded(BoundContext))
		}
		if w.a.isErrorConstructor(call) {
			return split(in, nil, nil)
		}
		in = w.effects(&ast.ExprStmt{X: call}, in, false)
		for _, p := range in {
			p.last = call
			p.guard = guardNone
			p.maybeOK = false
			p.http, p.grpc = failure.AllHTTP(), failure.AllGRPC()
		}
		key := any(call)
		return split(in,
			func(p *path) { p.errs[key] = errFact{op: call, state: errNonNil}; p.guard = guardError },
			func(p *path) { p.errs[key] = errFact{op: call, state: errNil}; p.guard = guardError })
	}
	if t, f, ok := w.handleCheck(x, in); ok {
		return t, f
	}
	key := w.errKey(x)
	if key == nil {
		return split(in, nil, nil)
	}
	set := func(s errState) func(*path) {
		return func(p *path) {
			fact, ok := p.errs[key]
			if !ok {
				fact = errFact{op: nil}
			}
			if fact.wait {
				p.guard, p.bound = guardBound, BoundContext
				return
			}
			if fact.state != errUnknown && fact.state != s {
				p.dead = true
				return
			}
			fact.state = s
			p.errs[key] = fact
			p.guard = guardError
		}
	}
	return split(in, set(errNonNil), set(errNil))
}

// classify splits on a test that inspects the failure itself (errors.Is, a
// sentinel comparison, a predicate): t is where the test holds. open says
// the test asks whether the failure is a breaker-open error.
func (w *walker) classify(errExpr ast.Expr, open bool, in []*path) (t, f []*path) {

	key := w.errKey(errExpr)
	return split(in,
		func(p *path) {
			p.classified, p.guard = true, guardError
			p.maybeOK = false
			if open {
				p.breakerOpen = true
			} else {
				p.breakerExcluded = true
			}
			if key != nil {
				fact := p.errs[key]
				if !fact.wait {
					if fact.state == errNil {
						p.dead = true // errors.Is(nil, X) is false
						return
					}
					fact.state = errNonNil
					p.errs[key] = fact
				}
			}
		},
		func(p *path) {
			p.classified, p.guard = true, guardError
			if open {
				p.breakerExcluded = true
			}
			if key != nil {
				if fact, ok := p.errs[key]; ok && fact.state == errUnknown && !fact.wait {
					p.maybeOK = true
				}
			}
		})
}

// deadlineCheck reports whether fn is a same-package predicate that
// answers from the clock: abort(start, wait, timeout) returning
// wait+time.Since(start) >= timeout. A loop that leaves on it has a
// deadline.
func (a *checker) deadlineCheck(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	fn = fn.Origin()
	if c, ok := a.clocks[fn]; ok {
		return c
	}
	if a.clocks == nil {
		a.clocks = make(map[*types.Func]bool)
	}
	c := a.readsClock(fn)
	a.clocks[fn] = c
	return c
}

// readsClock reports whether a same-package function returns a bool
// computed by comparing durations or times taken from the clock.
func (a *checker) readsClock(fn *types.Func) bool {
	decl := a.decls[fn]
	sig, _ := fn.Type().(*types.Signature)
	if decl == nil || decl.Body == nil || sig == nil || sig.Results().Len() != 1 || !isBool(sig.Results().At(0).Type()) {
		return false
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		r, ok := n.(*ast.ReturnStmt)
		if !ok || found || len(r.Results) != 1 {
			return !found
		}
		ast.Inspect(r.Results[0], func(m ast.Node) bool {
			if b, ok := m.(*ast.BinaryExpr); ok && isTimeish(a.typeOf(b.X)) && isTimeish(a.typeOf(b.Y)) {
				ast.Inspect(b, func(k ast.Node) bool {
					if c, ok := k.(*ast.CallExpr); ok && isPkgFunc(a.callee(c), "time", "Since", "Until", "Now") {
						found = true
					}
					return !found
				})
			}
			return !found
		})
		return !found
	})
	return found
}

// closedSentinel names the errors of a resource that was closed or shut
// down on purpose: io.EOF, net.ErrClosed, http.ErrServerClosed.
var closedSentinel = lazyre.New(`^(EOF|[Ee]rr[A-Za-z]*(Closed|Shutdown|Stopped)[A-Za-z]*)$`)

// isClosedSentinel reports whether e names such an error.
func (a *checker) isClosedSentinel(e ast.Expr) bool {
	v, ok := objOfExpr(a, e).(*types.Var)
	return ok && isError(v.Type()) && closedSentinel.MatchString(v.Name())
}

// markClosed marks the paths on which the failure is known to be such an
// error.
func markClosed(in []*path, closed bool) {
	if !closed {
		return
	}
	for _, p := range in {
		p.closed = true
	}
}

// callCond splits on a boolean call.
func (w *walker) callCond(call *ast.CallExpr, in []*path) (t, f []*path) {
	fn := w.a.callee(call)
	if t, f, ok := w.waitCond(call, in); ok {
		return t, f
	}
	if w.a.contextCheck(call) {
		return split(in, bounded(BoundContext), bounded(BoundContext))
	}
	switch {
	case isPkgFunc(fn, "errors", "Is") && len(call.Args) == 2 && w.a.isContextSentinel(call.Args[1]):
		return w.contextErrTest(call.Args[0], in)
	case isPkgFunc(fn, "errors", "Is") && len(call.Args) == 2:
		t, f = w.classify(call.Args[0], w.a.isBreakerOpen(call.Args[1]), in)
		markClosed(t, w.a.isClosedSentinel(call.Args[1]))
		markPermanent(t, permanentSentinel(call.Args[1]))
		markLocalOS(t, w.a.isErrno(call.Args[1]))
		return t, f
	case isPkgFunc(fn, "errors", "As") && len(call.Args) == 2:
		open := false
		if t := w.a.typeOf(call.Args[1]); t != nil {
			open = failure.BreakerOpen(types.TypeString(t, func(*types.Package) string { return "" }))
		}
		return w.classify(call.Args[0], open, in)
	case fn != nil && (fn.Name() == "After" || fn.Name() == "Before" || fn.Name() == "IsZero") && isTimeish(w.a.recvType(call)):
		return split(in, bounded(BoundDeadline), bounded(BoundDeadline))
	case w.a.deadlineCheck(fn):
		return split(in, bounded(BoundDeadline), bounded(BoundDeadline))
	}
	if (w.inspectsFailure(call) && !w.a.ignoresFailure(fn)) || w.a.isClassifier(fn) {
		var errArg ast.Expr
		for _, arg := range call.Args {
			if w.errKey(arg) != nil {
				errArg = arg
			}
		}
		if errArg == nil {
			errArg = ast.NewIdent("_")
		}
		if t, f, ok := w.codePredicate(fn, call, in); ok {
			return t, f
		}
		retriesOpen := w.a.predicateRetriesBreaker(fn)
		if w.a.trueForNil(fn, call, errArg) {
			t, f = w.classifyDone(errArg, in)
		} else {
			t, f = w.classify(errArg, retriesOpen, in)
		}
		// Only a yes/no answer is a predicate; status.FromError(err) and
		// the like merely unpack the failure.
		predicate := isBool(w.a.typeOf(call)) || isAnswer(w.a.typeOf(call))
		words := w.permanentText(fn, call)
		for _, p := range t {
			p.predicated = predicate
			if words != "" {
				p.saysPermanent = append(p.saysPermanent, words)
			}
		}
		for _, p := range f {
			p.predicated = predicate
			// A predicate that says "do not retry" may well cover the
			// breaker-open error; give it the benefit of the doubt.
			p.breakerExcluded = true
		}
		return t, f
	}
	if isBool(w.a.typeOf(call)) && fn != nil && !failureName.MatchString(strings.TrimPrefix(fn.Name(), "is")) && w.a.doesIO(call) {
		return w.boolOp(call, in)
	}
	return split(in, other, other)
}

// permanentSentinel returns the name of a sentinel error (a package-level
// variable or a constant) named for a permanent failure, or "".
func permanentSentinel(e ast.Expr) string {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return ""
	}
	if !failure.PermanentName(id.Name) {
		return ""
	}
	return types.ExprString(e)
}

// markPermanent records on paths where the failure is the sentinel name
// that they hold a permanent failure.
func markPermanent(in []*path, name string) {
	if name == "" {
		return
	}
	for _, p := range in {
		p.isPermanent = append(p.isPermanent, name)
	}
}

// isErrno reports whether e is an errno of the local system: a value of
// syscall.Errno or golang.org/x/sys/unix's (syscall.ETXTBSY).
func (a *checker) isErrno(e ast.Expr) bool {
	return isNamed(a.typeOf(e), "syscall", "Errno")
}

// markLocalOS records on paths where the failure is an errno of the local
// system that it is.
func markLocalOS(in []*path, errno bool) {
	if !errno {
		return
	}
	for _, p := range in {
		p.localOS = true
	}
}

// permanentText returns the words a text test of the failure looks for
// when they name a permanent failure (strings.Contains(err.Error(),
// "Unauthorized")), or "".
func (w *walker) permanentText(fn *types.Func, call *ast.CallExpr) string {
	if !isPkgFunc(fn, "strings", "Contains", "HasPrefix", "HasSuffix", "EqualFold") || len(call.Args) != 2 {
		return ""
	}
	tv := w.info().Types[call.Args[1]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return ""
	}
	words := strings.TrimSpace(constant.StringVal(tv.Value))
	if !failure.PermanentText(words) {
		return ""
	}
	return words
}

// inspectsFailure reports whether a boolean call looks at the failure: it
// takes an error or a status code, or is a method of an error
// (err.Timeout(), ne.Temporary()).
func (w *walker) inspectsFailure(call *ast.CallExpr) bool {
	if rt := w.a.recvType(call); rt != nil && isError(rt) {
		return true
	}
	found := false
	for _, arg := range call.Args {
		ast.Inspect(arg, func(n ast.Node) bool {
			if found {
				return false
			}
			if e, ok := n.(ast.Expr); ok {
				if t := w.a.typeOf(e); t != nil && (isError(t) || failure.IsGRPCCode(t) || hasStatusCode(t)) {
					found = true
				}
				if w.statusExpr(e) {
					found = true
				}
			}
			return true
		})
		// msg := err.Error(); strings.Contains(msg, "not found"): a value
		// the failure was turned into is the failure read.
		if !found {
			if id, ok := ast.Unparen(arg).(*ast.Ident); ok && !isConst(w, id) && w.derivedFromFailure(id, 0) {
				found = true
			}
		}
	}
	return found
}

// statusExpr reports whether e reads an HTTP status or error code:
// resp.StatusCode, apiErr.Code, a variable named status or code.
func (w *walker) statusExpr(e ast.Expr) bool {
	t := w.a.typeOf(e)
	if t == nil || !isInteger(t) || isConst(w, e) {
		return false
	}
	status, _ := failure.StatusNamed(e)
	return status
}

// codeCheck splits on a comparison of an HTTP status or a gRPC code with a
// constant: x op y, with y constant.
func (w *walker) codeCheck(x ast.Expr, op token.Token, y ast.Expr, in []*path) (t, f []*path, ok bool) {
	v := w.info().Types[y].Value
	if v == nil || v.Kind() != constant.Int {
		return nil, nil, false
	}
	c, exact := constant.Int64Val(v)
	if !exact {
		return nil, nil, false
	}
	div := int64(1)
	if b, ok := ast.Unparen(x).(*ast.BinaryExpr); ok && b.Op == token.QUO {
		if dv := w.info().Types[b.Y].Value; dv != nil {
			if d, ok := constant.Int64Val(dv); ok && d > 0 {
				div, x = d, b.X
			}
		}
	}
	holds := func(code int) bool {
		k := int64(code) / div
		switch op {
		case token.EQL:
			return k == c
		case token.NEQ:
			return k != c
		case token.LSS:
			return k < c
		case token.LEQ:
			return k <= c
		case token.GTR:
			return k > c
		case token.GEQ:
			return k >= c
		}
		return false
	}
	not := func(code int) bool { return !holds(code) }
	switch {
	case failure.IsGRPCCode(w.a.typeOf(x)) && c == 0 && (op == token.EQL || op == token.NEQ) && w.a.codedError(x) != nil:
		// status.Code(err) == codes.OK holds exactly when err is nil: a
		// test of the failure's presence, not of its kind.
		failed, ok := w.nilCheck(w.a.codedError(x), in)
		if op == token.EQL {
			return ok, failed, true
		}
		return failed, ok, true
	case failure.IsGRPCCode(w.a.typeOf(x)):
		t, f = split(in, narrowCodes(holds, true), narrowCodes(not, true))
		return t, f, true
	case w.statusExpr(x) && (div > 1 || c == 0 || c >= 100 && c < 600):
		t, f = split(in, narrowCodes(holds, false), narrowCodes(not, false))
		return t, f, true
	}
	return nil, nil, false
}

// isClassifier reports whether fn is one of the configured classifiers.
func (a *checker) isClassifier(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || len(a.config.Classifiers) == 0 {
		return false
	}
	name := fn.Name()
	if n := recvNamed(fn); n != nil {
		name = n.Obj().Name() + "." + name
	}
	for _, c := range a.config.Classifiers {
		if c == fn.Pkg().Name()+"."+name || c == fn.Pkg().Path()+"."+name {
			return true
		}
	}
	return false
}

// derivedFromFailure reports whether an expression is computed from a
// failure: it mentions an error or a status code, directly or through the
// definition of a local variable.
func (w *walker) derivedFromFailure(e ast.Expr, depth int) bool {
	if depth > 3 || isConst(w, e) {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		x, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		if t := w.a.typeOf(x); t != nil && (isError(t) || failure.IsGRPCCode(t)) {
			if !mentionsContextErr(w, x) {
				found = true
			}
			return false
		}
		if id, ok := x.(*ast.Ident); ok {
			if obj := w.info().ObjectOf(id); obj != nil {
				for _, as := range w.fc.assigns[obj] {
					if as.rhs != nil && as.pos < id.Pos() && (as.tok == token.DEFINE || as.tok == token.ASSIGN) &&
						w.derivedFromFailure(as.rhs, depth+1) {
						found = true
					}
				}
			}
		}
		return true
	})
	return found
}

// narrowCodes marks a path on which the failure is known to carry an HTTP
// status (or, with grpc, a gRPC code) for which keep holds: a classified
// failure, not a breaker-open error, and an impossible path when no code is
// left.
func narrowCodes(keep func(int) bool, grpc bool) func(*path) {
	return func(p *path) {
		p.classified, p.guard = true, guardError
		p.breakerExcluded = true
		if grpc {
			p.grpc = p.grpc.Restrict(keep)
			p.dead = p.grpc.Empty()
		} else {
			p.http = p.http.Restrict(keep)
			p.dead = p.http.Empty()
		}
	}
}

// keyedCount reports whether e reads an integer counter kept per key in a
// map: attempts[key], c.failures[item.ID].
func (a *checker) keyedCount(e ast.Expr) bool {
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	if !ok {
		return false
	}
	t := a.typeOf(ix.X)
	if t == nil {
		return false
	}
	m, ok := t.Underlying().(*types.Map)
	return ok && isInteger(m.Elem())
}

// mentionsCounter reports whether e reads a variable that changes from
// one attempt to the next.
func (w *walker) mentionsCounter(e ast.Expr) bool {
	return anyNode(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		return ok && w.lc.counters[w.info().ObjectOf(id)]
	})
}
