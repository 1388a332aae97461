package retrylib

import (
	"cmp"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
)

const (
	k8sWaitPath   = "k8s.io/apimachinery/pkg/util/wait"
	k8sErrorsPath = "k8s.io/apimachinery/pkg/api/errors"
)

// unknownSteps is the attempt limit taken for a wait.Backoff whose Steps
// cannot be read: client-go's retry.DefaultBackoff (4). ExponentialBackoff
// always stops after Steps conditions, so the retry is bounded either way.
const unknownSteps = 4

// pollForm says where the arguments of a wait.Poll* function are; -1 when
// it has none of that kind.
type pollForm struct {
	ctx, interval, timeout, stop, cond int
}

// pollForms are the polling functions of k8s.io/apimachinery/pkg/util/wait
// (v0.37.2). They wait a fixed interval between conditions.
var pollForms = map[string]pollForm{
	"PollUntilContextCancel":           {0, 1, -1, -1, 3},
	"PollUntilContextTimeout":          {0, 1, 2, -1, 4},
	"Poll":                             {-1, 0, 1, -1, 2},
	"PollWithContext":                  {0, 1, 2, -1, 3},
	"PollUntil":                        {-1, 0, -1, 2, 1},
	"PollUntilWithContext":             {0, 1, -1, -1, 2},
	"PollInfinite":                     {-1, 0, -1, -1, 1},
	"PollInfiniteWithContext":          {0, 1, -1, -1, 2},
	"PollImmediate":                    {-1, 0, 1, -1, 2},
	"PollImmediateWithContext":         {0, 1, 2, -1, 3},
	"PollImmediateUntil":               {-1, 0, -1, 2, 1},
	"PollImmediateUntilWithContext":    {0, 1, -1, -1, 2},
	"PollImmediateInfinite":            {-1, 0, -1, -1, 1},
	"PollImmediateInfiniteWithContext": {0, 1, -1, -1, 2},
}

// k8sWait recognises the retries of k8s.io/apimachinery/pkg/util/wait:
// ExponentialBackoff and ExponentialBackoffWithContext, and the Poll
// functions, when their condition performs an operation and goes round on
// its failure (returns false, nil). A condition that only checks
// readiness — or that waits for an object to appear, going round on
// NotFound — is a poll, not a retry. Until, JitterUntil and Forever are
// periodic and are not read.
func k8sWait(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	if sig, _ := fn.Type().(*types.Signature); sig == nil || sig.Recv() != nil {
		return nil
	}
	t := newReader(info, call, enclosing)
	arg := func(i int) ast.Expr {
		if i < 0 || i >= len(call.Args) {
			return nil
		}
		return call.Args[i]
	}
	switch fn.Name() {
	case "ExponentialBackoff":
		return t.backoffRetrier(k8sWaitPath, call, arg(0), arg(1), nil, nil)
	case "ExponentialBackoffWithContext":
		return t.backoffRetrier(k8sWaitPath, call, arg(1), arg(2), arg(0), nil)
	}
	form, ok := pollForms[fn.Name()]
	if !ok || arg(form.cond) == nil || arg(form.interval) == nil {
		return nil
	}
	cond := t.condition(arg(form.cond))
	if !cond.known || !cond.retries {
		return nil // a readiness poll
	}
	r := &Retrier{
		Library:    k8sWaitPath,
		Call:       call,
		Op:         arg(form.cond),
		Waits:      true,
		DelayAt:    arg(form.interval),
		Delay:      Delay{Value: t.durationText(arg(form.interval))},
		Classified: cond.classified,
		Permanent:  cond.permanent,
	}
	if e := arg(form.timeout); e != nil {
		d, known := t.duration(e)
		r.Deadline = !known || d > 0 // a zero timeout polls for ever
	}
	if e := arg(form.ctx); e != nil {
		r.Context = t.context(e).ends
	}
	if e := arg(form.stop); e != nil {
		stop, where := t.value(e)
		r.Context = !refersTo(where.info, stop, k8sWaitPath, "NeverStop") && t.context(e).ends
	}
	r.Fixes = waitFixes(true, false)
	return r
}

// waitFixes says how to fix a wait or client-go retry in their terms:
// poll for a Poll function, onError for client-go's OnError and
// RetryOnConflict.
func waitFixes(poll, onError bool) map[string]string {
	f := map[string]string{
		"no-jitter":             "set Jitter in the wait.Backoff, e.g. Jitter: 0.5",
		"no-cap":                "set Cap in the wait.Backoff, e.g. Cap: 30 * time.Second",
		"fixed-sleep":           "set Factor above 1, Jitter and Cap in the wait.Backoff",
		"unbounded-retry":       "poll with wait.PollUntilContextTimeout, or under a context that ends",
		"unclassified-retry":    "return the error for failures that cannot pass, and false, nil only for transient ones, e.g. apierrors.IsServerTimeout(err)",
		"retry-permanent":       "return these errors from the condition instead of false, nil",
		"sleep-ignores-context": "use wait.ExponentialBackoffWithContext(ctx, ...)",
	}
	if poll {
		f["fixed-sleep"] = "retry with wait.ExponentialBackoffWithContext and a wait.Backoff with Factor, Jitter and Cap"
		f["sleep-ignores-context"] = "poll with wait.PollUntilContextTimeout(ctx, ...)"
	}
	if onError {
		f["unclassified-retry"] = "let OnError's retriable accept only transient errors, e.g. apierrors.IsConflict or apierrors.IsServerTimeout"
		f["retry-permanent"] = "drop them from OnError's retriable and retry only transient errors, e.g. apierrors.IsServerTimeout or apierrors.IsTooManyRequests"
		f["sleep-ignores-context"] = "pass a back-off short enough to finish within the caller's deadline, or retry with wait.ExponentialBackoffWithContext(ctx, ...)"
	}
	return f
}

// waitBackoff is a wait.Backoff as configured: at is where, durationText
// the Duration as written; each value comes with whether it could be read
// (K).
type waitBackoff struct {
	at                                        ast.Expr
	durationText                              string
	durationV, capV                           time.Duration
	factorV, jitterV                          float64
	stepsV                                    int64
	durationK, factorK, jitterK, capK, stepsK bool
}

// defaultBackoffs are the wait.Backoff values client-go's util/retry
// exports (v0.37.2).
var defaultBackoffs = map[string]waitBackoff{
	"DefaultRetry":   {durationV: 10 * time.Millisecond, factorV: 1.0, jitterV: 0.1, stepsV: 5, durationK: true, factorK: true, jitterK: true, capK: true, stepsK: true},
	"DefaultBackoff": {durationV: 10 * time.Millisecond, factorV: 5.0, jitterV: 0.1, stepsV: 4, durationK: true, factorK: true, jitterK: true, capK: true, stepsK: true},
}

// waitBackoffOf reads the wait.Backoff e gives at the use: a struct
// literal, client-go's DefaultRetry or DefaultBackoff, or one last given
// to e before the use, and the fields set on e before the use. wait.Backoff
// is a value: fields set on another copy do not count, and fields that
// cannot be read stay unknown.
func (t *reader) waitBackoffOf(e ast.Expr) waitBackoff {
	b := waitBackoff{at: e}
	from := func(v ast.Expr, in *reader) bool {
		v = ast.Unparen(v)
		if u, ok := v.(*ast.StarExpr); ok {
			v = u.X
		}
		for name, d := range defaultBackoffs {
			if refersTo(in.info, v, clientgoRetryPath, name) {
				d.at = v
				b = d
				return true
			}
		}
		if lit := compositeOf(v); lit != nil {
			if tv, ok := in.info.Types[lit]; ok && isNamed(tv.Type, k8sWaitPath, "Backoff") {
				b = waitBackoff{at: lit, durationK: true, factorK: true, jitterK: true, capK: true, stepsK: true}
				for name, val := range structFields(lit).value {
					b.field(in, name, val)
				}
				return true
			}
		}
		return false
	}
	target := t.refOf(e)
	if !from(e, t) {
		if v, in := t.lastSet(target); v != nil {
			from(v, in)
		}
	}
	set := newFields()
	t.setOn(set, target, t.body, t.use)
	for name, val := range set.value {
		b.field(t, name, val)
	}
	return b
}

func isNamed(typ types.Type, path, name string) bool {
	if p, ok := typ.(*types.Pointer); ok {
		typ = p.Elem()
	}
	n, ok := typ.(*types.Named)
	return ok && n.Obj().Pkg() != nil && Path(n.Obj().Pkg()) == path && n.Obj().Name() == name
}

func (b *waitBackoff) field(t *reader, name string, v ast.Expr) {
	switch name {
	case "Duration":
		b.durationText = t.durationText(v)
		b.durationV, b.durationK = t.duration(v)
	case "Factor":
		b.factorV, b.factorK = t.float(v)
	case "Jitter":
		b.jitterV, b.jitterK = t.float(v)
	case "Steps":
		b.stepsV, b.stepsK = t.integer(v)
	case "Cap":
		b.capV, b.capK = t.duration(v)
	}
}

// attempts is the most conditions ExponentialBackoff runs: Steps, or
// fewer when the growing duration would pass Cap, which ends the schedule
// (Step sets Steps to 0): Duration×Factor^n may reach Cap for n =
// floor(log(Cap/Duration)/log(Factor)), one condition each.
func (b waitBackoff) attempts() int64 {
	if !b.stepsK {
		return unknownSteps
	}
	steps := b.stepsV
	if b.capK && b.capV > 0 && b.factorK && b.factorV > 1 && b.durationK && b.durationV > 0 && b.capV > b.durationV {
		toCap := int64(math.Floor(math.Log(float64(b.capV)/float64(b.durationV))/math.Log(b.factorV)+1e-9)) + 1
		steps = min(steps, toCap)
	}
	return steps
}

// delay is the shape of the waits: Duration multiplied by Factor each
// step, plus up to Jitter×Duration at random, clamped by Cap; the schedule
// ends after Steps.
func (b waitBackoff) delay() Delay {
	var d Delay
	if !b.factorK || !b.jitterK {
		return Delay{Unknown: true}
	}
	steps := b.attempts()
	d.Grows = b.factorV > 1 && steps > 2
	d.Random = b.jitterV > 0
	if !d.Grows && !d.Random {
		if b.durationText != "" {
			d.Value = b.durationText
		} else {
			d.Value = time.Duration(b.durationV).String()
		}
	}
	switch {
	case b.capK && b.capV > 0, !b.capK:
		d.Capped = true
	case b.durationK && b.stepsK:
		last := float64(b.durationV) * math.Pow(b.factorV, float64(steps-2))
		d.Capped = last <= float64(longestFiniteWait)
	default:
		d.Capped = true // a finite schedule whose length cannot be read
	}
	return d
}

// shortSchedule is the longest total wait of a back-off that sleeps
// without a context and is not held against it.
const shortSchedule = time.Second

// totalWait adds up the waits between Steps conditions, their jitter
// included at most; ok is false when a value cannot be read.
func (b waitBackoff) totalWait() (time.Duration, bool) {
	if !b.durationK || !b.factorK || !b.jitterK || !b.stepsK || !b.capK {
		return 0, false
	}
	var total float64
	d := float64(b.durationV)
	for i := int64(0); i < b.stepsV-1; i++ {
		total += d * (1 + max(b.jitterV, 0))
		if b.factorV != 0 {
			d *= b.factorV
		}
		if b.capV > 0 && d > float64(b.capV) {
			d = float64(b.capV)
		}
	}
	return time.Duration(total), true
}

// backoffRetrier builds the Retrier of ExponentialBackoff-like calls:
// backoff is the wait.Backoff, op the condition (or operation), ctx the
// context, if any. classify overrides the reading of the condition (for
// client-go's OnError and RetryOnConflict).
func (t *reader) backoffRetrier(lib string, call *ast.CallExpr, backoff, op, ctx ast.Expr, classify *conditionInfo) *Retrier {
	if backoff == nil || op == nil {
		return nil
	}
	cond := classify
	if cond == nil {
		c := t.condition(op)
		if c.known && !c.retries {
			return nil // a readiness poll with back-off
		}
		if !c.known {
			c = conditionInfo{known: true, retries: true, classified: true}
		}
		cond = &c
	}
	b := t.waitBackoffOf(backoff)
	attempts := b.attempts()
	if attempts <= 1 {
		return nil // one condition at most: no retry
	}
	r := &Retrier{
		Library:    lib,
		Call:       call,
		Op:         op,
		Attempts:   limit(attempts),
		Waits:      !b.durationK || b.durationV > 0, // a zero Duration never waits
		Delay:      b.delay(),
		DelayAt:    b.at,
		Classified: cond.classified,
		Permanent:  cond.permanent,
	}
	r.Fixes = waitFixes(false, lib == clientgoRetryPath)
	if ctx != nil {
		r.Context = t.context(ctx).ends
	} else if total, ok := b.totalWait(); ok && total <= shortSchedule {
		// ExponentialBackoff sleeps without a context, but a schedule this
		// short (client-go's DefaultRetry waits 40ms in all) cannot hold
		// a cancelled caller back.
		r.Context = true
	}
	// wait.Backoff is passed by value: every call starts the schedule
	// over wherever the value is made, so a call inside a retry loop is a
	// nested retry, not a back-off that never grows.
	return r
}

// conditionInfo is what a wait condition (or an OnError retriable) does
// with a failure.
type conditionInfo struct {
	known      bool // the condition's code is visible
	retries    bool // it goes round on the failure of an operation
	classified bool // only some failures go round
	permanent  []string
}

// k8sKinds are the apierrors predicates and the status they test.
var k8sKinds = map[string]int{
	"IsBadRequest": 400, "IsUnauthorized": 401, "IsForbidden": 403, "IsNotFound": 404,
	"IsMethodNotSupported": 405, "IsGone": 410, "IsInvalid": 422,
	"IsConflict": 409, "IsAlreadyExists": 409, "IsTooManyRequests": 429,
	"IsInternalError": 500, "IsServerTimeout": 500, "IsServiceUnavailable": 503, "IsTimeout": 504,
}

// condition reads a wait.ConditionFunc: whether it goes round (returns
// false, nil) on the failure of an operation it performs, and how it
// classifies that failure.
func (t *reader) condition(e ast.Expr) conditionInfo {
	body, in := t.condFunc(e)
	if body == nil {
		return conditionInfo{}
	}
	info := conditionInfo{known: true}
	if !in.goesRoundOnError(body) || in.onlyLocal(body) || in.onlyProbes(body) {
		return info
	}
	errs := in.errorVars(body)
	ops := in.operationErrors(body)
	run := func(kind string) tri {
		return in.oneFailureAtATime(errs, ops, func(failed map[types.Object]bool) tri {
			s := in.k8sScenario(failed, kind)
			// if mutate(obj) { update } else { return true, nil }: the
			// failure of the update goes round when the update runs.
			s.run.Free = func(c ast.Expr) bool { return !in.mentionsError(c) }
			return in.condVerdict(s, body)
		})
	}
	generic := run("")
	nonNotFound := false
	all := generic == triTrue
	var permanent []int
	for _, kind := range sortedKinds() {
		v := run(kind)
		all = all && v == triTrue
		if kind != "IsNotFound" && v == triTrue && in.mentions(body, kind) {
			nonNotFound = true
			if c := k8sKinds[kind]; failure.PermanentHTTP(c) {
				permanent = append(permanent, c)
			}
		}
	}
	if generic == triFalse && !nonNotFound {
		return info // goes round only while the object is not found: readiness
	}
	info.retries = true
	info.classified = !all
	if info.classified {
		info.permanent = httpPermanent(permanent)
	}
	return info
}

// localPackages are packages whose failing calls look at this machine
// only: a condition over them polls local readiness (a socket file
// appearing), it does not retry a dependency.
var localPackages = map[string]bool{"os": true, "io/fs": true, "path/filepath": true, "io/ioutil": true}

// onlyLocal reports whether every call in the condition that can fail is
// into a local package.
func (t *reader) onlyLocal(body *ast.BlockStmt) bool {
	failing, local := 0, 0
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sig, ok := t.info.TypeOf(call.Fun).(*types.Signature)
		if !ok || sig.Results().Len() == 0 || !isError(sig.Results().At(sig.Results().Len()-1).Type()) {
			return true
		}
		failing++
		if fn := callee(t.info, call); fn != nil && fn.Pkg() != nil && localPackages[Path(fn.Pkg())] {
			local++
		}
		return true
	})
	return failing > 0 && failing == local
}

// onlyProbes reports whether every call in the condition that can fail
// dials an address and the condition uses what it dialled for nothing but
// closing it: a wait for a port to accept connections (a port-forward,
// a server starting), not a retry of work.
func (t *reader) onlyProbes(body *ast.BlockStmt) bool {
	dials, other := 0, 0
	conns := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && len(n.Rhs) == 1 && t.isDial(call) {
				if id, ok := n.Lhs[0].(*ast.Ident); ok {
					if obj := t.info.ObjectOf(id); obj != nil {
						conns[obj] = true
					}
				}
			}
		case *ast.CallExpr:
			sig, ok := t.info.TypeOf(n.Fun).(*types.Signature)
			if !ok || sig.Results().Len() == 0 || !isError(sig.Results().At(sig.Results().Len()-1).Type()) {
				return true
			}
			switch {
			case t.isDial(n):
				dials++
			case t.closesConn(n, conns):
			default:
				other++
			}
		}
		return true
	})
	return dials > 0 && other == 0
}

// isDial reports a call of net's or crypto/tls's Dial functions and
// methods.
func (t *reader) isDial(call *ast.CallExpr) bool {
	fn := callee(t.info, call)
	if fn == nil || fn.Pkg() == nil || !strings.HasPrefix(fn.Name(), "Dial") {
		return false
	}
	p := Path(fn.Pkg())
	return p == "net" || p == "crypto/tls"
}

// closesConn reports conn.Close() of a dialled connection.
func (t *reader) closesConn(call *ast.CallExpr, conns map[types.Object]bool) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Close" {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && conns[t.info.ObjectOf(id)]
}

// condFunc returns the body of a condition's function literal and the
// reader of that body: through variables, helpers, wait.ConditionFunc(...)
// conversions and .WithContext(). A function of its own is not read: like
// OnError's retriable, it is taken to retry and classify. The body is nil
// when there is no literal.
func (t *reader) condFunc(e ast.Expr) (*ast.BlockStmt, *reader) {
	for range 4 {
		x, where := t.value(e)
		call, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok {
			break
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "WithContext" || len(call.Args) != 0 {
			break
		}
		e, t = sel.X, where
	}
	lit, in := t.funcLit(e)
	if lit == nil {
		return nil, t
	}
	return lit.Body, in
}

// goesRoundOnError reports whether the condition, the body of the
// reader, has a return false, nil under a test of an error.
func (t *reader) goesRoundOnError(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if t.isRetryReturn(n) && t.guardedByError(n) {
				found = true
			}
		}
		return !found
	})
	return found
}

// isRetryReturn reports return false, nil.
func (t *reader) isRetryReturn(r *ast.ReturnStmt) bool {
	if len(r.Results) != 2 {
		return false
	}
	v := t.soleConst(r.Results[0])
	id, ok := ast.Unparen(r.Results[1]).(*ast.Ident)
	return v != nil && v.Kind() == constant.Bool && !constant.BoolVal(v) && ok && id.Name == "nil"
}

// guardedByError reports whether an if or case holding n, inside the
// body of the reader, tests an error value.
func (t *reader) guardedByError(n ast.Node) bool {
	for p := t.parent(n); p != nil; p = t.parent(p) {
		var conds []ast.Expr
		switch p := p.(type) {
		case *ast.IfStmt:
			conds = []ast.Expr{p.Cond}
		case *ast.CaseClause:
			conds = p.List
			if sw, ok := t.parent(t.parent(p)).(*ast.SwitchStmt); ok && sw.Tag != nil {
				conds = append(conds, sw.Tag)
			}
		}
		for _, c := range conds {
			if t.mentionsError(c) {
				return true
			}
		}
	}
	return false
}

func (t *reader) mentionsError(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok {
			if tv, ok := t.info.Types[x]; ok && isError(tv.Type) {
				found = true
			}
		}
		return !found
	})
	return found
}

// errorVars are the error variables the condition's body declares or
// uses.
func (t *reader) errorVars(body *ast.BlockStmt) map[types.Object]bool {
	out := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := t.info.Defs[id]; obj != nil && isError(obj.Type()) {
				out[obj] = true
			}
			if obj := t.info.Uses[id]; obj != nil && isError(obj.Type()) {
				out[obj] = true
			}
		}
		return true
	})
	return out
}

// oneFailureAtATime runs a condition once for each error variable an
// operation in it sets (ops; every one of errs when none does), that
// variable holding the failure and the others nil
// (a Get that failed, then an Update that failed), and joins the
// answers: true when some failure goes round, false when none does.
func (t *reader) oneFailureAtATime(errs, ops map[types.Object]bool, run func(failed map[types.Object]bool) tri) tri {
	if len(errs) <= 1 {
		return run(errs)
	}
	vars := make([]types.Object, 0, len(errs))
	for v := range errs {
		if ops[v] {
			vars = append(vars, v)
		}
	}
	if len(vars) == 0 {
		for v := range errs {
			vars = append(vars, v)
		}
	}
	slices.SortFunc(vars, func(a, b types.Object) int { return cmp.Compare(a.Pos(), b.Pos()) })
	out := triFalse
	for _, v := range vars {
		failed := make(map[types.Object]bool, len(errs))
		for w := range errs {
			failed[w] = w == v
		}
		out = out.Or(run(failed))
	}
	return out
}

// operationErrors are the error variables of a body that an operation
// sets: the error result of a call that is no error constructor
// (fmt.Errorf, errors.New, a Wrap), so that a variable kept only for a
// message (lastError = fmt.Errorf("not running")) is never taken for the
// failure.
func (t *reader) operationErrors(body *ast.BlockStmt) map[types.Object]bool {
	out := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return true
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			return true
		}
		if fn := callee(t.info, call); fn != nil && fn.Pkg() != nil {
			if p := Path(fn.Pkg()); p == "errors" || p == "fmt" || strings.HasPrefix(fn.Name(), "Wrap") || strings.HasSuffix(fn.Name(), "Errorf") {
				return true
			}
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				if obj := t.info.ObjectOf(id); obj != nil && isError(obj.Type()) {
					out[obj] = true
				}
			}
		}
		return true
	})
	return out
}

// k8sScenario is a failed operation whose error is of kind (an apierrors
// predicate name; "" for an error no predicate recognises). errs holds the
// error variables: true for those that hold the failure, false for those
// that are nil in this run.
func (t *reader) k8sScenario(errs map[types.Object]bool, kind string) *scenario {
	isErr := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && errs[t.info.Uses[id]]
	}
	isNilErr := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		failed, known := errs[t.info.Uses[id]]
		return known && !failed
	}
	s := t.newScenario()
	s.truth = func(e ast.Expr) tri {
		switch x := e.(type) {
		case *ast.BinaryExpr:
			if x.Op != token.EQL && x.Op != token.NEQ {
				break
			}
			id, ok := ast.Unparen(x.Y).(*ast.Ident)
			if !ok || id.Name != "nil" {
				break
			}
			switch {
			case isErr(x.X):
				return triOf(x.Op == token.NEQ)
			case isNilErr(x.X):
				return triOf(x.Op == token.EQL)
			}
		case *ast.CallExpr:
			fn := callee(t.info, x)
			if fn != nil && fn.Pkg() != nil && Path(fn.Pkg()) == k8sErrorsPath {
				if _, ok := k8sKinds[fn.Name()]; ok {
					return triOf(fn.Name() == kind)
				}
			}
			if t.testsNotYet(x, fn) {
				// errors.Is(err, ErrNotListening), isNotProvisioned(err):
				// not there yet, read as the object not found.
				return triOf(kind == "IsNotFound")
			}
		}
		return triUnknown
	}
	return s
}

// testsNotYet reports whether a call tests an error for a state not yet
// reached, by the name of the sentinel it compares with
// (errors.Is(err, server.ErrNotListening)) or of the predicate
// (isRepositoryNotProvisionedError(err)).
func (t *reader) testsNotYet(call *ast.CallExpr, fn *types.Func) bool {
	if fn == nil || len(call.Args) == 0 || !isError(t.info.TypeOf(call.Args[0])) {
		return false
	}
	if isFunc(fn, "errors", "Is") && len(call.Args) == 2 {
		id := nameIdent(call.Args[1])
		return id != nil && failure.NotYetName(id.Name)
	}
	sig := fn.Signature()
	return sig.Results().Len() == 1 && isBool(sig.Results().At(0).Type()) && failure.NotYetName(fn.Name())
}

// condVerdict runs a condition's body: true when it returns false, nil
// (goes round), false on any other return.
func (t *reader) condVerdict(s *scenario, body *ast.BlockStmt) tri {
	s.verdict = func(r ast.Expr) tri { return triUnknown }
	v, _ := s.execReturns(body.List, func(r *ast.ReturnStmt) tri {
		if t.isRetryReturn(r) {
			return triTrue
		}
		return triFalse
	})
	return v
}

// mentions reports whether n calls the apierrors predicate name.
func (t *reader) mentions(n ast.Node, name string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := callee(t.info, call); isFunc(fn, k8sErrorsPath, name) {
				found = true
			}
		}
		return !found
	})
	return found
}

func sortedKinds() []string {
	out := make([]string, 0, len(k8sKinds))
	for k := range k8sKinds {
		out = append(out, k)
	}
	// by status, then name, so that permanent statuses read in order
	slices.SortFunc(out, func(a, b string) int {
		if c := cmp.Compare(k8sKinds[a], k8sKinds[b]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return out
}
