package retrylib

import (
	"go/ast"
	"go/types"
	"time"
)

const (
	rican7Path         = "github.com/Rican7/retry"
	rican7StrategyPath = rican7Path + "/strategy"
	rican7BackoffPath  = rican7Path + "/backoff"
	rican7JitterPath   = rican7Path + "/jitter"
)

// rican7 reads github.com/Rican7/retry (v0.3.1): retry.Retry(action,
// strategies...) calls the action until it returns nil, asking every
// strategy before each attempt (retry.go, lines 16-36). Without a
// strategy it retries at once and forever; nothing classifies the error
// and no context stops it: the action must return nil to stop on a
// failure a retry cannot fix. From strategy/strategy.go at v0.3.1:
//
//   - Limit(n): n attempts in all (line 61-65; 0 or 1 retries nothing).
//   - Delay(d): sleeps once, before the first attempt only (lines 69-77):
//     no wait between attempts.
//   - Wait(d...): waits the durations in turn, the last repeated (lines
//     82-96): constant for one, capped for several.
//   - Backoff(alg) sleeps alg(attempt), with no jitter (lines 100-121);
//     BackoffWithJitter(alg, t) transforms it, e.g. jitter.Full. The
//     algorithms of backoff/backoff.go (Incremental, Linear, Exponential,
//     BinaryExponential, Fibonacci) grow without a cap.
func rican7(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	if fn.Signature().Recv() != nil || fn.Name() != "Retry" || len(call.Args) < 1 {
		return nil
	}
	t := newReader(info, call, enclosing)
	opts, ok := t.options(call, 1)
	s := schedule{at: call.Fun}
	opaque := !ok
	var waits []Delay
	var values []string
	for _, o := range opts {
		x, where := t.value(o)
		c, ok := ast.Unparen(x).(*ast.CallExpr)
		fn := (*types.Func)(nil)
		if ok {
			fn = callee(where.info, c)
		}
		if fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) != rican7StrategyPath {
			opaque = true // a strategy of the code's own: it may stop, wait or both
			continue
		}
		switch fn.Name() {
		case "Limit":
			if len(c.Args) != 1 {
				opaque = true
				continue
			}
			n, known := where.integer(c.Args[0])
			if !known {
				s.unknown = true
				continue
			}
			if n <= 1 {
				return nil // one attempt, or none
			}
			s.limit(int(n))
		case "Delay":
			// Before the first attempt only.
		case "Wait":
			d, v, initial, initialKnown := where.rican7Wait(c)
			if d == nil {
				continue
			}
			waits, values = append(waits, *d), append(values, v)
			s.initial, s.initialKnown, s.factor = initial, initialKnown, 2
			if s.at == call.Fun {
				s.at = c
			}
		case "Backoff", "BackoffWithJitter":
			if len(c.Args) < 1 {
				opaque = true
				continue
			}
			d, initial, initialKnown, factor := where.rican7Algorithm(c.Args[0])
			if fn.Name() == "BackoffWithJitter" {
				d.Random = true
			}
			waits, values = append(waits, d), append(values, "")
			s.initial, s.initialKnown, s.factor = initial, initialKnown, factor
			s.at = c
		default:
			opaque = true
		}
	}
	if opaque {
		s.unknown = true
		s.attempts = 0
	}
	switch {
	case opaque:
		s.delay, s.waits = Delay{Unknown: true}, true
	case len(waits) == 1:
		s.delay, s.waits = waits[0], true
		if s.delay.Constant() {
			s.delay.Value = values[0]
		}
	case len(waits) > 1:
		var d Delay
		for _, w := range waits {
			d = Delay{Grows: d.Grows || w.Grows, Random: d.Random || w.Random, Capped: d.Capped || w.Capped && !w.Grows, Unknown: d.Unknown || w.Unknown}
		}
		if d.Constant() {
			d.Value = values[0]
		}
		s.delay, s.waits = d, true
	}
	op := t.undecorated(call.Args[0], 3)
	v := t.operation(op, opKind{path: rican7Path})
	if !v.classified {
		v.classified = t.stopsWithNil(op)
	}
	if opaque {
		v.classified = true
	}
	r := s.retrier(rican7Path, call, op, v)
	r.Fixes = rican7Fixes
	return r
}

// rican7Wait reads strategy.Wait(durations...); nil when it waits
// nothing.
func (t *reader) rican7Wait(c *ast.CallExpr) (*Delay, string, time.Duration, bool) {
	if c.Ellipsis.IsValid() {
		return &Delay{Unknown: true}, "", 0, false
	}
	if len(c.Args) == 0 {
		return nil, "", 0, false
	}
	var d Delay
	var prev time.Duration
	same, allZero := true, true
	first, firstKnown := t.duration(c.Args[0])
	for i, a := range c.Args {
		v, ok := t.duration(a)
		if !ok {
			if len(c.Args) == 1 {
				return &Delay{}, t.durationText(a), 0, false
			}
			return &Delay{Unknown: true}, "", 0, false
		}
		if v != 0 {
			allZero = false
		}
		if i > 0 && v != prev {
			same = false
		}
		if i > 0 && v > prev {
			d.Grows = true
		}
		prev = v
	}
	switch {
	case allZero:
		return nil, "", 0, false
	case same:
		return &d, prev.String(), first, firstKnown
	}
	d.Capped = true // the last duration repeats
	return &d, "", first, firstKnown
}

// rican7Algorithm reads a backoff.Algorithm: the package's algorithms
// grow without a cap; one of the code's own is unknown.
func (t *reader) rican7Algorithm(e ast.Expr) (Delay, time.Duration, bool, float64) {
	x, where := t.value(e)
	c, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return Delay{Unknown: true}, 0, false, 2
	}
	fn := callee(where.info, c)
	if fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) != rican7BackoffPath || len(c.Args) == 0 {
		return Delay{Unknown: true}, 0, false, 2
	}
	d, known := where.duration(c.Args[0])
	switch fn.Name() {
	case "Linear", "Fibonacci", "BinaryExponential":
		return Delay{Grows: true}, d, known, 2
	case "Incremental":
		if len(c.Args) == 2 {
			if inc, ok := where.duration(c.Args[1]); ok && inc == 0 {
				return Delay{Value: where.durationText(c.Args[0])}, d, known, 1
			}
		}
		return Delay{Grows: true}, d, known, 2
	case "Exponential":
		base, ok := 2.0, true
		if len(c.Args) == 2 {
			base, ok = where.float(c.Args[1])
		}
		if ok && base <= 1 {
			return Delay{Value: where.durationText(c.Args[0])}, d, known, 1
		}
		if !ok {
			base = 2
		}
		return Delay{Grows: true}, d, known, base
	}
	return Delay{Unknown: true}, 0, false, 2
}

// stopsWithNil reports an action that ends the retries on a failure it
// inspected by returning nil (keeping the error aside): the only way
// Rican7/retry has to stop on a permanent failure.
func (t *reader) stopsWithNil(op ast.Expr) bool {
	_, body, in := t.funcOf(op)
	if body == nil {
		return false
	}
	found := false
	in.retryPath(body, func(ret *ast.ReturnStmt, _ failures, guards []ast.Expr) {
		if len(ret.Results) == 0 || found {
			return
		}
		if isNil(ret.Results[len(ret.Results)-1]) && in.guardsInspect(guards, nil) {
			found = true
		}
	})
	return found
}

var rican7Fixes = map[string]string{
	"fixed-sleep":           "use strategy.BackoffWithJitter(backoff.BinaryExponential(d), jitter.Full(nil)) with strategy.Limit(n)",
	"no-jitter":             "use strategy.BackoffWithJitter(alg, jitter.Full(nil)) instead of strategy.Backoff(alg)",
	"no-cap":                "keep the attempts few with strategy.Limit(n), or wait a capped list with strategy.Wait(d1, d2, ..., max)",
	"unbounded-retry":       "add strategy.Limit(n)",
	"unclassified-retry":    "return nil (keeping the error aside) for errors a retry cannot fix: Rican7/retry retries every error it is given",
	"retry-permanent":       "return nil (keeping the error aside) for these, and retry only 408, 429, 5xx or Unavailable",
	"sleep-ignores-context": "Rican7/retry sleeps with time.Sleep: return nil once ctx.Err() != nil, and keep the attempts few with strategy.Limit(n)",
}
