package retrylib

import (
	"go/ast"
	"go/types"
	"math"
)

const sethvargoPath = "github.com/sethvargo/go-retry"

// sethvargo reads github.com/sethvargo/go-retry (v0.5.0): Do(ctx, b, f),
// DoValue, and the Constant/Exponential/Fibonacci shorthands. Only errors
// wrapped in RetryableError are retried; a back-off never stops by
// itself (WithMaxRetries, WithMaxDuration or ctx stop it), grows without
// a cap unless WithCappedDuration, and has no jitter unless WithJitter,
// WithJitterPercent or WithFullJitter. b.Next() in a hand-written loop is
// read as that loop's wait.
func sethvargo(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	t := newReader(info, call, enclosing)
	if fn.Signature().Recv() != nil {
		if fn.Name() != "Next" {
			return nil
		}
		return t.sethvargoNext(call)
	}
	if len(call.Args) != 3 {
		return nil
	}
	var s schedule
	switch fn.Name() {
	case "Do", "DoValue":
		s = t.sethvargoBackoff(call.Args[1], 0)
	case "Constant":
		s = t.sethvargoBase(call.Args[1], call.Args[1], Delay{}, 1)
	case "Exponential":
		s = t.sethvargoBase(call.Args[1], call.Args[1], Delay{Grows: true}, 2)
	case "Fibonacci":
		s = t.sethvargoBase(call.Args[1], call.Args[1], Delay{Grows: true}, math.Phi)
	default:
		return nil
	}
	c := t.context(call.Args[0])
	s.ctx.ends = s.ctx.ends || c.ends
	s.ctx.deadline = s.ctx.deadline || c.deadline
	op := t.undecorated(call.Args[2], 3)
	v := t.operation(op, opKind{path: sethvargoPath, retry: []string{"RetryableError"}})
	if !v.retries {
		return nil // nothing is marked retryable: one attempt
	}
	return s.retrier(sethvargoPath, call, op, v)
}

func (t *reader) sethvargoNext(call *ast.CallExpr) *Retrier {
	recv, origin, _, loop, fresh, ok := t.pacedCall(call)
	if !ok {
		return nil
	}
	s := t.sethvargoBackoff(recv, 0)
	r := s.retrier(sethvargoPath, call, nil, verdict{classified: true})
	r.Loop = loop
	if loop == nil {
		opInRetry(r)
	}
	if fresh && origin != recv && !s.unknown {
		r.Fresh, r.FreshAt = true, origin
		r.Delay.Grows, r.Delay.Capped = false, true
	}
	return r
}

func (t *reader) sethvargoBase(at, base ast.Expr, d Delay, factor float64) schedule {
	s := schedule{delay: d, at: at, waits: true, factor: factor}
	s.initial, s.initialKnown = t.duration(base)
	if !d.Grows {
		s.delay.Value = t.durationText(base)
	}
	return s
}

// sethvargoBackoff reads a Backoff built from the package's constructors
// and wrappers.
func (t *reader) sethvargoBackoff(e ast.Expr, depth int) schedule {
	if depth > maxTrace {
		return unknownSchedule(e)
	}
	x, where := t.value(e)
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return unknownSchedule(e)
	}
	fn := callee(where.info, call)
	if fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) != sethvargoPath || fn.Signature().Recv() != nil || len(call.Args) == 0 {
		return unknownSchedule(e)
	}
	last := func() schedule {
		if len(call.Args) == 0 {
			return unknownSchedule(e)
		}
		return where.sethvargoBackoff(call.Args[len(call.Args)-1], depth+1)
	}
	switch fn.Name() {
	case "NewConstant":
		return where.sethvargoBase(call, call.Args[0], Delay{}, 1)
	case "NewExponential":
		return where.sethvargoBase(call, call.Args[0], Delay{Grows: true}, 2)
	case "NewFibonacci":
		return where.sethvargoBase(call, call.Args[0], Delay{Grows: true}, math.Phi)
	case "WithMaxRetries":
		s := last()
		if n, ok := where.integer(call.Args[0]); ok {
			s.limit(int(n) + 1)
		} else {
			s.unknown = true
		}
		return s
	case "WithCappedDuration":
		s := last()
		s.delay.Capped = true
		return s
	case "WithMaxDuration":
		s := last()
		s.deadline = true
		return s
	case "WithJitter", "WithJitterPercent", "WithFullJitter":
		s := last()
		if fn.Name() == "WithFullJitter" {
			s.delay.Random = true
		} else if n, ok := where.integer(call.Args[0]); !ok || n != 0 {
			s.delay.Random = true
		}
		if s.delay.Random {
			s.delay.Value = ""
		}
		return s
	}
	return unknownSchedule(e)
}

var sethvargoFixes = map[string]string{
	"fixed-sleep":           "use retry.NewExponential wrapped in retry.WithJitterPercent and retry.WithCappedDuration",
	"no-jitter":             "wrap the back-off in retry.WithJitterPercent(...) or retry.WithFullJitter(...)",
	"no-cap":                "wrap the back-off in retry.WithCappedDuration(...)",
	"unbounded-retry":       "wrap the back-off in retry.WithMaxRetries(n, b) or retry.WithMaxDuration(d, b), or pass a context that ends",
	"unclassified-retry":    "wrap only transient errors in retry.RetryableError and return the others as they are",
	"retry-permanent":       "return these without retry.RetryableError, and retry only 408, 429, 5xx or Unavailable",
	"sleep-ignores-context": "pass ctx to retry.Do instead of context.Background()",
}
