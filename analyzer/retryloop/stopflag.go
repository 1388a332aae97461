package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/retrylint/retrylint/internal/lazyre"
)

// stopName is a name that says its owner is being shut down.
var stopName = lazyre.New(`^(?i:is)?(?i:shut_?(ting_?)?down|closed|closing|stopped|stopping|quit|quitting|exiting|terminated|terminating|shutdown_?requested)$`)

// stopFlag splits on a shutdown flag of the method's receiver, tested
// where the loop leaves: r.shuttingDown, r.closed.Load(), r.isClosed().
// Like a stop channel, it ends a loop that keeps failing when its owner
// shuts down: a context exit.
func (w *walker) stopFlag(e ast.Expr, in []*path) (t, f []*path, ok bool) {
	if !isBool(w.a.typeOf(e)) {
		return nil, nil, false
	}
	var owner ast.Expr
	var name string
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr: // r.shuttingDown
		owner, name = x.X, x.Sel.Name
	case *ast.CallExpr:
		sel, isSel := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		if !isSel || len(x.Args) != 0 {
			return nil, nil, false
		}
		if inner, isField := ast.Unparen(sel.X).(*ast.SelectorExpr); isField && sel.Sel.Name == "Load" && isAtomicBool(w.a.typeOf(sel.X)) {
			owner, name = inner.X, inner.Sel.Name // r.closed.Load()
		} else {
			owner, name = sel.X, sel.Sel.Name // r.isClosed()
		}
	default:
		return nil, nil, false
	}
	if !stopName.MatchString(name) || !w.a.isReceiver(owner, e.Pos()) {
		return nil, nil, false
	}
	t, f = split(in, bounded(BoundContext), bounded(BoundContext))
	return t, f, true
}

// stopState reports whether field is a field of the method's receiver
// and state a constant whose name says shut down (p.inprogress == stop,
// c.state == stateClosed): the loop that leaves on it stops with its
// owner.
func (w *walker) stopState(field, state ast.Expr) bool {
	if call, ok := ast.Unparen(field).(*ast.CallExpr); ok && len(call.Args) == 0 {
		field = call.Fun // t.getState() == txnHandlerClosed
	}
	sel, ok := ast.Unparen(field).(*ast.SelectorExpr)
	if !ok || !w.a.isReceiver(sel.X, field.Pos()) {
		return false
	}
	var id *ast.Ident
	switch c := ast.Unparen(state).(type) {
	case *ast.Ident:
		id = c
	case *ast.SelectorExpr:
		id = c.Sel
	default:
		return false
	}
	if _, isConst := w.info().Uses[id].(*types.Const); !isConst {
		return false
	}
	name := strings.TrimPrefix(strings.TrimPrefix(id.Name, "state"), "State")
	return stopName.MatchString(name) || strings.EqualFold(name, "stop") || stoppedState.MatchString(name)
}

// stopCounter reports whether x is an atomic integer of the method's
// receiver whose name says shut down, compared with the constant k:
// t.shutdown.Load() == 1, atomic.LoadInt32(&t.shutdown) == 1, or a local
// given that value once (s := t.shutdown.Load(); s == 1).
func (w *walker) stopCounter(x, k ast.Expr) bool {
	if tv := w.info().Types[k]; tv.Value == nil {
		return false
	}
	if id, ok := ast.Unparen(x).(*ast.Ident); ok {
		if v, ok := w.info().Uses[id].(*types.Var); ok && !v.IsField() {
			if val := w.a.onlyValue(v); val != nil {
				x = val
			}
		}
	}
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return false
	}
	var field ast.Expr
	switch fn := w.a.callee(call); {
	case fn == nil:
		return false
	case fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && strings.HasPrefix(fn.Name(), "Load") && len(call.Args) == 1:
		if u, isAddr := ast.Unparen(call.Args[0]).(*ast.UnaryExpr); isAddr && u.Op == token.AND {
			field = u.X // atomic.LoadInt32(&t.shutdown)
		}
	case fn.Name() == "Load" && len(call.Args) == 0 && fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic":
		if sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr); isSel {
			field = sel.X // t.shutdown.Load()
		}
	}
	sel, ok := ast.Unparen(field).(*ast.SelectorExpr)
	return ok && stopName.MatchString(sel.Sel.Name) && w.a.isReceiver(sel.X, x.Pos())
}

// stoppedState is a state constant named for its owner and what it
// became: producerClosed, txnHandlerClosing.
var stoppedState = lazyre.New(`^[a-z]\w*(Closed|Closing|Stopped|Stopping|ShutDown|Shutdown|Terminated)$`)

// isAtomicBool reports whether t is sync/atomic's Bool.
func isAtomicBool(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync/atomic" && n.Obj().Name() == "Bool"
}

// isReceiver reports whether e is the receiver of the method enclosing pos.
func (a *checker) isReceiver(e ast.Expr, pos token.Pos) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	recv := a.receiver(pos)
	return ok && recv != nil && a.info().ObjectOf(id) == recv
}
