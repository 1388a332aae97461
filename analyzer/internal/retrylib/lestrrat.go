package retrylib

import (
	"go/ast"
	"go/token"
	"go/types"
	"time"
)

const lestrratPath = "github.com/lestrrat-go/backoff/v2"

// lestrrat reads github.com/lestrrat-go/backoff/v2 (v2.0.8): a loop
// written around a Controller, b := p.Start(ctx); for backoff.Continue(b)
// { ... }, or one that leaves when !backoff.Continue(b). Continue waits
// for the controller's next tick (backoff.go, lines 24-31), so the
// library is the loop's wait and its bound (Retrier.Governs). Defaults at
// v2.0.8:
//
//   - WithMaxRetries: 10 (controller.go line 197); 0 is forever (options.go
//     doc and check(), controller.go lines 255-259). The first round runs
//     at once (the event enqueued at line 217), then one per retry.
//   - Constant: WithInterval 1 minute (constant.go line 15), no jitter.
//   - Exponential: WithMinInterval 500ms, WithMaxInterval 1 minute,
//     WithMultiplier 1.5 (exponential.go lines 15-19), a multiplier at or
//     below 1 is 1.5 (line 45), min above max is max (line 41); capped by
//     the maximum (line 65); no jitter.
//   - WithJitterFactor(f) jitters only for 0 < f < 1 (jitter.go line 13).
//   - Start(ctx): ctx ends Continue (controller.go, Done).
//   - Null() makes one attempt.
func lestrrat(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	if fn.Signature().Recv() != nil || fn.Name() != "Continue" || len(call.Args) != 1 {
		return nil
	}
	t := newReader(info, call, enclosing)
	loop := enclosingLoop(t.body, call.Pos())
	if loop == nil || !t.lestrratGoverns(loop, call) {
		return nil
	}
	s := t.lestrratController(call.Args[0])
	if s.never {
		return nil
	}
	op := firstErrorCall(t.info, loopBody(loop))
	if op == nil {
		return nil // nothing in the loop can fail: a pacing, not a retry
	}
	r := s.retrier(lestrratPath, call, op, verdict{classified: t.loopInspects(loop)})
	r.Loop, r.Governs = loop, true
	r.Fixes = lestrratFixes
	return r
}

// lestrratGoverns reports whether the loop ends when Continue says so:
// Continue is its condition, or an if on !Continue leaves it.
func (t *reader) lestrratGoverns(loop ast.Stmt, call *ast.CallExpr) bool {
	if fs, ok := loop.(*ast.ForStmt); ok && fs.Cond != nil && fs.Cond.Pos() <= call.Pos() && call.End() <= fs.Cond.End() {
		return true
	}
	found := false
	ast.Inspect(loopBody(loop), func(n ast.Node) bool {
		if found {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		is, ok := n.(*ast.IfStmt)
		if !ok {
			return true
		}
		if u, ok := ast.Unparen(is.Cond).(*ast.UnaryExpr); ok && u.Op == token.NOT && ast.Unparen(u.X) == ast.Expr(call) && leavesRound(is.Body) {
			found = true
		}
		return true
	})
	return found
}

// lestrratController reads the Controller given to Continue: the Start
// of a policy built by the package's constructors.
func (t *reader) lestrratController(e ast.Expr) schedule {
	x, where := t.value(e)
	start, ok := isCall(where.info, x, lestrratPath, "Start")
	if !ok || len(start.Args) != 1 {
		return unknownSchedule(e)
	}
	sel, ok := ast.Unparen(start.Fun).(*ast.SelectorExpr)
	if !ok {
		return unknownSchedule(e)
	}
	s := where.lestrratPolicy(sel.X)
	s.ctx = where.context(start.Args[0])
	return s
}

func (t *reader) lestrratPolicy(e ast.Expr) schedule {
	x, where := t.value(e)
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return unknownSchedule(e)
	}
	fn := callee(where.info, call)
	if fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) != lestrratPath || fn.Signature().Recv() != nil {
		return unknownSchedule(e)
	}
	var exponential bool
	switch fn.Name() {
	case "Null", "NewNull":
		return schedule{never: true}
	case "Constant", "NewConstantPolicy":
	case "Exponential", "NewExponentialPolicy":
		exponential = true
	default:
		return unknownSchedule(e)
	}
	opts, ok := where.options(call, 0)
	if !ok {
		return unknownSchedule(e)
	}
	retries, retriesKnown := int64(10), true
	interval, intervalKnown, intervalText := time.Minute, true, "1m0s"
	min, minKnown := 500*time.Millisecond, true
	max, maxKnown, maxText := time.Minute, true, "1m0s"
	mult, multKnown := 1.5, true
	jitter := false
	at := ast.Expr(call)
	for _, o := range opts {
		ox, ow := where.value(o)
		oc, ok := ast.Unparen(ox).(*ast.CallExpr)
		if !ok {
			return unknownSchedule(e)
		}
		ofn := callee(ow.info, oc)
		if ofn == nil || ofn.Pkg() == nil || Path(ofn.Pkg()) != lestrratPath || len(oc.Args) != 1 {
			return unknownSchedule(e)
		}
		a := oc.Args[0]
		switch ofn.Name() {
		case "WithMaxRetries":
			retries, retriesKnown = ow.integer(a)
		case "WithInterval":
			interval, intervalKnown = ow.duration(a)
			intervalText = ow.durationText(a)
		case "WithMinInterval":
			min, minKnown = ow.duration(a)
		case "WithMaxInterval":
			max, maxKnown = ow.duration(a)
			maxText = ow.durationText(a)
		case "WithMultiplier":
			mult, multKnown = ow.float(a)
			if multKnown && mult <= 1 {
				mult = 1.5
			}
		case "WithJitterFactor":
			f, known := ow.float(a)
			jitter = !known || f > 0 && f < 1
		}
	}
	s := schedule{at: at, waits: true}
	switch {
	case !retriesKnown:
		s.unknown = true
	case retries > 0:
		s.attempts = int(retries) + 1
	}
	if !exponential {
		if intervalKnown && interval <= 0 {
			s.waits = false
		}
		s.delay = Delay{Random: jitter, Capped: true}
		if !jitter {
			s.delay.Value = intervalText
		}
		return s
	}
	if minKnown && maxKnown && min >= max {
		s.delay = Delay{Random: jitter, Capped: true}
		if !jitter {
			s.delay.Value = maxText
		}
		return s
	}
	s.delay = Delay{Grows: true, Capped: true, Random: jitter}
	s.initial, s.initialKnown, s.factor = min, minKnown, mult
	return s
}

var lestrratFixes = map[string]string{
	"fixed-sleep":           "use backoff.Exponential(...) with backoff.WithJitterFactor(0.2) instead of a constant policy",
	"no-jitter":             "add backoff.WithJitterFactor(0.2) to the policy",
	"unbounded-retry":       "pass backoff.WithMaxRetries(n) with n > 0, or start the policy with a context that ends",
	"sleep-ignores-context": "start the policy with ctx: p.Start(ctx)",
}
