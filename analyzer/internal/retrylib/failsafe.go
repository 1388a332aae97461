package retrylib

import (
	"go/ast"
	"go/types"
	"strings"
	"time"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
)

const (
	failsafePath        = "github.com/failsafe-go/failsafe-go"
	failsafeRetryPath   = failsafePath + "/retrypolicy"
	failsafeTimeoutPath = failsafePath + "/timeout"
)

// failsafe reads github.com/failsafe-go/failsafe-go (v0.9.8):
// failsafe.With(policies...).Run(fn), Get, RunWithExecution and
// GetWithExecution, with WithContext(ctx) and Compose(p) on the way. The
// policies compose outermost first; the first retrypolicy among them is
// the retry layer, and a timeout policy listed before it is a deadline on
// all its attempts (one listed after it times each attempt out).
//
// The RetryPolicy is followed to its builder calls where the package
// builds it: a chain retrypolicy.NewBuilder[R]()...Build(), through
// variables, a constructor or a field of the package, and calls made on a
// builder variable before it is built. Documented defaults, from
// retrypolicy/retry.go at v0.9.8:
//
//   - defaultMaxRetries = 2 (line 14, set by NewBuilder at line 209): 3
//     attempts; WithMaxRetries(n) and WithMaxAttempts(n+1) change it, -1
//     is no limit (lines 258-270); 0 retries nothing.
//   - no delay: NewBuilder leaves Delay at 0 and getFixedOrRandomDelay
//     (retryexecutor.go, lines 144-159) returns 0 without WithDelay,
//     WithBackoff or WithRandomDelay: the retries follow each other at
//     once.
//   - WithDelay(d) waits d every time; WithBackoff(d, max) doubles from d
//     up to max (retry.go line 288: factor 2; retryexecutor.go line 149:
//     min(backoff, maxDelay)); WithBackoffFactor sets the factor;
//     WithRandomDelay(min, max) waits a random time in between.
//   - no jitter unless WithJitter or WithJitterFactor, applied only to a
//     non-zero delay (retryexecutor.go lines 137-139).
//   - every error is handled (retried) unless HandleErrors,
//     HandleErrorTypes or HandleIf replace the condition
//     (policy/policy.go, IsFailure, lines 67-77); HandleResult does not.
//     AbortOnErrors, AbortOnErrorTypes and AbortIf stop on what they
//     match.
//   - WithMaxDuration bounds the retries in time; the executor's context
//     (WithContext, context.Background() by default, executor.go line
//     105) ends the wait between attempts (retryexecutor.go lines 73-77).
func failsafe(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	if fn.Signature().Recv() == nil || len(call.Args) != 1 {
		return nil
	}
	switch fn.Name() {
	case "Run", "Get", "RunWithExecution", "GetWithExecution":
	default:
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	t := newReader(info, call, enclosing)
	ex, ok := t.failsafeExecutor(sel.X, 0)
	if !ok {
		return nil // an executor from code the finder cannot see
	}
	var rp *failsafeRetry
	deadline := false
	for _, p := range ex.policies {
		kind, c := p.where.failsafePolicy(p.expr, 0)
		switch {
		case kind == failsafeTimeoutPolicy && rp == nil:
			deadline = true // outside the retries: a deadline on all of them
		case kind == failsafeRetryPolicy && rp == nil:
			rp = c
		}
	}
	if rp == nil {
		return nil // no retry policy among them
	}
	if rp.retriesKnown && rp.retries == 0 {
		return nil // a single attempt
	}
	op := t.undecorated(call.Args[0], 3)
	s := rp.schedule(call)
	s.deadline = s.deadline || deadline
	s.ctx = ex.ctx
	v := verdict{classified: true}
	switch {
	case rp.opaque:
	case rp.handled:
		v = verdict{classified: rp.handleClassified, permanent: rp.permanent}
	default:
		v = t.operation(op, opKind{path: failsafePath})
		v.classified = v.classified || rp.aborts
	}
	if rp.handled && rp.aborts {
		v.classified = true
	}
	r := s.retrier(failsafePath, call, op, v)
	r.Fixes = failsafeFixes
	return r
}

// failsafeExecutor is what an Executor was built with.
type failsafeExecutor struct {
	policies []tracedExpr
	ctx      ctxState
}

// tracedExpr is an expression with the reader of the body it is in.
type tracedExpr struct {
	expr  ast.Expr
	where *reader
}

// failsafeExecutor follows an Executor to failsafe.With and the
// WithContext, Compose and listener calls made on it.
func (t *reader) failsafeExecutor(e ast.Expr, depth int) (failsafeExecutor, bool) {
	if depth > maxTrace {
		return failsafeExecutor{}, false
	}
	x, where := t.value(e)
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return failsafeExecutor{}, false
	}
	fn := callee(where.info, call)
	if fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) != failsafePath {
		return failsafeExecutor{}, false
	}
	if fn.Signature().Recv() == nil {
		if fn.Name() != "With" {
			return failsafeExecutor{}, false
		}
		opts, ok := where.options(call, 0)
		if !ok {
			return failsafeExecutor{}, false
		}
		var ex failsafeExecutor
		for _, o := range opts {
			ex.policies = append(ex.policies, tracedExpr{o, where})
		}
		return ex, true
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return failsafeExecutor{}, false
	}
	ex, ok := where.failsafeExecutor(sel.X, depth+1)
	if !ok {
		return ex, false
	}
	switch fn.Name() {
	case "WithContext":
		if len(call.Args) == 1 {
			ex.ctx = where.context(call.Args[0])
		}
	case "Compose":
		if len(call.Args) == 1 {
			ex.policies = append(ex.policies, tracedExpr{call.Args[0], where})
		}
	case "OnDone", "OnSuccess", "OnFailure":
	default:
		return ex, false
	}
	return ex, true
}

type failsafeKind int

const (
	failsafeOtherPolicy failsafeKind = iota
	failsafeRetryPolicy
	failsafeTimeoutPolicy
)

// failsafeRetry is the configuration of a RetryPolicy's builder.
type failsafeRetry struct {
	retries      int // -1 no limit
	retriesKnown bool
	boundUnknown bool
	maxDuration  bool

	delay      time.Duration // WithDelay, WithBackoff's first delay
	delayKnown bool
	delayText  string
	maxDelay   bool // WithBackoff: the delay grows up to a maximum
	factor     float64
	factorOK   bool
	random     bool // WithRandomDelay
	jitter     bool
	delayFunc  bool
	delayAt    ast.Expr

	handled          bool // HandleErrors, HandleErrorTypes, HandleIf
	handleClassified bool
	permanent        []string
	aborts           bool
	opaque           bool
}

// failsafePolicy reads one policy given to failsafe.With.
func (t *reader) failsafePolicy(e ast.Expr, depth int) (failsafeKind, *failsafeRetry) {
	x, where := t.value(e)
	if call, ok := ast.Unparen(x).(*ast.CallExpr); ok {
		if fn := callee(where.info, call); fn != nil && fn.Pkg() != nil {
			switch p := Path(fn.Pkg()); {
			case p == failsafeTimeoutPath && (fn.Name() == "New" || fn.Name() == "Build"):
				return failsafeTimeoutPolicy, nil
			case p == failsafeRetryPath && fn.Name() == "NewWithDefaults":
				c := newFailsafeRetry(call)
				return failsafeRetryPolicy, c
			case p == failsafeRetryPath && fn.Name() == "Build" && fn.Signature().Recv() != nil:
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
					return failsafeRetryPolicy, where.failsafeBuilder(sel.X, depth+1)
				}
			}
		}
	}
	// A policy from code the finder cannot see: a retry policy by its
	// type, with nothing known of its configuration.
	if typ := t.info.TypeOf(e); typ != nil {
		if n, ok := types.Unalias(typ).(*types.Named); ok && n.Obj().Pkg() != nil && Path(n.Obj().Pkg()) == failsafeRetryPath && n.Obj().Name() == "RetryPolicy" {
			return failsafeRetryPolicy, &failsafeRetry{opaque: true, delayAt: e}
		}
	}
	return failsafeOtherPolicy, nil
}

func newFailsafeRetry(at ast.Expr) *failsafeRetry {
	return &failsafeRetry{retries: 2, retriesKnown: true, delayKnown: true, delayAt: at}
}

// failsafeBuilder follows a retrypolicy.Builder to NewBuilder and applies
// the configuration calls of its chain, then those made on the variable
// that holds it.
func (t *reader) failsafeBuilder(e ast.Expr, depth int) *failsafeRetry {
	if depth > maxTrace {
		return &failsafeRetry{opaque: true, delayAt: e}
	}
	x, where := t.value(e)
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return &failsafeRetry{opaque: true, delayAt: e}
	}
	fn := callee(where.info, call)
	if fn == nil || fn.Pkg() == nil {
		return &failsafeRetry{opaque: true, delayAt: e}
	}
	var c *failsafeRetry
	switch p := Path(fn.Pkg()); {
	case p == failsafeRetryPath && fn.Name() == "NewBuilder" && fn.Signature().Recv() == nil:
		c = newFailsafeRetry(call)
	case (p == failsafeRetryPath || p == failsafePath) && fn.Signature().Recv() != nil:
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return &failsafeRetry{opaque: true, delayAt: e}
		}
		c = where.failsafeBuilder(sel.X, depth+1)
		c.apply(where, call, fn.Name())
	default:
		return &failsafeRetry{opaque: true, delayAt: e}
	}
	for _, m := range t.methodCallsOn(e, failsafePath) {
		if mfn := callee(t.info, m); mfn != nil {
			c.apply(t, m, mfn.Name())
		}
	}
	return c
}

// apply reads one builder call.
func (c *failsafeRetry) apply(t *reader, call *ast.CallExpr, name string) {
	arg := func(i int) ast.Expr {
		if i < len(call.Args) {
			return call.Args[i]
		}
		return nil
	}
	site := chainSite(call)
	switch name {
	case "WithMaxRetries", "WithMaxAttempts":
		n, ok := t.integer(arg(0))
		if !ok {
			c.retriesKnown, c.boundUnknown = false, true
			return
		}
		if name == "WithMaxAttempts" && n != -1 {
			n--
		}
		c.retries, c.retriesKnown, c.boundUnknown = int(n), true, false
		if n < 0 {
			c.retries = -1
		}
	case "WithMaxDuration":
		d, ok := t.duration(arg(0))
		c.maxDuration = !ok || d != 0
	case "WithDelay":
		c.delay, c.delayKnown = t.duration(arg(0))
		c.delayText, c.delayAt = t.durationText(arg(0)), site
		c.delayFunc = false
	case "WithBackoff", "WithBackoffFactor":
		c.delay, c.delayKnown = t.duration(arg(0))
		c.delayText, c.delayAt = t.durationText(arg(0)), site
		d, ok := t.duration(arg(1))
		c.maxDelay = !ok || d != 0
		c.factor, c.factorOK = 2, true
		if name == "WithBackoffFactor" {
			c.factor, c.factorOK = t.float(arg(2))
		}
		c.random, c.delayFunc = false, false
	case "WithRandomDelay":
		c.random, c.delayAt = true, site
		c.delay, c.delayKnown, c.maxDelay, c.delayFunc = 0, true, false, false
	case "WithJitter":
		d, ok := t.duration(arg(0))
		c.jitter = !ok || d != 0
	case "WithJitterFactor":
		f, ok := t.float(arg(0))
		c.jitter = !ok || f != 0
	case "WithDelayFunc":
		c.delayFunc, c.delayAt = true, site
	case "HandleErrors", "HandleErrorTypes":
		c.handled, c.handleClassified = true, true
		for _, a := range call.Args {
			if id := failsafeErrName(a); failure.BreakerOpen(id) && !slicesContains(c.permanent, failure.DescribeBreakerOpen()) {
				c.permanent = append(c.permanent, failure.DescribeBreakerOpen())
			}
		}
	case "HandleIf":
		p := t.predicate(arg(0))
		c.handled = true
		c.handleClassified = c.handleClassified || p.classified
		for _, s := range p.permanent {
			if !slicesContains(c.permanent, s) {
				c.permanent = append(c.permanent, s)
			}
		}
	case "AbortOnErrors", "AbortOnErrorTypes":
		c.aborts = true
	case "AbortIf":
		if p := t.predicate(arg(0)); p.classified {
			c.aborts = true
		}
	}
}

// chainSite returns where a call of a builder chain is reported: the
// method's name when the call is chained on another call (a chain starts
// where its first call does, lines above), else the call.
func chainSite(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if _, chained := ast.Unparen(sel.X).(*ast.CallExpr); chained {
			return sel.Sel
		}
	}
	return call
}

// failsafeErrName returns the name an error argument is spelled with.
func failsafeErrName(e ast.Expr) string {
	if id := nameIdent(e); id != nil {
		return id.Name
	}
	return ""
}

func (c *failsafeRetry) schedule(call *ast.CallExpr) schedule {
	s := schedule{at: c.delayAt, deadline: c.maxDuration, unknown: c.boundUnknown || c.opaque}
	if c.retriesKnown && c.retries > 0 {
		s.attempts = c.retries + 1
	}
	switch {
	case c.opaque:
		s.delay, s.waits = Delay{Unknown: true}, true
		return s
	case c.delayFunc:
		s.delay, s.waits = Delay{Unknown: true}, true
	case c.random:
		s.delay, s.waits = Delay{Random: true, Capped: true}, true
	case c.delayKnown && c.delay <= 0:
		s.waits = false
	case c.maxDelay:
		grows := !c.factorOK || c.factor > 1
		s.delay, s.waits = Delay{Grows: grows, Capped: true, Random: c.jitter}, true
		s.initial, s.initialKnown, s.factor = c.delay, c.delayKnown, c.factor
		if !grows && !c.jitter {
			s.delay.Value = c.delayText
		}
	default:
		s.delay, s.waits = Delay{Random: c.jitter, Capped: true}, true
		if !c.jitter {
			s.delay.Value = c.delayText
		}
	}
	if s.at == nil {
		s.at = call.Fun
	}
	return s
}

// methodCallsOn returns the calls, as statements of their own, that the
// code makes on the variable holding e before the use, in order: the
// configuration of a builder or retrier changed in place
// (b.WithMaxRetries(5), r.SetJitter(0.25)). Only calls of methods of
// packages under path count.
func (t *reader) methodCallsOn(e ast.Expr, path string) []*ast.CallExpr {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := t.info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	body := t.body
	if body == nil || !(body.Pos() <= v.Pos() && v.Pos() < body.End()) {
		body = t.declaringBody(v.Pos())
	}
	if body == nil {
		return nil
	}
	use := t.use
	if !(body.Pos() <= use && use < body.End()) {
		use = body.End()
	}
	var calls []*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		es, ok := n.(*ast.ExprStmt)
		if !ok || es.Pos() >= use {
			return true
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || t.info.ObjectOf(x) != v {
			return true
		}
		if fn := callee(t.info, call); fn != nil && fn.Pkg() != nil && strings.HasPrefix(Path(fn.Pkg()), path) {
			calls = append(calls, call)
		}
		return true
	})
	return calls
}

var failsafeFixes = map[string]string{
	"fixed-sleep":           "use WithBackoff(delay, maxDelay) with WithJitterFactor(...) instead of WithDelay",
	"no-jitter":             "add WithJitterFactor(0.25) or WithJitter(d) to the retry policy",
	"no-cap":                "give WithBackoff a maxDelay",
	"unbounded-retry":       "set WithMaxRetries(n) with n >= 0, WithMaxDuration(d), or run it WithContext(ctx) with a context that ends",
	"unclassified-retry":    "add HandleErrors(...) or HandleIf(...) for the transient errors, or AbortOnErrors(...) for the permanent ones",
	"retry-permanent":       "make HandleIf return false for these (or AbortIf), and retry only 408, 429, 5xx or Unavailable",
	"sleep-ignores-context": "run the executor WithContext(ctx)",
}
