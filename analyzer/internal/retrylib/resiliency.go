package retrylib

import (
	"go/ast"
	"go/types"
	"time"
)

const resiliencyPath = "github.com/eapache/go-resiliency/retrier"

// resiliency reads github.com/eapache/go-resiliency/retrier (v1.7.0):
// r.Run(work), r.RunCtx(ctx, work) and r.RunFn(ctx, work) of a retrier
// built with retrier.New(backoff, classifier). From retrier/retrier.go
// and backoffs.go at v1.7.0:
//
//   - the back-off is a list of waits: one retry per entry (RunFn, line
//     88: retries >= len(r.backoff) stops), waited in turn; an empty list
//     retries nothing. WithInfiniteRetry (line 42) retries without limit,
//     repeating the last wait (calcSleep, lines 115-118).
//   - ConstantBackoff(n, d) is n waits of d; ExponentialBackoff(n, d)
//     doubles from d without a cap, LimitedExponentialBackoff(n, d, max)
//     doubles up to max (backoffs.go).
//   - no jitter: New leaves jitter at 0 (line 32); SetJitter(f) with
//     0 < f <= 1 varies each wait by ±f (lines 123, 128-133).
//   - a nil classifier is DefaultClassifier (line 28), which retries
//     every error (classifier.go); WhitelistClassifier retries only the
//     errors listed, BlacklistClassifier all but those.
//   - Run waits on context.Background() (line 56); RunCtx and RunFn end
//     the waits with their context (sleep, lines 105-113).
func resiliency(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	if fn.Signature().Recv() == nil {
		return nil
	}
	t := newReader(info, call, enclosing)
	var ctx ctxState
	switch fn.Name() {
	case "Run":
		if len(call.Args) != 1 {
			return nil
		}
	case "RunCtx", "RunFn":
		if len(call.Args) != 2 {
			return nil
		}
		ctx = t.context(call.Args[0])
	default:
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	c := t.resiliencyRetrier(sel.X, 0)
	if c.never {
		return nil
	}
	s := c.sched
	if c.infinite {
		s.attempts, s.unknown = 0, false
		s.delay.Capped = true // the last wait repeats
	}
	if c.jitter && !s.delay.Unknown {
		s.delay.Random, s.delay.Value = true, ""
	}
	s.ctx = ctx
	op := t.undecorated(call.Args[len(call.Args)-1], 3)
	v := verdict{classified: true}
	if !c.classified {
		v = t.operation(op, opKind{path: resiliencyPath})
	}
	r := s.retrier(resiliencyPath, call, op, v)
	r.Fixes = resiliencyFixes
	return r
}

// resiliencyConfig is what built a Retrier.
type resiliencyConfig struct {
	sched      schedule
	never      bool
	infinite   bool
	jitter     bool
	classified bool
}

func (t *reader) resiliencyRetrier(e ast.Expr, depth int) resiliencyConfig {
	unknown := resiliencyConfig{sched: unknownSchedule(e), classified: true}
	if depth > maxTrace {
		return unknown
	}
	x, where := t.value(e)
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return unknown
	}
	fn := callee(where.info, call)
	if fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) != resiliencyPath {
		return unknown
	}
	var c resiliencyConfig
	switch fn.Name() {
	case "New":
		if len(call.Args) != 2 {
			return unknown
		}
		c.sched, c.never = where.resiliencyBackoff(call.Args[0])
		c.classified = where.resiliencyClassified(call.Args[1])
	case "WithInfiniteRetry", "WithSurfaceWorkErrors":
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return unknown
		}
		c = where.resiliencyRetrier(sel.X, depth+1)
		c.apply(where, call, fn.Name())
	default:
		return unknown
	}
	for _, m := range t.methodCallsOn(e, resiliencyPath) {
		if mfn := callee(t.info, m); mfn != nil {
			c.apply(t, m, mfn.Name())
		}
	}
	if c.infinite {
		c.never = false
	}
	return c
}

func (c *resiliencyConfig) apply(t *reader, call *ast.CallExpr, name string) {
	switch name {
	case "WithInfiniteRetry":
		c.infinite = true
	case "SetJitter":
		if len(call.Args) == 1 {
			f, ok := t.float(call.Args[0])
			c.jitter = !ok || f > 0 && f <= 1
		}
	}
}

// resiliencyBackoff reads the list of waits given to retrier.New. never
// reports a list without entries: no retry.
func (t *reader) resiliencyBackoff(e ast.Expr) (schedule, bool) {
	x, where := t.value(e)
	if isNil(x) {
		return schedule{}, true
	}
	if lit, ok := ast.Unparen(x).(*ast.CompositeLit); ok {
		return where.resiliencyList(lit)
	}
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return unknownSchedule(e), false
	}
	fn := callee(where.info, call)
	if fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) != resiliencyPath || len(call.Args) < 2 {
		return unknownSchedule(e), false
	}
	s := schedule{at: call, waits: true}
	n, known := where.integer(call.Args[0])
	switch {
	case !known:
		s.unknown = true
	case n <= 0:
		return s, true
	default:
		s.attempts = int(n) + 1
	}
	d, dKnown := where.duration(call.Args[1])
	if dKnown && d == 0 {
		s.waits = false
	}
	switch fn.Name() {
	case "ConstantBackoff":
		s.delay.Value = where.durationText(call.Args[1])
	case "ExponentialBackoff":
		s.delay = Delay{Grows: true}
		s.initial, s.initialKnown, s.factor = d, dKnown, 2
	case "LimitedExponentialBackoff":
		s.delay = Delay{Grows: true, Capped: true}
		s.initial, s.initialKnown, s.factor = d, dKnown, 2
	default:
		return unknownSchedule(e), false
	}
	return s, false
}

// resiliencyList reads a []time.Duration literal: one retry per entry,
// waits that grow where an entry exceeds the one before, and, the list
// being finite, capped.
func (t *reader) resiliencyList(lit *ast.CompositeLit) (schedule, bool) {
	if len(lit.Elts) == 0 {
		return schedule{}, true
	}
	s := schedule{at: lit, waits: true, attempts: len(lit.Elts) + 1}
	var prev time.Duration
	same, allZero := true, true
	for i, el := range lit.Elts {
		d, ok := t.duration(el)
		if !ok {
			s.delay = Delay{Unknown: true}
			return s, false
		}
		if d != 0 {
			allZero = false
		}
		if i > 0 && d != prev {
			same = false
		}
		if i > 0 && d > prev {
			s.delay.Grows = true
		}
		prev = d
	}
	switch {
	case allZero:
		s.waits = false
	case same:
		s.delay.Value = prev.String()
	default:
		s.delay.Capped = true
	}
	return s, false
}

// resiliencyClassified reports whether a classifier looks at the error:
// anything but nil or DefaultClassifier.
func (t *reader) resiliencyClassified(e ast.Expr) bool {
	x, where := t.value(e)
	if isNil(x) {
		return false
	}
	typ := where.info.TypeOf(x)
	if typ == nil {
		return true
	}
	if p, ok := typ.(*types.Pointer); ok {
		typ = p.Elem()
	}
	if n, ok := types.Unalias(typ).(*types.Named); ok && n.Obj().Pkg() != nil && Path(n.Obj().Pkg()) == resiliencyPath && n.Obj().Name() == "DefaultClassifier" {
		return false
	}
	return true
}

var resiliencyFixes = map[string]string{
	"fixed-sleep":           "use retrier.LimitedExponentialBackoff(n, initial, max) and r.SetJitter(0.25) instead of ConstantBackoff",
	"no-jitter":             "call r.SetJitter(0.25) on the retrier",
	"no-cap":                "use retrier.LimitedExponentialBackoff(n, initial, max)",
	"unbounded-retry":       "drop WithInfiniteRetry, or run it with r.RunCtx(ctx, ...) and a context that ends",
	"unclassified-retry":    "give retrier.New a retrier.WhitelistClassifier of the transient errors (or a BlacklistClassifier of the permanent ones) instead of nil",
	"retry-permanent":       "list only transient errors in the classifier, and retry only 408, 429, 5xx or Unavailable",
	"sleep-ignores-context": "call r.RunCtx(ctx, ...) instead of r.Run(...)",
}
