package retrylib

import (
	"go/ast"
	"go/token"
	"go/types"
)

const gaxPath = "github.com/googleapis/gax-go/v2"

// gax reads github.com/googleapis/gax-go/v2 (v2.27.0). Invoke(ctx, call,
// opts...) retries only with a gax.WithRetry option, until the Retryer
// declines or ctx is done (WithTimeout bounds a ctx without deadline);
// there is no attempt limit. Backoff.Pause always jitters (a random wait
// up to the current interval) and is capped at Max (30s by default); it
// grows by Multiplier (2 by default, below 1 means 2). OnCodes retries the
// listed gRPC codes, OnHTTPCodes the listed HTTP statuses, OnErrorFunc
// what its predicate accepts.
//
// A gax.WithRetry given to a generated client's method (or kept in its
// CallOptions) is read at the WithRetry call, with the method's ctx
// taken to end it.
func gax(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	if fn.Signature().Recv() != nil {
		return nil
	}
	t := newReader(info, call, enclosing)
	switch fn.Name() {
	case "Invoke":
		if len(call.Args) < 2 {
			return nil
		}
		opts, ok := t.options(call, 2)
		if !ok {
			s := unknownSchedule(call)
			s.ctx = t.context(call.Args[0])
			return s.retrier(gaxPath, call, call.Args[1], verdict{classified: true})
		}
		var retry *ast.CallExpr
		deadline := false
		for _, opt := range opts {
			x, where := t.value(opt)
			if c, ok := isCall(where.info, x, gaxPath, "WithRetry"); ok {
				retry = c
			} else if _, ok := isCall(where.info, x, gaxPath, "WithTimeout"); ok {
				deadline = true
			}
		}
		if retry == nil {
			return nil // no retryer: one attempt
		}
		s, v := t.gaxRetry(retry)
		s.deadline = s.deadline || deadline
		s.ctx = t.context(call.Args[0])
		return s.retrier(gaxPath, call, call.Args[1], v)
	case "WithRetry":
		if t.givenToInvoke(call) {
			return nil
		}
		s, v := t.gaxRetry(call)
		s.ctx = ctxState{ends: true}
		return s.retrier(gaxPath, call, nil, v)
	}
	return nil
}

// givenToInvoke reports whether a WithRetry call is an option of a
// gax.Invoke in the same body.
func (t *reader) givenToInvoke(retry *ast.CallExpr) bool {
	found := false
	ast.Inspect(t.body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if _, ok := isCall(t.info, call, gaxPath, "Invoke"); ok {
			at := &reader{info: t.info, body: t.body, use: call.Pos()}
			opts, _ := at.options(call, 2)
			for _, o := range opts {
				if x, _ := at.value(o); ast.Unparen(x) == retry {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// gaxRetry reads the Retryer a WithRetry(func() gax.Retryer {...}) builds.
func (t *reader) gaxRetry(withRetry *ast.CallExpr) (schedule, verdict) {
	unknown := func() (schedule, verdict) { return unknownSchedule(withRetry), verdict{classified: true} }
	if len(withRetry.Args) != 1 {
		return unknown()
	}
	_, body, in := t.funcOf(withRetry.Args[0])
	if body == nil {
		return unknown()
	}
	var ret ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 1 && ret == nil {
			ret = r.Results[0]
		}
		return true
	})
	if ret == nil {
		return unknown()
	}
	x, where := in.value(ret)
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return unknown()
	}
	fn := callee(where.info, call)
	if fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) != gaxPath || len(call.Args) < 1 {
		return unknown()
	}
	switch fn.Name() {
	case "OnCodes":
		if len(call.Args) != 2 {
			return unknown()
		}
		s := where.gaxBackoff(call.Args[1])
		v := verdict{known: true, classified: true}
		elems, ok := where.sliceElems(call.Args[0], 0)
		if ok {
			var f failures
			for _, el := range elems {
				f = orCodes(f, where.compareValue(withRetry, el, token.EQL))
			}
			v.addPermanent(f)
		}
		return s, v
	case "OnHTTPCodes":
		s := where.gaxBackoff(call.Args[0])
		v := verdict{known: true, classified: true}
		var codes []ast.Expr
		if call.Ellipsis.IsValid() && len(call.Args) == 2 {
			codes, _ = where.sliceElems(call.Args[1], 0)
		} else {
			codes = call.Args[1:]
		}
		var f failures
		for _, c := range codes {
			f = orCodes(f, where.compareValue(withRetry, c, token.EQL))
		}
		v.addPermanent(f)
		return s, v
	case "OnErrorFunc":
		if len(call.Args) != 2 {
			return unknown()
		}
		return where.gaxBackoff(call.Args[0]), where.predicate(call.Args[1])
	}
	return unknown()
}

// gaxBackoff reads a gax.Backoff literal: always jittered and capped,
// growing unless its Multiplier is 1.
func (t *reader) gaxBackoff(e ast.Expr) schedule {
	s := schedule{at: e, waits: true, delay: Delay{Grows: true, Random: true, Capped: true}}
	x, where := t.value(e)
	lit, ok := ast.Unparen(x).(*ast.CompositeLit)
	if !ok {
		return s
	}
	f := structFields(lit)
	t.setAfter(f, e)
	if m, ok := f.value["Multiplier"]; ok {
		if f, known := where.float(m); known && f == 1 {
			s.delay.Grows = false
		}
	}
	return s
}

var gaxFixes = map[string]string{
	"unbounded-retry":       "pass a context with a deadline, or gax.WithTimeout(d)",
	"unclassified-retry":    "retry only transient failures, e.g. gax.OnCodes([]codes.Code{codes.Unavailable}, bo)",
	"retry-permanent":       "take these out of the codes the retryer accepts, and retry only 408, 429, 5xx or Unavailable",
	"sleep-ignores-context": "pass ctx to gax.Invoke instead of context.Background()",
}
