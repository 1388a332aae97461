package retryloop

import (
	"go/ast"
	"go/types"

	"github.com/retrylint/retrylint/analyzer/internal/retrylib"
)

// FormLibrary is a call into a known retry library (backoff.Retry,
// retry.Do, wait.ExponentialBackoff, a retrying HTTP client's Do ...).
const FormLibrary Form = "library"

// WaitLibrary is the wait a retry library takes between attempts; its
// Node and Delay are the expression that configures it.
const WaitLibrary WaitKind = "library"

// libraryLoops reads the calls of one function body into known retry
// libraries as retry loops. Calls inside nested function literals belong to
// those literals. A library call that only paces a hand-written loop
// (Retrier.Loop) gives that loop its wait and bound instead.
func (a *checker) libraryLoops(fn ast.Node, body *ast.BlockStmt, hand []*Loop) []*Loop {
	var loops []*Loop
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			r := retrylib.Find(a.info(), n, a.callee(n), body)
			if r == nil {
				return true
			}
			if r.Loop != nil {
				if h := loopAt(hand, r.Loop); h != nil {
					a.pace(h, r)
					return true
				}
				if h := loopAt(loops, r.Loop); h != nil {
					a.pace(h, r) // a second wait of the same loop
					// Classified where any of its waits is, as a hand
					// loop is where any failing round is.
					h.Classified = h.Classified || r.Classified
					return true
				}
				if !r.Governs {
					return true // the loop it paces is not a retry loop
				}
			}
			loops = append(loops, a.libraryLoop(fn, r))
		}
		return true
	})
	return loops
}

func loopAt(loops []*Loop, node ast.Node) *Loop {
	for _, l := range loops {
		if l.Node == node {
			return l
		}
	}
	return nil
}

// pace adds what a library call inside a hand-written loop does to it:
// the library's wait (in place of the call itself, when the loop took it
// for a wait), and its bound where the loop has none or the library's
// answer is the loop's condition.
func (a *checker) pace(h *Loop, r *retrylib.Retrier) {
	lib := a.libraryLoop(h.Func, r)
	waits := h.Waits[:0:0]
	for _, w := range h.Waits {
		if w.Node != ast.Node(r.Call) {
			waits = append(waits, w)
		}
	}
	for _, w := range lib.Waits {
		// A time.Sleep of the loop already answers for the context.
		w.ContextAware = w.ContextAware || len(waits) > 0
		waits = append(waits, w)
	}
	h.Waits = waits
	if r.Governs && h.Library == nil {
		h.Library = r // the library's answer is the loop's condition
	}
	if h.Bound == BoundNone || r.Governs {
		h.Bound = lib.Bound
	}
	if h.Attempts == 0 || r.Governs {
		h.Attempts = lib.Attempts
	}
}

// libraryLoop turns what a library call does into the loop it stands for.
func (a *checker) libraryLoop(fn ast.Node, r *retrylib.Retrier) *Loop {
	l := &Loop{
		Form:       FormLibrary,
		Node:       r.Call,
		Pos:        r.Call.Pos(),
		Func:       fn,
		Classified: r.Classified,
		Permanent:  r.Permanent,
		Attempts:   r.Attempts,
		Library:    r,
	}
	if r.Loop != nil {
		l.Node, l.Pos = r.Loop, r.Loop.Pos()
	}
	switch {
	case r.Attempts > 0, r.BoundUnknown:
		l.Bound = BoundAttempts
	case r.Deadline:
		l.Bound = BoundDeadline
	case r.Context:
		l.Bound = BoundContext
	}
	if op, ok := ast.Unparen(r.Op).(*ast.CallExpr); ok {
		l.Ops = []*ast.CallExpr{op}
	}
	if r.Waits {
		at := r.DelayAt
		if at == nil {
			at = r.Call
		}
		if r.Fresh && r.FreshAt != nil {
			at = r.FreshAt
		}
		d := Delay{Grows: r.Delay.Grows && !r.Fresh, Random: r.Delay.Random, Capped: r.Delay.Capped, Value: r.Delay.Value, Unknown: r.Delay.Unknown}
		if d.Constant() && d.Value == "" {
			d.Value = types.ExprString(at)
		}
		l.Waits = []*Wait{{
			Kind: WaitLibrary, Node: at, Delay: at, Source: d,
			ContextAware: r.Context, Fresh: r.Fresh,
		}}
	}
	l.Context = a.contextInScope(l.Pos)
	return l
}

// Subject names the loop in messages: "retry loop", or the library call
// that retries ("backoff.Retry").
func (l *Loop) Subject() string {
	if l.Library != nil && l.Library.Loop == nil {
		return l.LibraryCall()
	}
	if call, ok := l.Node.(*ast.CallExpr); ok && l.Form == FormRunner {
		return types.ExprString(call.Fun)
	}
	return "retry loop"
}

// LibraryCall returns how a library loop names itself in messages: the
// function called, e.g. "backoff.Retry".
func (l *Loop) LibraryCall() string {
	if l.Library == nil {
		return ""
	}
	if l.Library.Name != "" {
		return l.Library.Name
	}
	return types.ExprString(l.Library.Call.Fun)
}

// LibraryFix returns the fix the library of a FormLibrary loop gives for
// rule, in the library's own terms, or def.
func (l *Loop) LibraryFix(rule, def string) string {
	if l.Library != nil && l.Library.Fixes[rule] != "" {
		return l.Library.Fixes[rule]
	}
	return def
}
