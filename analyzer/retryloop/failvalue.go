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

// valueKind is what tells that an attempt failed.
type valueKind int8

const (
	kindError  valueKind = iota // an error value: non-nil is a failure
	kindFlag                    // a bool result: false is a failure (ok = tryLock(ctx))
	kindHandle                  // a handle: nil is a failure (c := dial(addr))
	kindResult                  // a result whose field says it failed (res.Failed)
	kindList                    // a list of what failed: non-empty is a failure
	kindErrors                  // the errors of an attempt: non-empty is a failure
	kindAgain                   // an attempt's own answer: true asks for another try
)

// Operations that fail without an error value count only when they reach
// another system: a bool or a handle from a local check (os.Stat, an
// atomic, a ready() callback) is a condition to wait for, not an attempt.

// valueFacts records, for an assignment from a call that does I/O, the
// variables that tell its outcome without an error: a bool, a handle, a
// result with a failure field. withErr says assignCall already took the
// call as the path's operation.
func (w *walker) valueFacts(lhs []ast.Expr, call *ast.CallExpr, in []*path, withErr bool) {
	if withErr && w.againFact(lhs, call, in) {
		return
	}
	if !w.a.doesIO(call) || w.a.contextCheck(call) {
		return // ctxCanceled := g.failWait(n) tells the context's end
	}
	results := resultTypes(w.a.typeOf(call))
	if len(results) != len(lhs) {
		return
	}
	took := false
	for i, l := range lhs {
		id, ok := ast.Unparen(l).(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		obj := w.info().ObjectOf(id)
		if obj == nil {
			continue
		}
		kind := kindError
		switch t := results[i]; {
		case isError(t):
			continue
		case isBool(t) && (withErr && successName.MatchString(id.Name) && !stateName.MatchString(id.Name) || !withErr && !failureName.MatchString(id.Name)):
			// ok = tryLock(ctx); acquired, err := kv.SetNX(...). Next to
			// an error a bool is as often data (found, changed), so only
			// a name that says success makes it the outcome. One that
			// says a state (ready, err := checkPropagated()) is a poll's
			// "not yet": the error beside it is the failure.
			kind = kindFlag
		case !withErr && isNillable(t):
			kind = kindHandle
		case hasFailureField(t):
			kind = kindResult
		case isErrorList(t):
			// errs := runBatch(ctx): the errors of the attempt, none
			// when it succeeded.
			kind = kindErrors
		default:
			continue
		}
		for _, p := range in {
			if !withErr && !took {
				p.last = call
				p.guard = guardNone
				p.maybeOK = false
				p.http, p.grpc = failure.AllHTTP(), failure.AllGRPC()
			}
			p.errs[obj] = errFact{op: call, kind: kind}
		}
		took = true
	}
}

// forgetValues drops what the paths know about the failure values an
// assignment overwrites: connected = true no longer tells an attempt.
func (w *walker) forgetValues(lhs []ast.Expr, in []*path) {
	for _, l := range lhs {
		id, ok := ast.Unparen(l).(*ast.Ident)
		if !ok {
			continue
		}
		obj := w.info().ObjectOf(id)
		for _, p := range in {
			if f, ok := p.errs[obj]; ok && f.kind != kindError {
				delete(p.errs, obj)
			}
		}
	}
}

// isErrorList reports whether t is a slice of errors.
func isErrorList(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	return ok && isError(s.Elem())
}

func resultTypes(t types.Type) []types.Type {
	switch t := t.(type) {
	case nil:
		return nil
	case *types.Tuple:
		out := make([]types.Type, t.Len())
		for i := range out {
			out[i] = t.At(i).Type()
		}
		return out
	}
	return []types.Type{t}
}

func isNillable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Map, *types.Chan:
		return true
	}
	return false
}

// successName and failureName say which way a bool outcome points.
var (
	stateName   = lazyre.New(`^(?i:done|ready|healthy)$`)
	successName = lazyre.New(`^(?i:ok|acquired|locked|granted|success|succeeded|connected|elected|leader|done|ready|healthy)$`)
	failureName = lazyre.New(`^(?i:no|not|fail|failed|lost|expired|timeout|timedout|busy|denied|refused|retry|skip|stale)`)
)

// failureField names a bool field that says whether a call failed.
var failureField = lazyre.New(`^(?i:failed|failure|errors|haserrors|ok|success|succeeded|acknowledged)$`)

func failureFieldSays(name string) (failedWhenTrue bool) {
	switch strings.ToLower(name) {
	case "ok", "success", "succeeded", "acknowledged":
		return false
	}
	return true
}

// hasFailureField reports whether t (or what it points to) is a struct
// with a bool field such as Failed or OK.
func hasFailureField(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); isBool(f.Type()) && failureField.MatchString(f.Name()) {
			return true
		}
	}
	return false
}

// setOutcome returns a mark that sets the outcome of the value under key:
// failed, or succeeded.
func setOutcome(key any, failed bool) func(*path) {
	return func(p *path) {
		f, ok := p.errs[key]
		if !ok {
			other(p)
			return
		}
		s := errNil
		if failed {
			s = errNonNil
		}
		if f.state != errUnknown && f.state != s {
			p.dead = true
			return
		}
		f.state = s
		p.errs[key] = f
		p.guard = guardError
	}
}

// knows reports whether some path has a fact of one of kinds for key.
func knows(in []*path, key any, kinds ...valueKind) bool {
	for _, p := range in {
		if f, ok := p.errs[key]; ok {
			for _, k := range kinds {
				if f.kind == k {
					return true
				}
			}
		}
	}
	return false
}

// flagCond splits on a bool that tells an attempt's outcome: ok, acquired.
func (w *walker) flagCond(id *ast.Ident, in []*path) (t, f []*path, ok bool) {
	obj := w.info().ObjectOf(id)
	if obj == nil {
		return nil, nil, false
	}
	switch {
	case knows(in, obj, kindFlag):
		t, f = split(in, setOutcome(obj, false), setOutcome(obj, true))
	case knows(in, obj, kindAgain):
		t, f = split(in, setOutcome(obj, true), setOutcome(obj, false))
	default:
		return nil, nil, false
	}
	return t, f, true
}

// fieldCond splits on the failure field of a result: res.Failed, res.OK.
func (w *walker) fieldCond(sel *ast.SelectorExpr, in []*path) (t, f []*path, ok bool) {
	id, isIdent := ast.Unparen(sel.X).(*ast.Ident)
	if !isIdent || !isBool(w.a.typeOf(sel)) || !failureField.MatchString(sel.Sel.Name) {
		return nil, nil, false
	}
	obj := w.info().ObjectOf(id)
	if obj == nil || !knows(in, obj, kindResult) {
		return nil, nil, false
	}
	failed := failureFieldSays(sel.Sel.Name)
	t, f = split(in, setOutcome(obj, failed), setOutcome(obj, !failed))
	return t, f, true
}

// handleCheck splits on `c != nil` for a handle an I/O call returned
// without an error: t is where it is non-nil, a success.
func (w *walker) handleCheck(x ast.Expr, in []*path) (t, f []*path, ok bool) {
	id, isIdent := ast.Unparen(x).(*ast.Ident)
	if !isIdent {
		return nil, nil, false
	}
	obj := w.info().ObjectOf(id)
	if obj == nil || !knows(in, obj, kindHandle) {
		return nil, nil, false
	}
	t, f = split(in, setOutcome(obj, false), setOutcome(obj, true))
	return t, f, true
}

// boolOp splits on a bool call that does I/O, taken as the attempt:
// if lock.TryAcquire(ctx) { ... }. A name that says failure (noQuorum,
// isExpired) is not read as an outcome.
func (w *walker) boolOp(call *ast.CallExpr, in []*path) (t, f []*path) {
	in = w.effects(&ast.ExprStmt{X: call}, in, false)
	for _, p := range in {
		p.last = call
		p.guard = guardNone
		p.maybeOK = false
		p.http, p.grpc = failure.AllHTTP(), failure.AllGRPC()
		p.errs[call] = errFact{op: call, kind: kindFlag}
	}
	return split(in, setOutcome(call, false), setOutcome(call, true))
}

// doesIO reports whether a call reaches another system: it is given a
// context, goes through the network or a database, or is a same-package
// function that does so.
func (a *checker) doesIO(call *ast.CallExpr) bool {
	fn := a.callee(call)
	if fn != nil && a.decls[fn.Origin()] != nil {
		// Its body says: contextCanceled(ctx) only reads the context.
		return a.summarizeIO(fn, 0)
	}
	for _, arg := range call.Args {
		if isContext(a.typeOf(arg)) {
			return true
		}
	}
	return fn != nil && (remotePkg(funcPath(fn)) || pingsPeer(fn))
}

// pingsPeer reports a method named Ping of another package or of an
// interface: a ping asks another system whether it answers
// (store.Ping(), client.PingContext(ctx) is read by its context).
func pingsPeer(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && fn.Name() == "Ping"
}

func remotePkg(path string) bool {
	switch {
	case path == "net", path == "net/http", path == "database/sql", path == "net/rpc", path == "net/smtp", path == "crypto/tls":
		return true
	case strings.HasPrefix(path, "google.golang.org/grpc"):
		return true
	}
	return false
}

// summarizeIO reports whether a same-package function does I/O on some
// path: a call given a context, into a network package, or through an
// interface method that returns an error (a client).
func (a *checker) summarizeIO(fn *types.Func, depth int) bool {
	fn = fn.Origin()
	if a.io == nil {
		a.io = make(map[*types.Func]bool)
	}
	if v, ok := a.io[fn]; ok {
		return v
	}
	decl := a.decls[fn]
	if decl == nil || depth > 3 {
		return false
	}
	a.io[fn] = false // recursion guard
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		for _, arg := range call.Args {
			if isContext(a.typeOf(arg)) {
				found = true
			}
		}
		callee := a.callee(call)
		switch {
		case callee == nil || a.localCheck(call) || a.isErrorConstructor(call):
		case remotePkg(funcPath(callee)):
			found = true
		case isInterfaceMethod(callee) && a.errorResult(call) >= 0:
			found = true
		case a.decls[callee.Origin()] != nil:
			found = a.summarizeIO(callee, depth+1)
		}
		return !found
	})
	a.io[fn] = found
	return found
}

func isInterfaceMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	return types.IsInterface(sig.Recv().Type())
}

// listFacts follows lists of failed attempts: failed = append(failed, p)
// where an attempt has failed, and unconnected = failed.
func (w *walker) listFacts(lhs, rhs []ast.Expr, in []*path) {
	for i, l := range lhs {
		obj := w.objOf(l)
		if obj == nil {
			continue
		}
		if _, ok := obj.Type().Underlying().(*types.Slice); !ok {
			continue
		}
		r := ast.Unparen(rhs[i])
		for _, p := range in {
			switch {
			case isAppendTo(w, r, obj):
				if op := p.failedOp(); op != nil {
					p.errs[obj] = errFact{op: op, state: errNonNil, kind: kindList}
				}
			case w.objOf(r) != nil:
				if f, ok := p.errs[w.objOf(r)]; ok && (f.kind == kindList || f.kind == kindErrors) {
					p.errs[obj] = f
				}
			}
		}
	}
}

func isAppendTo(w *walker, e ast.Expr, obj types.Object) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) < 2 {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	if b, ok := w.info().Uses[id].(*types.Builtin); !ok || b.Name() != "append" {
		return false
	}
	return w.objOf(call.Args[0]) == obj
}

// listCheck splits on len(list) compared with zero, for a list of failed
// attempts: t is where the comparison holds.
func (w *walker) listCheck(x ast.Expr, op token.Token, y ast.Expr, in []*path) (t, f []*path, ok bool) {
	call, isCall := ast.Unparen(x).(*ast.CallExpr)
	if !isCall || len(call.Args) != 1 || !isZero(w, y) {
		return nil, nil, false
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || id.Name != "len" {
		return nil, nil, false
	}
	obj := w.objOf(call.Args[0])
	if obj == nil || !knows(in, obj, kindList, kindErrors) {
		return nil, nil, false
	}
	var nonEmpty bool
	switch op {
	case token.GTR, token.NEQ:
		nonEmpty = true
	case token.EQL, token.LEQ:
		nonEmpty = false
	default:
		return nil, nil, false
	}
	failed := func(p *path) {
		if _, ok := p.errs[obj]; ok {
			setOutcome(obj, true)(p)
		} else {
			other(p) // not known to hold failures: the list it started with
		}
	}
	empty := func(p *path) {
		if f, ok := p.errs[obj]; ok {
			if f.state == errUnknown {
				// errs := runBatch(ctx): none came back, it succeeded.
				setOutcome(obj, false)(p)
				return
			}
			p.dead = true // a failure was added
			return
		}
		p.guard = guardError // nothing failed this round
	}
	if nonEmpty {
		t, f = split(in, failed, empty)
	} else {
		t, f = split(in, empty, failed)
	}
	return t, f, true
}

func isZero(w *walker, e ast.Expr) bool {
	v := w.info().Types[e].Value
	return v != nil && v.Kind() == constant.Int && constant.Sign(v) == 0
}

// lenOfFailureList reports whether e is len(x) for a list the loop fills
// with what failed: x = append(x, ...) under a test of an error, or x
// assigned from such a list.
func (a *checker) lenOfFailureList(fc *funcCtx, lc *loopCtx, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || id.Name != "len" {
		return false
	}
	obj := objOfExpr(a, call.Args[0])
	if obj == nil {
		return false
	}
	return a.failureList(fc, lc, obj, 0)
}

func (a *checker) failureList(fc *funcCtx, lc *loopCtx, obj types.Object, depth int) bool {
	if depth > 2 {
		return false
	}
	for _, as := range fc.assigns[obj] {
		if !lc.contains(as.pos) || as.rhs == nil {
			continue
		}
		r := ast.Unparen(as.rhs)
		if call, ok := r.(*ast.CallExpr); ok && len(call.Args) >= 2 {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "append" && a.underErrorTest(fc, as.pos) {
				return true
			}
		}
		if src := objOfExpr(a, r); src != nil && src != obj && a.failureList(fc, lc, src, depth+1) {
			return true
		}
	}
	return false
}

// underErrorTest reports whether pos is in the body of an if that tests an
// error.
func (a *checker) underErrorTest(fc *funcCtx, pos token.Pos) bool {
	for _, s := range fc.ifs {
		if s.Body.Pos() <= pos && pos < s.Body.End() && a.condTestsError(s.Cond) {
			return true
		}
	}
	return false
}

// condCountsFailures reports whether a loop condition tests the length of
// a list of failed attempts: for len(unconnected) > 0.
func (a *checker) condCountsFailures(fc *funcCtx, lc *loopCtx, cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && a.lenOfFailureList(fc, lc, e) {
			found = true
		}
		return !found
	})
	return found
}
