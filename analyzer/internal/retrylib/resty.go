package retrylib

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"time"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
)

const (
	restyV2Path = "github.com/go-resty/resty/v2"
	restyV3Path = "resty.dev/v3"
)

// resty's defaults, read from the modules' source:
//
//   - v2.17.2: createClient (client.go) leaves RetryCount 0, and
//     Request.Execute (request.go) sends once when it is 0; otherwise
//     Backoff (retry.go) makes RetryCount retries. RetryWaitTime and
//     RetryMaxWaitTime default to defaultWaitTime 100ms and
//     defaultMaxWaitTime 2s (retry.go). jitterBackoff (retry.go) waits a
//     random point of [d/2, d) with d = min(max, wait·2^attempt), never
//     below RetryWaitTime: capped exponential with jitter; with
//     RetryMaxWaitTime at or below RetryWaitTime every wait is
//     RetryWaitTime. Without a retry condition, Backoff retries when the
//     request returned an error (a transport error: resty v2 returns no
//     error for an HTTP status); with conditions, only when one of them
//     returns true. SetRetryAfter's callback replaces the wait, clamped to
//     [RetryWaitTime, RetryMaxWaitTime]. The wait ends with the request's
//     context (SetContext), context.Background() without one.
//   - v3.0.0-rc.4: New (resty.go, createClient) leaves retryCount 0 (no
//     retry) with retryWaitTime 100ms, retryMaxWaitTime 2s and the default
//     conditions on (isRetryDefaultConditions true); Client.R (client.go)
//     copies them into the Request, whose setters override them.
//     Request.Execute (request.go) retries only idempotent methods (GET,
//     HEAD, PUT, DELETE, OPTIONS, TRACE, QUERY) unless
//     SetRetryAllowNonIdempotent(true); the default condition
//     isDoNotRetryError (retry.go) retries temporary URL errors only, the
//     conditions added retry what they accept, and with the default
//     conditions off and none added nothing is retried.
//     backoffWithJitter.defaultDelayStrategy (retry.go) is v2's capped
//     exponential with jitter, clamped to [min, max] by balanceMinMax; a
//     SetRetryDelayStrategy replaces it unclamped, and
//     RetryConstantDelayStrategy(d) waits d every time.
const (
	restyDefaultWait    = 100 * time.Millisecond
	restyDefaultMaxWait = 2 * time.Second
)

// restySends are the methods of *resty.Request that send it.
var restySends = map[string]bool{"Get": true, "Head": true, "Post": true, "Put": true, "Patch": true, "Delete": true, "Options": true, "Send": true, "Execute": true}

// restyIdempotent are the methods resty v3 retries without
// SetRetryAllowNonIdempotent.
var restyIdempotent = map[string]bool{"GET": true, "HEAD": true, "PUT": true, "DELETE": true, "OPTIONS": true, "TRACE": true, "QUERY": true}

// resty recognises a request sent through a resty client configured with
// retries (v2 and v3): client.R().SetContext(ctx).Get(url). The client's
// and the request's settings are read where they are made, chained or as
// statements on the variable or field holding the client.
func resty(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	lib := Path(fn.Pkg())
	if fn.Signature().Recv() == nil || !restySends[fn.Name()] || !isLibType(fn.Signature().Recv().Type(), lib, "Request") {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	t := newReader(info, call, enclosing)
	reqSteps, reqTrail := t.trail(sel.X, setterOf(lib, "Request"), setterOf(lib, "Request"))
	newReq, ok := isCall(reqTrail.at.info, reqTrail.base, lib, "R", "NewRequest")
	if !ok {
		return nil // a request built where it cannot be read
	}
	rsel, ok := ast.Unparen(newReq.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	cliSteps, cliTrail := reqTrail.at.trail(rsel.X, setterOf(lib, "Client"), setterOf(lib, "Client"))
	if _, ok := isCall(cliTrail.at.info, cliTrail.base, lib, "New", "NewWithClient", "NewWithTransportSettings", "NewWithDialer", "NewWithLocalAddr"); !ok {
		return nil // a client from elsewhere: whether it retries is not known
	}
	cfg := restyConfig{v3: lib == restyV3Path, defaultConds: true}
	for _, s := range cliSteps {
		cfg.apply(s)
	}
	for _, s := range reqSteps {
		cfg.apply(s)
	}
	return cfg.retrier(t, call, fn)
}

// restyConfig is the retry configuration a request is sent with.
type restyConfig struct {
	v3 bool

	count, wait, maxWait *step
	strategy             *step // v2 SetRetryAfter, v3 SetRetryDelayStrategy
	conds                []condition
	defaultConds         bool // v3 SetRetryDefaultConditions
	nonIdempotent        bool // v3 SetRetryAllowNonIdempotent
	ctx                  *step
}

// condition is one retry condition: its expression and the reader it is
// read with; isError marks v2's AddRetryAfterErrorCondition.
type condition struct {
	e       ast.Expr
	r       *reader
	isError bool
}

func (cfg *restyConfig) apply(s step) {
	arg := func() ast.Expr {
		if len(s.args) == 1 {
			return s.args[0]
		}
		return nil
	}
	switch s.name {
	case "SetRetryCount", "=RetryCount":
		cfg.count = &s
	case "SetRetryWaitTime", "=RetryWaitTime":
		cfg.wait = &s
	case "SetRetryMaxWaitTime", "=RetryMaxWaitTime":
		cfg.maxWait = &s
	case "SetRetryAfter", "=RetryAfter", "SetRetryDelayStrategy", "=RetryDelayStrategy":
		cfg.strategy = &s
		if e := arg(); e != nil && isNil(e) {
			cfg.strategy = nil
		}
	case "AddRetryCondition", "AddRetryConditions":
		for _, a := range s.args {
			cfg.conds = append(cfg.conds, condition{e: a, r: s.r})
		}
	case "SetRetryConditions":
		cfg.conds = nil
		for _, a := range s.args {
			cfg.conds = append(cfg.conds, condition{e: a, r: s.r})
		}
	case "AddRetryAfterErrorCondition":
		cfg.conds = append(cfg.conds, condition{isError: true, r: s.r})
	case "SetRetryDefaultConditions", "=IsRetryDefaultConditions":
		if b, ok := boolOf(s.r, arg()); ok {
			cfg.defaultConds = b
		}
	case "SetRetryAllowNonIdempotent", "=IsRetryAllowNonIdempotent":
		if b, ok := boolOf(s.r, arg()); ok {
			cfg.nonIdempotent = b
		}
	case "SetContext", "WithContext":
		cfg.ctx = &s
	}
}

func boolOf(r *reader, e ast.Expr) (bool, bool) {
	if e == nil {
		return false, false
	}
	c := r.constValue(e)
	if c == nil || c.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(c), true
}

func (cfg restyConfig) retrier(t *reader, call *ast.CallExpr, fn *types.Func) *Retrier {
	if cfg.count == nil || len(cfg.count.args) != 1 {
		return nil // RetryCount 0: one attempt
	}
	n, ok := cfg.count.r.integer(cfg.count.args[0])
	if ok && n <= 0 {
		return nil
	}
	if !ok {
		n = 3 // a count of its own: some retries
	}
	if cfg.v3 {
		method := fn.Name()
		if method == "Execute" && len(call.Args) > 0 {
			if c := t.constValue(call.Args[0]); c != nil && c.Kind() == constant.String {
				method = constant.StringVal(c)
			}
		}
		if m := upper(method); m != "SEND" && m != "EXECUTE" && !restyIdempotent[m] && !cfg.nonIdempotent {
			return nil // v3 does not retry a POST or PATCH
		}
		if !cfg.defaultConds && len(cfg.conds) == 0 {
			return nil // no condition left to ask for a retry
		}
	}
	lib := restyV2Path
	if cfg.v3 {
		lib = restyV3Path
	}
	r := &Retrier{
		Library:  lib,
		Call:     call,
		Attempts: limit(n + 1),
		Waits:    true,
		DelayAt:  call.Fun,
	}
	if cfg.ctx != nil && len(cfg.ctx.args) == 1 {
		r.Context = cfg.ctx.r.context(cfg.ctx.args[0]).ends
		r.Deadline = cfg.ctx.r.context(cfg.ctx.args[0]).deadline
	}
	r.Delay, r.DelayAt, r.Waits = cfg.delay(r.DelayAt)
	r.Delay = finiteSchedule(r.Delay, r.Attempts)
	if d := r.Delay; d.Grows && d.Random && d.Capped {
		// Nothing to report about the wait where it is configured: each
		// request answers for its own context.
		r.DelayAt = call.Fun
	}
	r.Classified, r.Permanent = cfg.classify()
	r.Fixes = restyFixes
	return r
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// delay reads the wait between attempts, and where it is configured.
func (cfg restyConfig) delay(at ast.Expr) (Delay, ast.Expr, bool) {
	if s := cfg.strategy; s != nil {
		if len(s.args) == 1 && cfg.v3 {
			if c, ok := isCall(s.r.info, s.args[0], restyV3Path, "RetryConstantDelayStrategy"); ok && len(c.Args) == 1 {
				if d, ok := s.r.duration(c.Args[0]); ok && d <= 0 {
					return Delay{Value: "0s"}, s.site, false
				}
				return Delay{Value: s.r.durationText(c.Args[0])}, s.site, true
			}
		}
		return Delay{Unknown: true}, s.site, true
	}
	dur := func(s *step, def time.Duration) (time.Duration, bool) {
		if s == nil || len(s.args) != 1 {
			return def, true
		}
		return s.r.duration(s.args[0])
	}
	lo, loKnown := dur(cfg.wait, restyDefaultWait)
	hi, hiKnown := dur(cfg.maxWait, restyDefaultMaxWait)
	if cfg.v3 {
		if lo == 0 && hi == 0 && loKnown && hiKnown {
			return Delay{Value: "0s"}, at, false // GH#992: no wait at all
		}
		if lo <= 0 {
			lo = restyDefaultWait
		}
		if hi == 0 {
			hi = restyDefaultMaxWait
		}
	}
	if cfg.maxWait != nil {
		at = cfg.maxWait.site
	} else if cfg.wait != nil {
		at = cfg.wait.site
	}
	if loKnown && hiKnown && hi >= 0 && hi <= lo {
		// Every wait is clamped up to RetryWaitTime.
		if lo <= 0 {
			return Delay{Value: "0s"}, at, false
		}
		return Delay{Value: lo.String()}, at, true
	}
	return Delay{Grows: true, Random: true, Capped: true}, at, true
}

// classify reads what the request is retried on.
func (cfg restyConfig) classify() (bool, []string) {
	if len(cfg.conds) == 0 {
		return true, nil // transport errors (v2), temporary URL errors (v3)
	}
	classified := true
	var permanent []string
	add := func(ps []string) {
		for _, p := range ps {
			if !slices.Contains(permanent, p) {
				permanent = append(permanent, p)
			}
		}
	}
	for _, c := range cfg.conds {
		if c.isError {
			add(httpPermanent(failure.AllHTTP().Permanent())) // response.IsError(): every 4xx and 5xx
			continue
		}
		if c.r.refersToFunc(c.e, restyV3Path, "RetryConditionStatus5XX", "RetryConditionStatusTooManyRequests", "RetryConditionStatusZero") {
			continue
		}
		ft, body, in := c.r.funcOf(c.e)
		if body == nil {
			continue // a condition of its own, not visible here
		}
		v := in.predicate(c.e)
		if !v.classified && !in.usesParams(ft, body) {
			classified = false // retries whatever came back, successes included
		}
		add(v.permanent)
		if in.callsMethod(body, "IsError") || in.callsMethod(body, "IsStatusFailure") {
			add(httpPermanent(failure.AllHTTP().Permanent()))
		}
	}
	return classified, permanent
}

// refersToFunc reports whether e names one of the functions of path.
func (t *reader) refersToFunc(e ast.Expr, path string, names ...string) bool {
	id := nameIdent(e)
	if id == nil {
		return false
	}
	fn, ok := t.info.Uses[id].(*types.Func)
	return ok && fn.Pkg() != nil && Path(fn.Pkg()) == path && slices.Contains(names, fn.Name())
}

// usesParams reports whether a function's body reads one of its
// parameters.
func (t *reader) usesParams(ft *ast.FuncType, body *ast.BlockStmt) bool {
	params := map[types.Object]bool{}
	for _, f := range ft.Params.List {
		for _, id := range f.Names {
			if o := t.info.Defs[id]; o != nil {
				params[o] = true
			}
		}
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && params[t.info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// callsMethod reports whether body calls a method named name.
func (t *reader) callsMethod(body *ast.BlockStmt, name string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == name {
				found = true
			}
		}
		return !found
	})
	return found
}

var restyFixes = map[string]string{
	"fixed-sleep":           "give SetRetryMaxWaitTime room above SetRetryWaitTime so resty's default back-off (capped exponential with jitter) applies, and drop a constant delay strategy",
	"no-jitter":             "leave resty's default back-off, which adds jitter, or add jitter in the delay strategy",
	"unclassified-retry":    "make the retry condition look at the error or the status, e.g. retry only on err != nil, 429 or 5xx",
	"retry-permanent":       "make the retry condition return false for them; retry only 429 and 5xx",
	"sleep-ignores-context": "give the request the caller's context: client.R().SetContext(ctx)",
}

// step is one setting applied to a value the library configures: a
// setter method called on it (name, args), or a field assigned
// ("=Field", the value in args). site is the method's name in the call,
// or the assignment's selector; r reads its arguments.
type step struct {
	name string
	args []ast.Expr
	site ast.Expr
	call *ast.CallExpr // the setter's call; nil for an assignment
	r    *reader
}

func (s step) end() token.Pos {
	if s.call != nil {
		return s.call.End()
	}
	return s.site.End()
}

// trailEnd is where a value was built: base, read with at.
type trailEnd struct {
	base ast.Expr
	at   *reader
}

// setterOf accepts the methods of path's type typ that return the same
// type (chained setters: SetRetryCount, SetContext).
func setterOf(path, typ string) func(fn *types.Func) bool {
	return func(fn *types.Func) bool {
		sig := fn.Signature()
		if sig.Recv() == nil || !isLibType(sig.Recv().Type(), path, typ) {
			return false
		}
		return sig.Results().Len() == 1 && isLibType(sig.Results().At(0).Type(), path, typ)
	}
}

// isLibType reports whether typ is path's named type name, or a pointer to
// it.
func isLibType(typ types.Type, path, name string) bool {
	if p, ok := typ.(*types.Pointer); ok {
		typ = p.Elem()
	}
	n, ok := types.Unalias(typ).(*types.Named)
	return ok && n.Obj().Pkg() != nil && Path(n.Obj().Pkg()) == path && n.Obj().Name() == name
}

// trail follows e back to the expression that built it, through chained
// setters (those accept accepts), variables and fields, and gathers the
// settings applied on the way, in the order they take effect: the
// chained ones, then the statements on each variable that held the
// value (v.SetRetryCount(3), v.RetryCount = 3) before it was used.
//
// stmt accepts the methods whose call as a statement changes the value
// itself (all of resty's setters; only SetRetry of a storage client,
// whose handles' Retryer returns a copy).
func (t *reader) trail(e ast.Expr, accepts, stmt func(*types.Func) bool) ([]step, trailEnd) {
	var back []step // latest first
	cur := t
	for range maxTrace {
		e = ast.Unparen(e)
		switch x := e.(type) {
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				e = x.X
				continue
			}
		case *ast.CallExpr:
			fn := callee(cur.info, x)
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if fn != nil && ok && accepts(fn) {
				back = append(back, step{name: fn.Name(), args: x.Args, site: sel.Sel, call: x, r: cur})
				e = sel.X
				continue
			}
			if ret, where := cur.returned(x); ret != nil {
				e, cur = ret, where
				continue
			}
		case *ast.Ident:
			v, ok := cur.info.Uses[x].(*types.Var)
			if !ok {
				break
			}
			sts := cur.stepsOn(v, stmt)
			for i := len(sts) - 1; i >= 0; i-- {
				back = append(back, sts[i])
			}
			rhs, where := cur.assigned(v)
			if rhs == nil {
				break
			}
			e, cur = rhs, where
			continue
		case *ast.SelectorExpr:
			v, ok := cur.info.Uses[x.Sel].(*types.Var)
			if !ok || !v.IsField() {
				break
			}
			rhs, where := cur.fieldValue(v)
			if rhs == nil {
				break
			}
			e, cur = rhs, where
			continue
		}
		break
	}
	slices.Reverse(back)
	return back, trailEnd{base: e, at: cur}
}

// stepsOn returns, in source order, the settings made on the variable v
// before the use: setters called on it (also chained: v.A().B()), and
// its fields assigned.
func (t *reader) stepsOn(v *types.Var, accepts func(*types.Func) bool) []step {
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
	in := t.at(body, use)
	var out []step
	rooted := func(e ast.Expr) bool {
		for range maxTrace {
			switch x := ast.Unparen(e).(type) {
			case *ast.Ident:
				return t.info.Uses[x] == v
			case *ast.CallExpr:
				fn := callee(t.info, x)
				sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
				if fn == nil || !ok || !accepts(fn) {
					return false
				}
				e = sel.X
			default:
				return false
			}
		}
		return false
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || n.Pos() >= use {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			fn := callee(t.info, x)
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if fn != nil && ok && accepts(fn) && rooted(sel.X) {
				out = append(out, step{name: fn.Name(), args: x.Args, site: sel.Sel, call: x, r: in})
			}
		case *ast.AssignStmt:
			if len(x.Lhs) != len(x.Rhs) {
				return true
			}
			for i, l := range x.Lhs {
				if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok {
					if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && t.info.Uses[id] == v {
						out = append(out, step{name: "=" + sel.Sel.Name, args: []ast.Expr{x.Rhs[i]}, site: sel, r: in})
					}
				}
			}
		}
		return true
	})
	// Inner calls of a chain end first: order by where each call ends.
	slices.SortStableFunc(out, func(a, b step) int { return int(a.end()) - int(b.end()) })
	return out
}
