package retrylib

import (
	"go/ast"
	"go/types"
	"math"
	"time"
)

const rokoPath = "github.com/buildkite/roko"

// roko reads github.com/buildkite/roko (v1.4.0): a Retrier built by
// NewRetrier(opts...) runs the callback at r.Do(callback),
// r.DoWithContext(ctx, callback) or roko.DoFunc/DoFunc2/DoFunc3(ctx, r,
// callback), until it returns nil. From retrier.go at v1.4.0:
//
//   - DoWithContext (lines 277-300) computes the next wait before each
//     attempt (line 281), calls the callback (284), counts the attempt
//     (289) and gives up when ShouldGiveUp says so (292), else waits in a
//     select on ctx.Done() (sleepOrDone, lines 347-370, also around a
//     WithSleepFunc sleep). Do is DoWithContext on context.Background()
//     (lines 272-274): its waits cannot be cancelled. DoFunc, DoFunc2 and
//     DoFunc3 run DoWithContext (lines 306-345).
//   - WithMaxAttempts(n): n attempts in all (ShouldGiveUp, line 235).
//     TryForever() retries without limit (line 231), and wins over a
//     maximum. NewRetrier panics with neither (lines 177-179) and on a
//     negative maximum (181-183).
//   - Break(), called by the callback, stops the retries once it returns
//     (lines 214-216, checked first at line 227): the only way to stop
//     on a failure a retry cannot fix, short of returning nil.
//     SetNextInterval(d) replaces the next wait (lines 219-221).
//   - Strategies (WithStrategy, lines 111-116): Constant(d) waits d
//     (lines 43-51); Exponential(base, adjustment) waits adjustment +
//     (base in whole seconds)^attempt seconds (lines 55-67), so 1s +
//     adjustment first, and the same every time for a base under 2s;
//     ExponentialSubsecond(initial) waits initialMs^(attempt/16+1) ms
//     (lines 83-93), initial first. Neither exponential has a cap. The
//     attempt counted is the one before the wait's: with n attempts the
//     last wait is the (n-2)th power. Without a strategy the interval
//     function is nil and DoWithContext panics at line 281: read as
//     unknown.
//   - WithJitter() adds a random [0, 1s) to every wait (lines 13,
//     122-127, Jitter at 198-205); WithJitterRange(min, max) a random
//     [min, max) (lines 134-146). No jitter by default.
//   - WithSleepFunc(f) sleeps with f (lines 158-162), a no-op in tests:
//     a function the code writes waits what it decides; one injected
//     through a field or a parameter is handed the strategy's waits. WithRand changes nothing read here.
func roko(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	var recv, ctx, cb ast.Expr
	switch {
	case fn.Signature().Recv() != nil && fn.Name() == "Do" && len(call.Args) == 1,
		fn.Signature().Recv() != nil && fn.Name() == "DoWithContext" && len(call.Args) == 2:
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		recv, cb = sel.X, call.Args[len(call.Args)-1]
		if len(call.Args) == 2 {
			ctx = call.Args[0]
		}
	case fn.Signature().Recv() == nil && (fn.Name() == "DoFunc" || fn.Name() == "DoFunc2" || fn.Name() == "DoFunc3") && len(call.Args) == 3:
		ctx, recv, cb = call.Args[0], call.Args[1], call.Args[2]
	default:
		return nil
	}
	t := newReader(info, call, enclosing)
	s, ok := t.rokoRetrier(recv)
	if !ok {
		return nil // one attempt, or a Retrier that panics before any
	}
	if ctx != nil {
		s.ctx = t.context(ctx)
	}
	op := t.undecorated(cb, 3)
	v := t.operation(op, opKind{path: rokoPath, stop: []string{"Break"}, halts: true})
	if !v.classified {
		v.classified = t.stopsWithNil(op)
	}
	if s.waits && t.rokoSetsEveryWait(op) {
		s.delay = Delay{Unknown: true}
	}
	r := s.retrier(rokoPath, call, op, v)
	r.Fixes = rokoFixes
	if c, ok := ast.Unparen(recv).(*ast.CallExpr); ok && fn.Signature().Recv() != nil {
		r.Name = types.ExprString(c.Fun) + "(...)." + fn.Name()
	}
	return r
}

// rokoRetrier reads the Retrier a retry runs on: NewRetrier(opts...),
// inline or through a variable. ok is false when it makes one attempt or
// panics before any.
func (t *reader) rokoRetrier(e ast.Expr) (schedule, bool) {
	x, where := t.value(e)
	c, ok := isCall(where.info, x, rokoPath, "NewRetrier")
	if !ok {
		return unknownSchedule(nil), true
	}
	opts, known := where.options(c, 0)
	opaque := !known
	var attempts int64
	attemptsSet, attemptsKnown, forever := false, true, false
	jitter, ownSleep := false, false
	var strategy *ast.CallExpr
	var strategyIn *reader
	for _, o := range opts {
		ox, ow := where.value(o)
		oc, ok := ast.Unparen(ox).(*ast.CallExpr)
		var ofn *types.Func
		if ok {
			ofn = callee(ow.info, oc)
		}
		if ofn == nil || ofn.Pkg() == nil || Path(ofn.Pkg()) != rokoPath {
			opaque = true // an option of the code's own, or one not traced
			continue
		}
		switch ofn.Name() {
		case "WithMaxAttempts":
			if len(oc.Args) != 1 {
				opaque = true
				continue
			}
			attemptsSet = true
			attempts, attemptsKnown = ow.integer(oc.Args[0])
		case "TryForever":
			forever = true
		case "WithStrategy":
			strategy, strategyIn = oc, ow
		case "WithJitter", "WithJitterRange":
			jitter = true
		case "WithSleepFunc":
			// A sleep the code writes (a no-op in tests) waits what it
			// decides; one injected through a field or a parameter
			// (c.RetrySleepFunc, time.Sleep outside tests) is handed the
			// strategy's waits.
			if len(oc.Args) != 1 {
				ownSleep = true
			} else if !ow.isTimeSleep(oc.Args[0]) {
				if _, body, _ := ow.funcOf(oc.Args[0]); body != nil {
					ownSleep = true
				}
			}
		case "WithRand":
		default:
			opaque = true
		}
	}
	if opaque {
		return unknownSchedule(c), true
	}
	s := schedule{at: c, waits: true}
	switch {
	case forever:
	case !attemptsSet:
		return schedule{}, false // NewRetrier panics without either
	case !attemptsKnown:
		s.unknown = true
	case attempts <= 1:
		return schedule{}, false // one attempt, or a panic (none)
	default:
		s.limit(int(attempts))
	}
	if strategy == nil {
		s.delay = Delay{Unknown: true} // no strategy: DoWithContext panics
		return s, true
	}
	s.at = strategy
	strategyIn.rokoStrategy(&s, strategy, jitter)
	if ownSleep {
		s.delay, s.waits = Delay{Unknown: true}, true
	}
	return s, true
}

// rokoStrategy reads WithStrategy(roko.Constant(d)), Exponential(base,
// adjustment) or ExponentialSubsecond(initial) into the schedule; a
// strategy of the code's own is unknown.
func (t *reader) rokoStrategy(s *schedule, with *ast.CallExpr, jitter bool) {
	s.delay = Delay{Unknown: true}
	if len(with.Args) != 1 {
		return // a Strategy and its name, from code not read here
	}
	x, where := t.value(with.Args[0])
	c, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return
	}
	fn := callee(where.info, c)
	if fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) != rokoPath || fn.Signature().Recv() != nil {
		return
	}
	steady := func(value string) {
		s.delay = Delay{Random: jitter, Capped: true}
		if !jitter {
			s.delay.Value = value
		}
	}
	switch {
	case fn.Name() == "Constant" && len(c.Args) == 1:
		s.at = c
		if d, known := where.duration(c.Args[0]); known && d <= 0 && !jitter {
			s.delay, s.waits = Delay{Value: "0s"}, false
			return
		}
		steady(where.durationText(c.Args[0]))
	case fn.Name() == "Exponential" && len(c.Args) == 2:
		s.at = c
		base, baseKnown := where.duration(c.Args[0])
		adj, adjKnown := where.duration(c.Args[1])
		whole := float64(base / time.Second)
		if baseKnown && whole <= 1 {
			// 1^attempt: every wait is 1s + adjustment.
			if adjKnown {
				steady((time.Second + adj).String())
			} else {
				steady("1s + " + where.durationText(c.Args[1]))
			}
			return
		}
		s.delay = Delay{Grows: true, Random: jitter}
		s.factor = 2
		if baseKnown {
			s.factor = whole
		}
		if baseKnown && adjKnown {
			// The first wait is 1s + adjustment; shortGrowth's
			// (1s + adjustment)×base^(n-2) is at least the last,
			// adjustment + base^(n-2) seconds, which decides here.
			s.initial, s.initialKnown = time.Second+adj, true
			if n := s.attempts; n > 0 {
				last := adj.Seconds() + math.Pow(whole, float64(max(n-2, 0)))
				s.delay.Capped = last <= maxShortWait.Seconds()
			}
		}
	case fn.Name() == "ExponentialSubsecond" && len(c.Args) == 1:
		s.at = c
		initial, known := where.duration(c.Args[0])
		ms := float64(initial / time.Millisecond)
		if known && ms <= 1 {
			steady(time.Millisecond.String()) // 1^x ms
			return
		}
		s.delay = Delay{Grows: true, Random: jitter}
		s.factor = 2
		if known {
			// initialMs^(k/16+1) ms is initial × (initialMs^(1/16))^k.
			s.initial, s.initialKnown, s.factor = time.Duration(ms)*time.Millisecond, true, math.Pow(ms, 1.0/16)
		}
	}
}

// isTimeSleep reports whether e is the function time.Sleep.
func (t *reader) isTimeSleep(e ast.Expr) bool {
	fn, _ := t.namedFunc(e)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "time" && fn.Name() == "Sleep"
}

// rokoSetsEveryWait reports a callback that sets the next wait itself,
// r.SetNextInterval(d), on every failure rather than under a check of
// what failed (a 429 with its Retry-After): the waits are then the
// code's own.
func (t *reader) rokoSetsEveryWait(op ast.Expr) bool {
	_, body, in := t.funcOf(op)
	if body == nil {
		return false
	}
	set := opKind{path: rokoPath, stop: []string{"SetNextInterval"}}
	return in.callsAny(body, rokoPath, set.stop, 0) && !in.stopInsideInspection(body, set)
}

var rokoFixes = map[string]string{
	"fixed-sleep":           "use roko.WithStrategy(roko.ExponentialSubsecond(d)) with roko.WithJitter() and roko.WithMaxAttempts(n)",
	"no-jitter":             "add roko.WithJitter() (or roko.WithJitterRange(min, max)) to the Retrier's options",
	"no-cap":                "roko's exponential strategies have no maximum: keep the attempts few with roko.WithMaxAttempts(n), or clamp the wait in the callback with r.SetNextInterval(min(r.NextInterval(), maxWait))",
	"unbounded-retry":       "replace roko.TryForever() with roko.WithMaxAttempts(n), or run it with DoWithContext on a context that ends",
	"unclassified-retry":    "call r.Break() before returning an error a retry cannot fix: roko retries every error the callback returns",
	"retry-permanent":       "call r.Break() before returning these, and retry only 408, 429, 5xx or Unavailable",
	"sleep-ignores-context": "run it with r.DoWithContext(ctx, ...) (or roko.DoFunc(ctx, r, ...)): Do waits on context.Background()",
}
