package retrylib

import (
	"go/ast"
	"go/token"
	"go/types"
	"time"
)

const cenkaltiV4Path = "github.com/cenkalti/backoff/v4"

// cenkaltiV4 reads github.com/cenkalti/backoff/v4 (v4.3.0): Retry and its
// Notify/WithData/WithTimer variants run the operation until it succeeds
// or returns backoff.Permanent, waiting as the BackOff says. Defaults of
// NewExponentialBackOff: 500ms initial, ×1.5, randomisation 0.5 (jitter),
// capped at 60s, MaxElapsedTime 15min (0 never stops). A BackOff is
// bounded only by MaxElapsedTime, WithMaxRetries or WithContext.
//
// b.NextBackOff() in a hand-written loop is read as that loop's wait
// (Retrier.Loop); a back-off built inside the loop, inside the operation
// the loop or a library retries, or Reset at the start of every round,
// never grows. backoff.NewTicker(b) is read with the loop over its
// channel, which ends when the back-off stops.
func cenkaltiV4(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	return cenkalti(newReader(info, call, enclosing), call, fn, cenkaltiV4Path)
}

func cenkalti(t *reader, call *ast.CallExpr, fn *types.Func, path string) *Retrier {
	switch fn.Name() {
	case "Retry", "RetryNotify", "RetryNotifyWithTimer", "RetryWithData", "RetryNotifyWithData", "RetryNotifyWithTimerAndData":
		if path != cenkaltiV4Path {
			return cenkaltiV5Retry(t, call, path)
		}
		if len(call.Args) < 2 {
			return nil
		}
		s := t.cenkaltiBackOff(call.Args[1], path, 0)
		if s.never {
			return nil
		}
		op := t.undecorated(call.Args[0], 3)
		return s.retrier(path, call, op, t.operation(op, opKind{path: path, stop: []string{"Permanent"}}))
	case "NextBackOff":
		if fn.Signature().Recv() == nil {
			return nil
		}
		return cenkaltiNext(t, call, path)
	case "NewTicker":
		if fn.Signature().Recv() != nil || len(call.Args) != 1 {
			return nil
		}
		return cenkaltiTicker(t, call, path)
	}
	return nil
}

// cenkaltiTicker reads ticker := backoff.NewTicker(b) and the loop over
// ticker.C that it paces: for range ticker.C { if err := op(); err != nil
// { continue }; break }. The ticker stops when the back-off does.
func cenkaltiTicker(t *reader, call *ast.CallExpr, path string) *Retrier {
	ticker := t.assignedTo(call)
	if ticker == nil {
		return nil
	}
	loop := t.tickLoop(ticker)
	if loop == nil {
		return nil
	}
	s := t.cenkaltiBackOff(call.Args[0], path, 0)
	if s.never {
		return nil
	}
	op := firstErrorCall(t.info, loopBody(loop))
	if op == nil {
		return nil // nothing in the loop can fail
	}
	r := s.retrier(path, call, op, verdict{classified: t.loopInspects(loop)})
	r.Loop = loop
	_, r.Governs = loop.(*ast.RangeStmt)
	return r
}

// tickLoop returns the loop that receives from ticker.C: a range over
// it, or a for loop that receives from it.
func (t *reader) tickLoop(ticker types.Object) ast.Stmt {
	isTick := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "C" && exprObject(t.info, sel.X) == ticker
	}
	var loop ast.Stmt
	ast.Inspect(t.body, func(n ast.Node) bool {
		if loop != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.RangeStmt:
			if isTick(n.X) {
				loop = n
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && isTick(n.X) {
				loop = enclosingLoop(t.body, n.Pos())
			}
		}
		return true
	})
	return loop
}

// cenkaltiNext reads b.NextBackOff() as the wait of the hand-written loop
// around it.
func cenkaltiNext(t *reader, call *ast.CallExpr, path string) *Retrier {
	recv, origin, _, loop, fresh, ok := t.pacedCall(call)
	if !ok {
		return nil
	}
	s := t.cenkaltiBackOff(recv, path, 0)
	r := s.retrier(path, call, nil, verdict{classified: true})
	r.Loop = loop
	if loop == nil {
		opInRetry(r)
	}
	at := origin
	if reset := t.resetEachRound(loop, recv, path, call.Pos()); reset != nil && !s.unknown {
		fresh, at = true, reset
	}
	if fresh && at != recv && !s.unknown {
		r.Fresh, r.FreshAt = true, at
		r.Delay.Grows = false
		r.Delay.Capped = true
		if !r.Delay.Random {
			r.Delay.Value = s.delay.Value
		}
	}
	return r
}

// cenkaltiBackOff reads a BackOff value of v4 or v5.
func (t *reader) cenkaltiBackOff(e ast.Expr, path string, depth int) schedule {
	if depth > maxTrace {
		return unknownSchedule(e)
	}
	x, where := t.value(e)
	if call, ok := ast.Unparen(x).(*ast.CallExpr); ok {
		fn := callee(where.info, call)
		if fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) != path {
			return unknownSchedule(e)
		}
		switch fn.Name() {
		case "NewExponentialBackOff":
			fields := newFields()
			opts, ok := where.options(call, 0)
			if !ok {
				return unknownSchedule(e)
			}
			for _, opt := range opts {
				if oc, ok := ast.Unparen(opt).(*ast.CallExpr); ok {
					if ofn := callee(where.info, oc); ofn != nil && len(oc.Args) == 1 {
						if f, ok := cenkaltiOptionFields[ofn.Name()]; ok {
							fields.set(f, oc.Args[0], oc)
						}
					}
				}
			}
			t.setAfter(fields, e)
			return where.cenkaltiExponential(call, fields, path, true)
		case "NewConstantBackOff":
			if len(call.Args) != 1 {
				return unknownSchedule(e)
			}
			return t.cenkaltiConstant(call, call.Args[0])
		case "WithMaxRetries":
			if len(call.Args) != 2 {
				return unknownSchedule(e)
			}
			s := where.cenkaltiBackOff(call.Args[0], path, depth+1)
			if n, ok := where.integer(call.Args[1]); ok {
				s.limit(int(n) + 1)
			} else {
				s.unknown = true
			}
			return s
		case "WithContext":
			if len(call.Args) != 2 {
				return unknownSchedule(e)
			}
			s := where.cenkaltiBackOff(call.Args[0], path, depth+1)
			c := where.context(call.Args[1])
			s.ctx.ends = s.ctx.ends || c.ends
			s.ctx.deadline = s.ctx.deadline || c.deadline
			return s
		}
		return unknownSchedule(e)
	}
	if lit, ok := ast.Unparen(x).(*ast.CompositeLit); ok {
		named, _ := types.Unalias(where.info.TypeOf(lit)).(*types.Named)
		if named == nil || named.Obj().Pkg() == nil || Path(named.Obj().Pkg()) != path {
			return unknownSchedule(e)
		}
		fields := structFields(lit)
		t.setAfter(fields, e)
		switch named.Obj().Name() {
		case "ExponentialBackOff":
			return where.cenkaltiExponential(lit, fields, path, false)
		case "ConstantBackOff":
			return t.cenkaltiConstant(lit, fields.value["Interval"])
		case "ZeroBackOff":
			return schedule{at: lit}
		case "StopBackOff":
			return schedule{at: lit, never: true}
		}
	}
	return unknownSchedule(e)
}

// cenkaltiOptionFields maps the v4 constructor options to the fields
// they set.
var cenkaltiOptionFields = map[string]string{
	"WithInitialInterval":     "InitialInterval",
	"WithRandomizationFactor": "RandomizationFactor",
	"WithMultiplier":          "Multiplier",
	"WithMaxInterval":         "MaxInterval",
	"WithMaxElapsedTime":      "MaxElapsedTime",
}

func (t *reader) cenkaltiConstant(at ast.Expr, interval ast.Expr) schedule {
	s := schedule{at: at, waits: true}
	if interval == nil {
		s.waits = false // a zero interval: retries at once
		return s
	}
	if d, ok := t.duration(interval); ok && d == 0 {
		s.waits = false
		return s
	}
	s.delay.Value = t.durationText(interval)
	return s
}

// cenkaltiExponential reads an ExponentialBackOff from the fields the
// code sets; defaults apply to the ones it does not when the constructor
// built it (a struct literal starts from zero values).
func (t *reader) cenkaltiExponential(at ast.Expr, f fields, path string, defaults bool) schedule {
	s := schedule{at: at, waits: true}
	initial, initialKnown := 500*time.Millisecond, defaults
	if e, ok := f.value["InitialInterval"]; ok {
		initial, initialKnown = t.duration(e)
	}
	random := defaults
	if e, ok := f.value["RandomizationFactor"]; ok {
		r, known := t.float(e)
		random = !known || r != 0
		if !random {
			s.at = f.site["RandomizationFactor"]
		}
	}
	factor, factorKnown := 1.5, defaults
	if e, ok := f.value["Multiplier"]; ok {
		factor, factorKnown = t.float(e)
		if !factorKnown {
			factor = 2
		}
	} else if !defaults {
		factor, factorKnown = 0, true
	}
	grows := !factorKnown || factor > 1
	capped := true       // MaxInterval clamps the interval, 60s by default
	maxZero := !defaults // a struct literal starts from MaxInterval 0
	if e, ok := f.value["MaxInterval"]; ok {
		d, known := t.duration(e)
		maxZero = known && d == 0
		if known && d >= time.Duration(1<<62) {
			capped = false
			s.at = f.site["MaxInterval"]
		}
	}
	if maxZero && path != cenkaltiV4Path {
		// From v5 on, a MaxInterval of 0 clamps the interval to 0 after
		// the first wait, and NextBackOff starts again from
		// InitialInterval: every wait is InitialInterval, whatever the
		// Multiplier.
		grows = false
	}
	s.delay = Delay{Grows: grows, Random: random, Capped: capped}
	if !grows && !random {
		if e, ok := f.value["InitialInterval"]; ok {
			s.delay.Value = t.durationText(e)
		} else {
			s.delay.Value = initial.String()
		}
	}
	s.initial, s.initialKnown, s.factor = initial, initialKnown, factor
	if path == cenkaltiV4Path {
		s.deadline = defaults
		if e, ok := f.value["MaxElapsedTime"]; ok {
			d, known := t.duration(e)
			s.deadline = !known || d != 0
		}
	}
	return s
}

var cenkaltiV4Fixes = map[string]string{
	"fixed-sleep":           "use backoff.NewExponentialBackOff(), which grows, jitters and is capped, instead of a constant back-off",
	"no-jitter":             "set RandomizationFactor on the ExponentialBackOff (0.5 by default)",
	"no-cap":                "set MaxInterval on the ExponentialBackOff",
	"unbounded-retry":       "set MaxElapsedTime, or wrap the back-off in backoff.WithMaxRetries(b, n) or backoff.WithContext(b, ctx)",
	"unclassified-retry":    "return backoff.Permanent(err) from the operation for errors a retry cannot fix",
	"retry-permanent":       "return backoff.Permanent(err) for these and retry only 408, 429, 5xx or Unavailable",
	"sleep-ignores-context": "wrap the back-off in backoff.WithContext(b, ctx)",
}
