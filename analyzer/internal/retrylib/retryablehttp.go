package retrylib

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"time"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
)

const retryablehttpPath = "github.com/hashicorp/go-retryablehttp"

// retryablehttp's defaults (v0.7.8, NewClient): RetryMax 4 retries after
// the first attempt, waits from RetryWaitMin 1s growing to RetryWaitMax 30s
// with DefaultBackoff (exponential, capped, no jitter), and CheckRetry
// DefaultRetryPolicy (connection errors, 429, 5xx but 501).
const (
	httpDefaultRetryMax = 4
	httpDefaultWaitMin  = time.Second
	httpDefaultWaitMax  = 30 * time.Second
)

// httpRequestMethods are the methods of *retryablehttp.Client that send a
// request with retries; StandardClient hands the retries to an
// *http.Client.
var httpRequestMethods = map[string]bool{"Do": true, "Get": true, "Head": true, "Post": true, "PostForm": true, "StandardClient": true}

// retryablehttp recognises the retries of github.com/hashicorp/go-retryablehttp:
// a request sent by a *Client (Do, Get, Head, Post, PostForm), a client
// handed to net/http through StandardClient, the package-level Get, Head,
// Post and PostForm of the default client, and a NewClient whose client
// leaves the function unused (configured here, used elsewhere).
func retryablehttp(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	t := newReader(info, call, enclosing)
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil {
		return nil
	}
	if sig.Recv() != nil {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || !isHTTPClient(sig.Recv().Type()) || !httpRequestMethods[fn.Name()] {
			return nil
		}
		cfg := t.httpClient(sel.X)
		ctx := true
		switch fn.Name() {
		case "Do":
			if len(call.Args) == 1 {
				ctx = t.requestContext(call.Args[0])
			}
		case "Get", "Head", "Post", "PostForm":
			ctx = false // a request without a context
		}
		return cfg.retrier(t, call, ctx, fn.Name() == "StandardClient")
	}
	switch fn.Name() {
	case "Get", "Head", "Post", "PostForm":
		cfg := httpConfig{at: call}
		return cfg.retrier(t, call, false, false)
	case "NewClient":
		client, escapes := t.clientRef(call)
		if !escapes && t.sendsRequest(client) {
			return nil // read at its requests
		}
		cfg := httpConfig{at: call}
		if t.body != nil {
			set := newFields()
			t.setOn(set, client, t.body, t.body.End())
			cfg.set(set)
		}
		r := cfg.retrier(t, call, true, true)
		if r != nil && cfg.backoff == nil && t.passedOn(client) {
			// Handed to a function that may set its Backoff.
			r.Delay = Delay{Unknown: true}
		}
		return r
	}
	return nil
}

func isHTTPClient(typ types.Type) bool {
	if p, ok := typ.(*types.Pointer); ok {
		typ = p.Elem()
	}
	n, ok := typ.(*types.Named)
	return ok && n.Obj().Pkg() != nil && Path(n.Obj().Pkg()) == retryablehttpPath && n.Obj().Name() == "Client"
}

// httpConfig is the retry configuration of one *retryablehttp.Client.
type httpConfig struct {
	// at is where the client is configured (the NewClient call or the
	// struct literal); nil when the client comes from elsewhere.
	at ast.Expr
	// literal reports a client built as a struct literal: fields it
	// leaves out are zero, not NewClient's defaults.
	literal bool

	retryMax, waitMin, waitMax ast.Expr
	backoff, checkRetry        ast.Expr
}

// httpClient reads the configuration of the client x names at the use:
// a NewClient call or a Client literal in the function, and the fields
// set on x before the use. A client built in another function is read,
// and reported, where it is built.
func (t *reader) httpClient(x ast.Expr) httpConfig {
	var cfg httpConfig
	if v, where := t.value(x); where.body == t.body {
		cfg.fromValue(where, v)
	}
	set := newFields()
	t.setOn(set, t.refOf(x), t.body, t.use)
	cfg.set(set)
	return cfg
}

// fromValue reads a NewClient call or a Client struct literal.
func (cfg *httpConfig) fromValue(t *reader, v ast.Expr) {
	if _, ok := isCall(t.info, v, retryablehttpPath, "NewClient"); ok {
		cfg.at = v
		return
	}
	if lit := compositeOf(v); lit != nil {
		if tv, ok := t.info.Types[lit]; ok && isHTTPClient(tv.Type) {
			cfg.at = lit
			cfg.literal = true
			cfg.set(structFields(lit))
		}
	}
}

// set applies fields set on the client.
func (cfg *httpConfig) set(f fields) {
	for name, v := range f.value {
		cfg.field(name, v)
	}
}

func (cfg *httpConfig) field(name string, v ast.Expr) {
	switch name {
	case "RetryMax":
		cfg.retryMax = v
	case "RetryWaitMin":
		cfg.waitMin = v
	case "RetryWaitMax":
		cfg.waitMax = v
	case "Backoff":
		cfg.backoff = v
	case "CheckRetry":
		cfg.checkRetry = v
	}
}

// intField reads an int field: its value, the default when it is left at
// NewClient's, zero when a struct literal leaves it out, and the default
// again when its value cannot be read.
func (cfg *httpConfig) intField(t *reader, e ast.Expr, def int64) int64 {
	if e == nil {
		if cfg.literal {
			return 0
		}
		return def
	}
	if n, ok := t.integer(e); ok {
		return n
	}
	return def
}

func (cfg *httpConfig) durField(t *reader, e ast.Expr, def time.Duration) (time.Duration, bool) {
	if e == nil {
		if cfg.literal {
			return 0, true
		}
		return def, true
	}
	return t.duration(e)
}

// retrier builds the Retrier of a request sent by the client.
//
// configOnly is set for a call that configures a client used elsewhere
// (NewClient, StandardClient).
func (cfg httpConfig) retrier(t *reader, call *ast.CallExpr, ctx, configOnly bool) *Retrier {
	retries := cfg.intField(t, cfg.retryMax, httpDefaultRetryMax)
	if retries <= 0 {
		return nil // RetryMax 0: one attempt, no retry
	}
	attempts := limit(retries + 1)
	r := &Retrier{
		Library:    retryablehttpPath,
		Call:       call,
		Configures: configOnly,
		Attempts:   attempts,
		// A client configured here sends its requests elsewhere, with
		// their own contexts; with no attempt limit nothing seen here
		// ends its retries.
		Context: ctx && (attempts > 0 || !configOnly),
		Waits:   true,
		DelayAt: call,
	}
	if cfg.at != nil {
		r.DelayAt = cfg.at
	}
	if cfg.backoff != nil {
		r.DelayAt = cfg.backoff
	}
	r.Delay = finiteSchedule(cfg.delay(t, retries), r.Attempts)
	if r.Delay.Value == "0s" {
		r.Waits = false // RetryWaitMax 0: no wait at all
	}
	r.Classified, r.Permanent = t.checkRetry(cfg.checkRetry)
	r.Fixes = httpFixes(t, cfg, r.Delay)
	return r
}

// httpFixes says how to fix a client in retryablehttp's terms.
func httpFixes(t *reader, cfg httpConfig, d Delay) map[string]string {
	jitter := "set Backoff to retryablehttp.LinearJitterBackoff with RetryWaitMin below RetryWaitMax, or to a Backoff that adds jitter"
	if d.Grows && cfg.backoff != nil && !d.Random {
		jitter = "give LinearJitterBackoff room to jitter (RetryWaitMin below RetryWaitMax), or use a Backoff that adds jitter"
	}
	capFix := "clamp the Backoff's result to its max argument (RetryWaitMax)"
	if b, where := t.value(cfg.backoff); b != nil && (refersTo(where.info, b, retryablehttpPath, "LinearJitterBackoff") || refersTo(where.info, b, retryablehttpPath, "RateLimitLinearJitterBackoff")) {
		capFix = "LinearJitterBackoff has no cap: keep RetryMax small, or clamp the wait in a Backoff of your own"
	}
	return map[string]string{
		"no-jitter":             jitter,
		"fixed-sleep":           jitter,
		"no-cap":                capFix,
		"unclassified-retry":    "let CheckRetry retry only connection errors, 429 and 5xx, e.g. by deferring to retryablehttp.DefaultRetryPolicy",
		"retry-permanent":       "make CheckRetry return false for them; retryablehttp.DefaultRetryPolicy retries only connection errors, 429 and 5xx",
		"sleep-ignores-context": "build the request with retryablehttp.NewRequestWithContext(ctx, ...) so that cancellation ends the retries",
		"unbounded-retry":       "set RetryMax to a few retries, e.g. 4",
	}
}

// delay reads the wait of the configured Backoff between RetryWaitMin and
// RetryWaitMax.
func (cfg httpConfig) delay(t *reader, retries int64) Delay {
	if cfg.at == nil && cfg.backoff == nil {
		// A client built elsewhere: its wait is read, and reported,
		// where it is configured.
		return Delay{Unknown: true}
	}
	lo, loKnown := cfg.durField(t, cfg.waitMin, httpDefaultWaitMin)
	hi, hiKnown := cfg.durField(t, cfg.waitMax, httpDefaultWaitMax)
	both := loKnown && hiKnown
	b, where := t.value(cfg.backoff)
	switch {
	case b == nil || refersTo(where.info, b, retryablehttpPath, "DefaultBackoff"):
		if both && hi <= lo {
			return Delay{Value: (min(lo, hi)).String()} // min<<n clipped to max: the same every time
		}
		return Delay{Grows: true, Capped: true}
	case refersTo(where.info, b, retryablehttpPath, "LinearJitterBackoff"), refersTo(where.info, b, retryablehttpPath, "RateLimitLinearJitterBackoff"):
		// attempt × a random point in [min, max): linear, finite with RetryMax.
		d := Delay{Grows: true, Random: !(both && hi <= lo)}
		d.Capped = !hiKnown || time.Duration(retries)*max(lo, hi) <= longestFiniteWait
		return d
	}
	if ft, body, in := t.funcOf(cfg.backoff); body != nil {
		if d, ok := in.funcDelay(ft, body, 2); ok {
			return d
		}
	}
	return Delay{Unknown: true}
}

// longestFiniteWait is the longest last wait of a finite schedule that
// still counts as capped.
const longestFiniteWait = ShortSchedule

// requestContext reports whether the context of a *retryablehttp.Request
// can end: NewRequestWithContext(ctx), req.WithContext(ctx) or
// FromRequest of an *http.Request made with one; NewRequest carries
// context.Background().
func (t *reader) requestContext(req ast.Expr) bool {
	for range maxTrace {
		v, where := t.value(req)
		if id, ok := v.(*ast.Ident); ok {
			// req, err := retryablehttp.NewRequest(...), or a helper
			// returning a request and an error: the call.
			o, ok := where.info.Uses[id].(*types.Var)
			if !ok {
				return true
			}
			rhs, index, w := where.lastAssignment(o)
			if rhs == nil || index != 0 {
				return true
			}
			req, t = rhs, w
			continue
		}
		call, ok := ast.Unparen(v).(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := callee(where.info, call)
		switch {
		case isFunc(fn, retryablehttpPath, "NewRequestWithContext"), isFunc(fn, "net/http", "NewRequestWithContext"):
			return len(call.Args) > 0 && where.context(call.Args[0]).ends
		case isFunc(fn, retryablehttpPath, "NewRequest"), isFunc(fn, "net/http", "NewRequest"):
			return false
		case fn != nil && fn.Name() == "WithContext" && len(call.Args) == 1:
			return where.context(call.Args[0]).ends
		case isFunc(fn, retryablehttpPath, "FromRequest") && len(call.Args) == 1:
			req, t = call.Args[0], where
		default:
			return true
		}
	}
	return true
}

// clientRef names where the client a NewClient call builds is kept, and
// reports whether it leaves the function (returned, stored in a field or
// a struct, passed on).
func (t *reader) clientRef(call ast.Expr) (client ref, escapes bool) {
	n := ast.Node(call)
	if u, ok := t.parent(call).(*ast.UnaryExpr); ok && u.Op == token.AND {
		n = u
	}
	switch p := t.parent(n).(type) {
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if ast.Unparen(r) == n && i < len(p.Lhs) {
				id, isVar := ast.Unparen(p.Lhs[i]).(*ast.Ident)
				return t.refOf(p.Lhs[i]), !isVar || t.escapes(id)
			}
		}
	case *ast.ValueSpec:
		for i, v := range p.Values {
			if ast.Unparen(v) == n && i < len(p.Names) {
				return t.refOf(p.Names[i]), t.escapes(p.Names[i])
			}
		}
	case *ast.SelectorExpr:
		return nil, false // retryablehttp.NewClient().Do(req): read at the request
	case *ast.KeyValueExpr:
		// &Service{http: retryablehttp.NewClient()}: configured later as
		// s.http.Backoff = ..., when the struct is kept in a variable.
		id, ok := p.Key.(*ast.Ident)
		lit, isLit := t.parent(p).(*ast.CompositeLit)
		if !ok || !isLit {
			break
		}
		field, isField := t.info.ObjectOf(id).(*types.Var)
		if owner, _ := t.clientRef(lit); owner != nil && isField {
			return append(owner[:len(owner):len(owner)], field), true
		}
	}
	return nil, true
}

// escapes reports whether the local client variable id declares or
// names leaves the function.
func (t *reader) escapes(id *ast.Ident) bool {
	v := t.info.ObjectOf(id)
	if v == nil || t.body == nil {
		return false
	}
	escapes := false
	ast.Inspect(t.body, func(n ast.Node) bool {
		x, ok := n.(*ast.Ident)
		if !ok || t.info.Uses[x] != v {
			return true
		}
		switch p := t.parent(x).(type) {
		case *ast.ReturnStmt, *ast.KeyValueExpr, *ast.CompositeLit:
			escapes = true
		case *ast.CallExpr:
			for _, a := range p.Args {
				if ast.Unparen(a) == ast.Expr(x) {
					escapes = true
				}
			}
		case *ast.AssignStmt:
			for _, r := range p.Rhs {
				if ast.Unparen(r) == ast.Expr(x) {
					escapes = true
				}
			}
		case *ast.UnaryExpr:
			escapes = true
		}
		return true
	})
	return escapes
}

// passedOn reports whether the client is given to a function outside
// retryablehttp, which may configure it.
func (t *reader) passedOn(client ref) bool {
	if client == nil || t.body == nil {
		return false
	}
	found := false
	ast.Inspect(t.body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		if fn := callee(t.info, call); fn != nil && fn.Pkg() != nil && Path(fn.Pkg()) == retryablehttpPath {
			return true
		}
		for _, a := range call.Args {
			if t.refers(a, client) {
				found = true
			}
		}
		return !found
	})
	return found
}

// sendsRequest reports whether the function sends a request through the
// client.
func (t *reader) sendsRequest(client ref) bool {
	if client == nil || t.body == nil {
		return false
	}
	found := false
	ast.Inspect(t.body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if ok && httpRequestMethods[sel.Sel.Name] && t.refers(sel.X, client) {
			if fn := callee(t.info, call); fn != nil && fn.Pkg() != nil && Path(fn.Pkg()) == retryablehttpPath {
				found = true
			}
		}
		return !found
	})
	return found
}

// checkRetry reads a CheckRetry policy: the library's policies classify;
// a function literal is run for a connection error and for each status,
// and classifies unless it retries them all.
func (t *reader) checkRetry(e ast.Expr) (classified bool, permanent []string) {
	if e == nil || refersTo(t.info, e, retryablehttpPath, "DefaultRetryPolicy") || refersTo(t.info, e, retryablehttpPath, "ErrorPropagatedRetryPolicy") {
		return true, nil
	}
	lit, in := t.funcLit(e)
	if lit == nil {
		return true, nil // a policy of its own, taken to classify
	}
	resp, errp := paramObj(in.info, lit.Type, 1), paramObj(in.info, lit.Type, 2)
	run := func(status int, failed bool) tri {
		s := in.httpScenario(resp, errp, status, failed)
		return s.retries(lit.Body)
	}
	all := run(0, true) == triTrue
	for _, c := range []int{400, 401, 403, 404, 500, 503} {
		all = all && run(c, false) == triTrue
	}
	if all {
		return false, nil
	}
	if run(200, false) == triTrue {
		return true, nil
	}
	var codes []int
	for _, c := range failure.AllHTTP().Permanent() {
		if run(c, false) == triTrue {
			codes = append(codes, c)
		}
	}
	return true, httpPermanent(codes)
}

// httpScenario is one outcome of a request: a connection error (failed),
// or a response with the status.
func (t *reader) httpScenario(resp, errp types.Object, status int, failed bool) *scenario {
	is := func(e ast.Expr, obj types.Object) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && obj != nil && t.info.Uses[id] == obj
	}
	isNil := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && id.Name == "nil"
	}
	s := t.newScenario()
	s.value = func(e ast.Expr) constant.Value {
		if sel, ok := e.(*ast.SelectorExpr); ok && sel.Sel.Name == "StatusCode" && is(sel.X, resp) && !failed {
			return constant.MakeInt64(int64(status))
		}
		return nil
	}
	s.truth = func(e ast.Expr) tri {
		switch x := e.(type) {
		case *ast.BinaryExpr:
			if x.Op != token.EQL && x.Op != token.NEQ {
				break
			}
			other := x.X
			if !isNil(x.Y) {
				if !isNil(x.X) {
					break
				}
				other = x.Y
			}
			var isNilNow tri
			switch {
			case is(other, errp):
				isNilNow = triOf(!failed)
			case is(other, resp):
				isNilNow = triOf(failed)
			case t.policyError(other, "DefaultRetryPolicy"):
				isNilNow = triTrue
			case t.policyError(other, "ErrorPropagatedRetryPolicy"):
				isNilNow = triOf(failed || status < 500 || status == 501)
			default:
				if c, ok := ast.Unparen(other).(*ast.CallExpr); ok {
					if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Err" && len(c.Args) == 0 {
						isNilNow = triTrue // ctx.Err(): the context is still live
					}
				}
			}
			if isNilNow == triUnknown {
				break
			}
			if x.Op == token.EQL {
				return isNilNow
			}
			return isNilNow.Not()
		case *ast.CallExpr:
			if _, ok := isCall(t.info, x, retryablehttpPath, "DefaultRetryPolicy", "ErrorPropagatedRetryPolicy"); ok {
				return triOf(failed || status == 429 || (status >= 500 && status != 501))
			}
		}
		return triUnknown
	}
	s.verdict = s.boolVerdict
	return s
}

// policyError reports whether e is the error result of the library's
// retry policy name, kept in a variable: ok, perr := policy(ctx, resp, err).
func (t *reader) policyError(e ast.Expr, name string) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := t.info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	value, index, ok := t.soleAssignment(v)
	if !ok || index != 1 {
		return false
	}
	_, ok = isCall(t.info, value, retryablehttpPath, name)
	return ok
}
