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
		r = &RetrySummary{
			Param:  cond,
			Answer: answerPoll,
			Poll:   true,
			At:     a.position(n.Pos()),
			Deaf:   sleeps && a.contextInScope(n.Pos()) == nil,
		}
		return false
	})
	return r
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
