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
	t := newTracer(info, enclosing)
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil {
		return nil
	}
	if sig.Recv() != nil {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || !isHTTPClient(sig.Recv().Type()) || !httpRequestMethods[fn.Name()] {
			return nil
		}
		cfg := t.httpClient(sel.X, call.Pos())
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
		key, escapes := t.clientKey(call)
		if !escapes && t.sendsRequest(key) {
			return nil // read at its requests
		}
		cfg := httpConfig{at: call}
		if key != "" {
			cfg.set(t, t.fieldSets(key), token.NoPos)
		}
		r := cfg.retrier(t, call, true, true)
		if r != nil && cfg.backoff == nil && t.passedOn(key) {
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

// httpClient reads the configuration of the client x names at pos.
func (t *tracer) httpClient(x ast.Expr, pos token.Pos) httpConfig {
	var cfg httpConfig
	cfg.fromValue(t, x)
	key := keyOf(x)
	if cfg.at == nil && key != "" {
		if o := t.origin(key, pos); o != nil && o.Index == 0 {
			cfg.fromValue(t, o.Value)
		}
	}
	if key != "" {
		cfg.set(t, t.fieldSets(key), pos)
	}
	return cfg
}

// fromValue reads a NewClient call or a Client struct literal.
func (cfg *httpConfig) fromValue(t *tracer, v ast.Expr) {
	if _, ok := t.calls(v, retryablehttpPath, "NewClient"); ok {
		cfg.at = v
		return
	}
	if lit := compositeOf(v); lit != nil {
		if tv, ok := t.info.Types[lit]; ok && isHTTPClient(tv.Type) {
			cfg.at = lit
			cfg.literal = true
			for name, val := range literalFields(lit) {
				cfg.field(name, val)
			}
		}
	}
}

// set applies the fields set on the client before pos (all of them when
// pos is NoPos).
func (cfg *httpConfig) set(t *tracer, sets []fieldSet, pos token.Pos) {
	for _, s := range sets {
		if pos == token.NoPos || s.At.Pos() < pos {
			cfg.field(s.Field, s.Value)
		}
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
func (cfg *httpConfig) intField(t *tracer, e ast.Expr, def int64) int64 {
	if e == nil {
		if cfg.literal {
			return 0
		}
		return def
	}
	if n, ok := t.intOf(e); ok {
		return n
	}
	return def
}

func (cfg *httpConfig) durField(t *tracer, e ast.Expr, def time.Duration) (time.Duration, bool) {
	if e == nil {
		if cfg.literal {
			return 0, true
		}
		return def, true
	}
	return t.durationOf(e)
}

// retrier builds the Retrier of a request sent by the client.
//
// configOnly is set for a call that configures a client used elsewhere
// (NewClient, StandardClient).
func (cfg httpConfig) retrier(t *tracer, call *ast.CallExpr, ctx, configOnly bool) *Retrier {
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
func httpFixes(t *tracer, cfg httpConfig, d Delay) map[string]string {
	jitter := "set Backoff to retryablehttp.LinearJitterBackoff with RetryWaitMin below RetryWaitMax, or to a Backoff that adds jitter"
	if d.Grows && cfg.backoff != nil && !d.Random {
		jitter = "give LinearJitterBackoff room to jitter (RetryWaitMin below RetryWaitMax), or use a Backoff that adds jitter"
	}
	capFix := "clamp the Backoff's result to its max argument (RetryWaitMax)"
	if b := cfg.backoff; b != nil && (t.refersTo(b, retryablehttpPath, "LinearJitterBackoff") || t.refersTo(b, retryablehttpPath, "RateLimitLinearJitterBackoff")) {
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
func (cfg httpConfig) delay(t *tracer, retries int64) Delay {
	if cfg.at == nil && cfg.backoff == nil {
		// A client built elsewhere: its wait is read, and reported,
		// where it is configured.
		return Delay{Unknown: true}
	}
	lo, loKnown := cfg.durField(t, cfg.waitMin, httpDefaultWaitMin)
	hi, hiKnown := cfg.durField(t, cfg.waitMax, httpDefaultWaitMax)
	both := loKnown && hiKnown
	b := cfg.backoff
	switch {
	case b == nil || t.refersTo(b, retryablehttpPath, "DefaultBackoff"):
		if both && hi <= lo {
			return Delay{Value: (min(lo, hi)).String()} // min<<n clipped to max: the same every time
		}
		return Delay{Grows: true, Capped: true}
	case t.refersTo(b, retryablehttpPath, "LinearJitterBackoff"), t.refersTo(b, retryablehttpPath, "RateLimitLinearJitterBackoff"):
		// attempt × a random point in [min, max): linear, finite with RetryMax.
		d := Delay{Grows: true, Random: !(both && hi <= lo)}
		d.Capped = !hiKnown || time.Duration(retries)*max(lo, hi) <= longestFiniteWait
		return d
	}
	if lit := t.funcLit(b); lit != nil {
		if d, ok := t.reader().funcDelay(lit.Type, lit.Body, 2); ok {
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
func (t *tracer) requestContext(req ast.Expr) bool {
	for range 8 {
		v := ast.Unparen(t.resolve(req))
		if id, ok := v.(*ast.Ident); ok {
			o := t.origin(id.Name, id.Pos())
			if o == nil || o.Index != 0 {
				return true
			}
			v = ast.Unparen(o.Value)
		}
		call, ok := v.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := t.callee(call)
		switch {
		case isFunc(fn, retryablehttpPath, "NewRequestWithContext"), isFunc(fn, "net/http", "NewRequestWithContext"):
			return len(call.Args) > 0 && t.liveContext(call.Args[0])
		case isFunc(fn, retryablehttpPath, "NewRequest"), isFunc(fn, "net/http", "NewRequest"):
			return false
		case fn != nil && fn.Name() == "WithContext" && len(call.Args) == 1:
			return t.liveContext(call.Args[0])
		case isFunc(fn, retryablehttpPath, "FromRequest") && len(call.Args) == 1:
			req = call.Args[0]
		default:
			return true
		}
	}
	return true
}

// clientKey names where the client a NewClient call builds is kept, and
// reports whether it leaves the function (returned, stored in a field or
// a struct, passed on).
func (t *tracer) clientKey(call ast.Expr) (key string, escapes bool) {
	n := ast.Node(call)
	if u, ok := t.up(call).(*ast.UnaryExpr); ok && u.Op == token.AND {
		n = u
	}
	switch p := t.up(n).(type) {
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if ast.Unparen(r) == n && i < len(p.Lhs) {
				key = keyOf(p.Lhs[i])
				_, isVar := ast.Unparen(p.Lhs[i]).(*ast.Ident)
				return key, !isVar || t.keyEscapes(key)
			}
		}
	case *ast.ValueSpec:
		for i, v := range p.Values {
			if ast.Unparen(v) == n && i < len(p.Names) {
				return p.Names[i].Name, t.keyEscapes(p.Names[i].Name)
			}
		}
	case *ast.SelectorExpr:
		return "", false // retryablehttp.NewClient().Do(req): read at the request
	case *ast.KeyValueExpr:
		// &Service{http: retryablehttp.NewClient()}: configured later as
		// s.http.Backoff = ..., when the struct is kept in a variable.
		id, ok := p.Key.(*ast.Ident)
		lit, isLit := t.up(p).(*ast.CompositeLit)
		if !ok || !isLit {
			break
		}
		if owner, _ := t.clientKey(lit); owner != "" {
			return owner + "." + id.Name, true
		}
	}
	return "", true
}

// keyEscapes reports whether a local client variable leaves the function.
func (t *tracer) keyEscapes(key string) bool {
	escapes := false
	t.inspect(func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || id.Name != key {
			return true
		}
		switch p := t.up(id).(type) {
		case *ast.ReturnStmt, *ast.KeyValueExpr, *ast.CompositeLit:
			escapes = true
		case *ast.CallExpr:
			for _, a := range p.Args {
				if ast.Unparen(a) == ast.Expr(id) {
					escapes = true
				}
			}
		case *ast.AssignStmt:
			for _, r := range p.Rhs {
				if ast.Unparen(r) == ast.Expr(id) {
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

// passedOn reports whether the client key names is given to a function
// outside retryablehttp, which may configure it.
func (t *tracer) passedOn(key string) bool {
	if key == "" {
		return false
	}
	found := false
	t.inspect(func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return !found
		}
		if fn := t.callee(call); fn != nil && fn.Pkg() != nil && Path(fn.Pkg()) == retryablehttpPath {
			return true
		}
		for _, a := range call.Args {
			if keyOf(a) == key {
				found = true
			}
		}
		return !found
	})
	return found
}

// sendsRequest reports whether the function sends a request through the
// client key names.
func (t *tracer) sendsRequest(key string) bool {
	if key == "" {
		return false
	}
	found := false
	t.inspect(func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if ok && httpRequestMethods[sel.Sel.Name] && keyOf(sel.X) == key {
			if fn := t.callee(call); fn != nil && fn.Pkg() != nil && Path(fn.Pkg()) == retryablehttpPath {
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
func (t *tracer) checkRetry(e ast.Expr) (classified bool, permanent []string) {
	if e == nil || t.refersTo(e, retryablehttpPath, "DefaultRetryPolicy") || t.refersTo(e, retryablehttpPath, "ErrorPropagatedRetryPolicy") {
		return true, nil
	}
	lit := t.funcLit(e)
	if lit == nil {
		return true, nil // a policy of its own, not visible here
	}
	resp, errp := paramObj(t.info, lit.Type, 1), paramObj(t.info, lit.Type, 2)
	run := func(status int, failed bool) tri {
		s := t.httpScenario(resp, errp, status, failed)
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
func (t *tracer) httpScenario(resp, errp types.Object, status int, failed bool) *scenario {
	is := func(e ast.Expr, obj types.Object) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && obj != nil && t.info.Uses[id] == obj
	}
	isNil := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && id.Name == "nil"
	}
	s := &scenario{t: t.reader()}
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
			return isNilNow.not()
		case *ast.CallExpr:
			if _, ok := t.calls(x, retryablehttpPath, "DefaultRetryPolicy", "ErrorPropagatedRetryPolicy"); ok {
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
func (t *tracer) policyError(e ast.Expr, name string) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	as := t.assignments(id.Name)
	if len(as) != 1 || as[0].Index != 1 {
		return false
	}
	_, ok = t.calls(as[0].Value, retryablehttpPath, name)
	return ok
}
