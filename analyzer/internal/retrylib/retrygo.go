package retrylib

import (
	"go/ast"
	"go/token"
	"go/types"
	"time"
)

const retryGoPath = "github.com/avast/retry-go/v4"

// retryGo reads github.com/avast/retry-go/v4 (v4.7.0): Do(f, opts...) and
// DoWithData(f, opts...). Documented defaults: Attempts(10) (0 retries
// until success), Delay(100ms), MaxJitter(100ms), no MaxDelay,
// DelayType(CombineDelay(BackOffDelay, RandomDelay)), RetryIf
// IsRecoverable (everything but Unrecoverable errors), no context.
func retryGo(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	if fn.Signature().Recv() != nil || (fn.Name() != "Do" && fn.Name() != "DoWithData") || len(call.Args) < 1 {
		return nil
	}
	t := newReader(info, call, enclosing)
	c := retryGoConfig{attempts: 10, delay: 100 * time.Millisecond, delayKnown: true, delayText: "100ms",
		shape: Delay{Grows: true, Random: true}}
	opts, ok := t.options(call, 1)
	if !ok {
		c.opaque = true
	}
	for _, opt := range opts {
		c.apply(t, opt)
	}
	op := t.undecorated(call.Args[0], 3)
	v := t.operation(op, opKind{path: retryGoPath, stop: []string{"Unrecoverable"}})
	if c.retryIf != nil {
		p := t.predicate(c.retryIf)
		if c.attempts != 0 {
			// The bounded loop asks only RetryIf: Unrecoverable counts
			// only through the default predicate.
			v.classified = p.classified
		} else {
			v.classified = v.classified || p.classified
		}
		// What the operation returns reaches a retry only through the
		// predicate: its permanent failures are the predicate's.
		v.permanent = p.permanent
		v.marks = nil // the predicate decides, not the operation alone
	}
	if c.opaque {
		v.classified = true
		v.marks = nil
	}
	return c.schedule(call).retrier(retryGoPath, call, op, v)
}

// retryGoConfig is what the options of a Do call set.
type retryGoConfig struct {
	attempts   int
	delay      time.Duration
	delayKnown bool
	delayText  string
	capped     bool
	shape      Delay // of DelayType, before MaxDelay
	shapeAt    ast.Expr
	retryIf    ast.Expr
	ctx        ctxState
	opaque     bool // an option the finder cannot read
	// boundUnknown: Attempts is given a value the finder cannot read.
	boundUnknown bool
}

func (c *retryGoConfig) apply(t *reader, opt ast.Expr) {
	x, where := t.value(opt)
	oc, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		c.opaque = true
		return
	}
	fn := callee(where.info, oc)
	if fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) != retryGoPath {
		c.opaque = true
		return
	}
	arg := func(i int) ast.Expr {
		if i < len(oc.Args) {
			return oc.Args[i]
		}
		return nil
	}
	switch fn.Name() {
	case "Attempts":
		if n, ok := where.integer(arg(0)); ok {
			c.attempts, c.boundUnknown = int(n), false
		} else {
			c.attempts, c.boundUnknown = 10, true // some limit, not known
		}
	case "UntilSucceeded":
		c.attempts, c.boundUnknown = 0, false
	case "Delay":
		c.delay, c.delayKnown = where.duration(arg(0))
		c.delayText = where.durationText(arg(0))
		if c.shapeAt == nil {
			c.shapeAt = oc
		}
	case "MaxDelay":
		d, known := where.duration(arg(0))
		c.capped = !known || d > 0
	case "DelayType":
		c.shape, c.shapeAt = where.retryGoDelayType(arg(0), 0), oc
		if _, isFunc := ast.Unparen(arg(0)).(*ast.FuncLit); isFunc {
			c.delayKnown = false // its own schedule: the largest wait is unknown
		}
	case "RetryIf":
		c.retryIf = arg(0)
	case "Context":
		c.ctx = where.context(arg(0))
	}
}

// retryGoDelayType reads the shape of a DelayTypeFunc.
func (t *reader) retryGoDelayType(e ast.Expr, depth int) Delay {
	if e == nil || depth > maxTrace {
		return Delay{Unknown: true}
	}
	x, where := t.value(e)
	if call, ok := isCall(where.info, x, retryGoPath, "CombineDelay"); ok {
		var d Delay
		for _, a := range call.Args {
			s := where.retryGoDelayType(a, depth+1)
			d = Delay{Grows: d.Grows || s.Grows, Random: d.Random || s.Random, Capped: d.Capped || s.Capped, Unknown: d.Unknown || s.Unknown}
		}
		return d
	}
	var obj types.Object
	switch id := ast.Unparen(x).(type) {
	case *ast.Ident:
		obj = where.info.Uses[id]
	case *ast.SelectorExpr:
		obj = where.info.Uses[id.Sel]
	}
	if fn, ok := obj.(*types.Func); ok && fn.Pkg() != nil && Path(fn.Pkg()) == retryGoPath {
		switch fn.Name() {
		case "BackOffDelay":
			return Delay{Grows: true}
		case "FixedDelay":
			return Delay{}
		case "RandomDelay":
			return Delay{Random: true}
		case "FullJitterBackoffDelay":
			return Delay{Grows: true, Random: true}
		}
	}
	if ft, body, in := where.funcOf(x); body != nil {
		var attempt types.Object
		if ft.Params != nil && len(ft.Params.List) > 0 && len(ft.Params.List[0].Names) > 0 {
			attempt = in.info.Defs[ft.Params.List[0].Names[0]]
		}
		return in.delayFunc(body, attempt, depth)
	}
	return Delay{Unknown: true}
}

// delayFunc reads a DelayTypeFunc written in the code: the shape of what
// its returns compute, from the attempt number (grows when it enters the
// result), math/rand (random), min or an if against a maximum (capped),
// or the package's own delay types it calls.
func (t *reader) delayFunc(body *ast.BlockStmt, attempt types.Object, depth int) Delay {
	var d Delay
	seen := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 1 {
				r := t.delayExpr(n.Results[0], attempt, depth)
				d = Delay{Grows: d.Grows || r.Grows, Random: d.Random || r.Random, Capped: d.Capped || r.Capped, Unknown: d.Unknown || r.Unknown}
				seen = true
			}
		case *ast.IfStmt:
			if b, ok := n.Cond.(*ast.BinaryExpr); ok && (b.Op == token.GTR || b.Op == token.GEQ) {
				d.Capped = true // if d > max { d = max }
			}
		}
		return true
	})
	if !seen {
		return Delay{Unknown: true}
	}
	return d
}

// delayExpr reads one returned duration of a DelayTypeFunc.
func (t *reader) delayExpr(e ast.Expr, attempt types.Object, depth int) Delay {
	var d Delay
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if attempt != nil && t.info.Uses[n] == attempt {
				d.Grows = true
			}
		case *ast.CallExpr:
			fn := callee(t.info, n)
			switch {
			case fn == nil:
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && (id.Name == "min") {
					d.Capped = true
				}
			case fn.Pkg() != nil && Path(fn.Pkg()) == retryGoPath:
				s := t.retryGoDelayType(n.Fun, depth+1)
				d = Delay{Grows: d.Grows || s.Grows, Random: d.Random || s.Random, Capped: d.Capped || s.Capped, Unknown: d.Unknown || s.Unknown}
				return false
			case fn.Pkg() != nil && (fn.Pkg().Path() == "math/rand" || fn.Pkg().Path() == "math/rand/v2"):
				d.Random = true
			case fn.Pkg() != nil && fn.Pkg().Path() == "math" && fn.Name() == "Pow":
				d.Grows = true
			case fn.Pkg() != nil && fn.Pkg().Path() == "math" && fn.Name() == "Min":
				d.Capped = true
			}
		}
		return true
	})
	return d
}

func (c retryGoConfig) schedule(call *ast.CallExpr) schedule {
	d := c.shape
	d.Capped = d.Capped || c.capped
	if d.Constant() {
		d.Value = c.delayText
	}
	s := schedule{
		delay: d, at: c.shapeAt, attempts: c.attempts, ctx: c.ctx, waits: true,
		initial: c.delay, initialKnown: c.delayKnown, factor: 2, unknown: c.opaque || c.boundUnknown,
	}
	if c.boundUnknown || c.opaque {
		s.attempts = 0 // a limit is configured; its value, and so the largest wait, is unknown
	}
	if c.delayKnown && c.delay <= 0 && !d.Random {
		s.waits = false
	}
	if c.opaque {
		s.delay.Unknown = true
	}
	return s
}

var retryGoFixes = map[string]string{
	"fixed-sleep":           "use retry.DelayType(retry.FullJitterBackoffDelay) with retry.MaxDelay(...)",
	"no-jitter":             "use retry.DelayType(retry.FullJitterBackoffDelay), or CombineDelay(BackOffDelay, RandomDelay)",
	"no-cap":                "set retry.MaxDelay(...)",
	"unbounded-retry":       "set retry.Attempts(n) with n > 0, or pass retry.Context(ctx)",
	"unclassified-retry":    "add retry.RetryIf(...) that accepts only transient errors, or return retry.Unrecoverable(err) for the others",
	"retry-permanent":       "make retry.RetryIf return false for these, and retry only 408, 429, 5xx or Unavailable",
	"sleep-ignores-context": "pass retry.Context(ctx)",
}
