package retrylib

import (
	"go/ast"
	"go/types"
	"time"
)

const (
	cenkaltiV5Path = "github.com/cenkalti/backoff/v5"
	cenkaltiV6Path = "github.com/cenkalti/backoff/v6"
	cenkaltiV7Path = "github.com/cenkalti/backoff/v7"
)

// cenkaltiV5 reads github.com/cenkalti/backoff/v5 (v5.0.3): Retry(ctx, op,
// opts...) runs op until it succeeds, returns backoff.Permanent, ctx is
// done, WithMaxTries(n) attempts were made or WithMaxElapsedTime passed
// (15min by default; 0 never stops). Without WithBackOff it waits as
// NewExponentialBackOff: 500ms, ×1.5, randomisation 0.5, capped at 60s.
// b.NextBackOff() in a hand-written loop is read as in v4. v6 (which
// made Retry return a *RetryError) and v7 (whose RetryAfter takes the
// cause) keep v5's Retry, its options, defaults and Permanent, and are
// read the same way under their own paths.
func cenkaltiV5(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	return cenkalti(newReader(info, call, enclosing), call, fn, Path(fn.Pkg()))
}

func cenkaltiV5Retry(t *reader, call *ast.CallExpr, path string) *Retrier {
	if len(call.Args) < 2 {
		return nil
	}
	var s schedule
	backOff := false
	deadline := true // DefaultMaxElapsedTime
	attempts := 0
	bounded := true
	opts, ok := t.options(call, 2)
	if !ok {
		return t.v5Unknown(call, call.Args[len(call.Args)-1], path)
	}
	for _, opt := range opts {
		oc, ok := ast.Unparen(opt).(*ast.CallExpr)
		if !ok {
			return t.v5Unknown(call, opt, path)
		}
		ofn := callee(t.info, oc)
		if ofn == nil || ofn.Pkg() == nil || Path(ofn.Pkg()) != path || len(oc.Args) != 1 {
			return t.v5Unknown(call, opt, path)
		}
		switch ofn.Name() {
		case "WithBackOff":
			s, backOff = t.cenkaltiBackOff(oc.Args[0], path, 0), true
		case "WithMaxTries":
			if n, ok := t.integer(oc.Args[0]); ok {
				attempts = int(n)
			} else {
				bounded = false
			}
		case "WithMaxElapsedTime":
			d, known := t.duration(oc.Args[0])
			deadline = !known || d != 0
		}
	}
	if !backOff {
		s = schedule{
			delay:   Delay{Grows: true, Random: true, Capped: true},
			waits:   true,
			initial: 500 * time.Millisecond, initialKnown: true, factor: 1.5,
		}
	}
	if s.never {
		return nil
	}
	if attempts > 0 {
		s.limit(attempts)
	}
	s.deadline = s.deadline || deadline
	if !bounded {
		s.unknown = true
	}
	c := t.context(call.Args[0])
	s.ctx.ends = s.ctx.ends || c.ends
	s.ctx.deadline = s.ctx.deadline || c.deadline
	op := t.undecorated(call.Args[1], 3)
	return s.retrier(path, call, op, t.operation(op, opKind{path: path, stop: []string{"Permanent"}}))
}

// v5Unknown is a Retry whose options come from code the finder cannot
// read: only the operation and the context are known.
func (t *reader) v5Unknown(call *ast.CallExpr, at ast.Expr, path string) *Retrier {
	s := unknownSchedule(at)
	s.ctx = t.context(call.Args[0])
	op := t.undecorated(call.Args[1], 3)
	return s.retrier(path, call, op, t.operation(op, opKind{path: path, stop: []string{"Permanent"}}))
}

var cenkaltiV5Fixes = map[string]string{
	"fixed-sleep":           "use backoff.WithBackOff(backoff.NewExponentialBackOff()), which grows, jitters and is capped",
	"no-jitter":             "set RandomizationFactor on the ExponentialBackOff (0.5 by default)",
	"no-cap":                "set MaxInterval on the ExponentialBackOff",
	"unbounded-retry":       "pass backoff.WithMaxTries(n) or backoff.WithMaxElapsedTime(d), or a context that ends",
	"unclassified-retry":    "return backoff.Permanent(err) from the operation for errors a retry cannot fix",
	"retry-permanent":       "return backoff.Permanent(err) for these and retry only 408, 429, 5xx or Unavailable",
	"sleep-ignores-context": "pass ctx to backoff.Retry instead of context.Background()",
}
