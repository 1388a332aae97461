package retryloop

import (
	"go/ast"
	"go/types"
)

// pollRunner reads a function that polls a condition it is given: a loop
// that calls a func(...) (bool, error) parameter and waits between calls
// (ExponentialBackoff(backoff, condition) as k8s's wait package has it,
// often copied into projects). Whether a call of it retries is for the
// condition each caller gives to say: one that answers (false, nil) after
// a failure asks for another try (answerPoll).
func (a *checker) pollRunner(decl *ast.FuncDecl) *RetrySummary {
	params := fieldObjs(a, decl.Type.Params)
	var r *RetrySummary
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if r != nil {
			return false
		}
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.ForStmt:
			body = n.Body
		case *ast.RangeStmt:
			body = n.Body
		default:
			return true
		}
		cond := -1
		anyNode(body, func(m ast.Node) bool {
			call, ok := m.(*ast.CallExpr)
			if !ok {
				return false
			}
			id, ok := ast.Unparen(call.Fun).(*ast.Ident)
			if !ok {
				return false
			}
			for i, p := range params {
				if p != nil && p == a.info().Uses[id] && isCondition(p.Type()) {
					cond = i
					return true
				}
			}
			return false
		})
		if cond < 0 {
			return true
		}
		sleeps := anyNode(body, func(m ast.Node) bool {
			call, ok := m.(*ast.CallExpr)
			return ok && isPkgFunc(a.callee(call), "time", "Sleep")
		})
		waits := sleeps || anyNode(body, func(m ast.Node) bool {
			call, ok := m.(*ast.CallExpr)
			return ok && (isPkgFunc(a.callee(call), "time", "After", "NewTimer", "NewTicker", "Tick") || a.waitsOnTimer(call))
		})
		if !waits {
			return true
		}
		answer := answerPoll
		if !a.stopsOnConditionError(body, params[cond]) {
			// WaitFor(timeout, interval, f) keeps polling after f's
			// error: true says stop, and every error f returns with
			// false goes round.
			answer = -1
		}
		r = &RetrySummary{
			Param:     cond,
			Answer:    answer,
			Poll:      true,
			At:        a.position(n.Pos()),
			Deaf:      sleeps && a.contextInScope(n.Pos()) == nil,
			WaitParam: a.pollWaitParam(body, params),
		}
		return false
	})
	return r
}

// pollWaitParam returns the 1-based index of the duration parameter every
// wait of a poll runner's loop waits as it is given (time.Sleep(interval)),
// or 0.
func (a *checker) pollWaitParam(body *ast.BlockStmt, params []types.Object) int {
	found := 0
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		call, isCall := n.(*ast.CallExpr)
		if !isCall || !ok {
			return ok
		}
		if !isPkgFunc(a.callee(call), "time", "Sleep", "After", "NewTimer", "NewTicker", "Tick") && !a.waitsOnTimer(call) {
			return true
		}
		i := -1
		if len(call.Args) == 1 {
			if id, isIdent := ast.Unparen(call.Args[0]).(*ast.Ident); isIdent {
				for j, p := range params {
					if p != nil && p == a.info().Uses[id] && isDuration(p.Type()) {
						i = j
					}
				}
			}
		}
		if i < 0 || found != 0 && found != i+1 {
			ok = false
			return false
		}
		found = i + 1
		return true
	})
	if !ok {
		return 0
	}
	return found
}

// isCondition reports a function type whose results are (bool, error).
func isCondition(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Results().Len() != 2 {
		return false
	}
	return isBool(sig.Results().At(0).Type()) && isError(sig.Results().At(1).Type())
}

// waitsOnTimer reports a timer or ticker re-armed in the loop: t.Reset(d).
func (a *checker) waitsOnTimer(call *ast.CallExpr) bool {
	fn := a.callee(call)
	if fn == nil || fn.Name() != "Reset" {
		return false
	}
	recv := recvNamed(fn)
	return recv != nil && (isNamed(recv, "time", "Timer") || isNamed(recv, "time", "Ticker"))
}

// stopsOnConditionError reports whether a poll runner's loop returns
// the error its condition gave (if ok, err := condition(); err != nil ||
// ok { return err }), as k8s's wait package does; a runner that keeps
// the error only for its message goes round on it.
func (a *checker) stopsOnConditionError(body *ast.BlockStmt, cond types.Object) bool {
	errs := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return true
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			return true
		}
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || a.info().Uses[id] != cond {
			return true
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				if obj := a.info().ObjectOf(id); obj != nil && isError(obj.Type()) {
					errs[obj] = true
				}
			}
		}
		return true
	})
	if len(errs) == 0 {
		return true // the error is not kept: read as the wait package reads it
	}
	return anyNode(body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok {
			return false
		}
		for _, r := range ret.Results {
			if anyNode(r, func(m ast.Node) bool {
				id, ok := m.(*ast.Ident)
				return ok && errs[a.info().Uses[id]]
			}) {
				return true
			}
		}
		return false
	})
}
