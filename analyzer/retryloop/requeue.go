package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/lazyre"
)

// FormRequeue is a retry outside a loop: on failure, the item is handed
// back to the queue it came from after a wait, so the queue's consumer
// runs the operation on it again:
//
//	go func() { time.Sleep(d); q.Add(item) }()
//	time.AfterFunc(d, func() { ch <- item })
//	q.AddAfter(item, d)
const FormRequeue Form = "requeue"

// WaitRequeue is the delay of a delayed re-queue: AddAfter's or
// AfterFunc's duration.
const WaitRequeue WaitKind = "requeue"

// modeRequeue walks a whole function body looking for re-queues.
const modeRequeue = modeRecursion + 1

// modeAttempt walks the function value given to a retry runner: each of
// its returns asks for another try or ends the attempts.
const modeAttempt = modeRequeue + 1

// enqueueName matches the methods that hand an item to a queue.
var enqueueName = lazyre.New(`^(?i:add|push|enqueue|requeue|put|resubmit|retry|schedule|submit)`)

// afterName matches the methods that hand an item to a queue after a
// delay: AddAfter, EnqueueAfter.
var afterName = lazyre.New(`^(?i:add|push|enqueue|requeue|put|resubmit|retry|schedule|submit)\w*After$`)

type requeueEvent struct {
	p    *path
	node ast.Node // the go statement or the call
	wait *Wait
	op   *ast.CallExpr
	// retrigger: the event wakes the function's own loop; that loop's
	// exits bound it.
	retrigger bool
}

// requeues finds the re-queues of failed items in a function.
func (a *checker) requeues(fc *funcCtx) []*Loop {
	if !a.mayRequeue(fc.body) {
		return nil
	}
	lc := &loopCtx{mode: modeRequeue, start: fc.body.Pos(), end: fc.body.End()}
	fc.countersIn(lc)
	w := &walker{a: a, fc: fc, lc: lc}
	w.stmts(fc.body.List, []*path{newPath()}, scope{})
	var loops []*Loop
	byNode := map[ast.Node]*Loop{}
	failing := map[*Loop][]*path{}
	for _, ev := range w.requeues {
		l := byNode[ev.node]
		if l == nil {
			l = &Loop{Form: FormRequeue, Node: ev.node, Pos: ev.node.Pos(), Func: fc.fn, Waits: []*Wait{ev.wait}}
			l.Context = a.contextInScope(ev.node.Pos())
			byNode[ev.node] = l
			loops = append(loops, l)
		}
		l.Ops = addOp(l.Ops, ev.op)
		if ev.p.limited != BoundNone && l.Bound == BoundNone {
			l.Bound = ev.p.limited
		}
		if ev.retrigger && l.Bound == BoundNone && a.receivesDone(fc.body) {
			l.Bound = BoundContext
		}
		if ev.p.classified || ev.p.contextErr || !ev.p.errorFailure() {
			l.Classified = true
		}
		failing[l] = append(failing[l], ev.p)
	}
	for _, l := range loops {
		l.Permanent = a.permanent(failing[l])
	}
	return loops
}

// mayRequeue is a quick look for a go statement, an AfterFunc or an
// ...After method in the body, before walking it.
func (a *checker) mayRequeue(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.GoStmt:
			_, found = n.Call.Fun.(*ast.FuncLit)
		case *ast.CallExpr:
			if fn := a.callee(n); fn != nil && (isPkgFunc(fn, "time", "AfterFunc") || afterName.MatchString(fn.Name())) {
				found = true
			}
		}
		return !found
	})
	return found
}

// requeue records the failing paths on which a statement hands the failed
// item back to a queue after a wait.
func (w *walker) requeue(s ast.Stmt, call *ast.CallExpr, in []*path) {
	if w.lc.mode != modeRequeue {
		return
	}
	var items []ast.Expr
	var wait *Wait
	// retrigger: the statement wakes the function's own loop, sending on
	// a channel it receives from, so the failed work runs again whatever
	// the value sent.
	retrigger := false
	fn := w.a.callee(call)
	switch {
	case isGo(s):
		lit, ok := call.Fun.(*ast.FuncLit)
		if !ok {
			return
		}
		for _, st := range lit.Body.List {
			if ws := w.waitsIn(st, false); len(ws) > 0 && wait == nil {
				wait = ws[0]
			}
			if wait != nil {
				items = append(items, w.enqueued(st)...)
				retrigger = retrigger || w.retriggers(st)
			}
		}
	case isPkgFunc(fn, "time", "AfterFunc") && len(call.Args) == 2:
		lit, ok := call.Args[1].(*ast.FuncLit)
		if !ok {
			return
		}
		for _, st := range lit.Body.List {
			items = append(items, w.enqueued(st)...)
			retrigger = retrigger || w.retriggers(st)
		}
		wait = &Wait{Kind: WaitRequeue, Node: call, Stmt: s, Delay: call.Args[0]}
		wait.Source = w.delay(wait.Delay)
	case fn != nil && afterName.MatchString(fn.Name()) && recvNamed(fn) != nil || fn != nil && afterName.MatchString(fn.Name()) && isInterfaceMethod(fn):
		for _, arg := range call.Args {
			if isDuration(w.a.typeOf(arg)) {
				wait = &Wait{Kind: WaitRequeue, Node: call, Stmt: s, Delay: arg}
				wait.Source = w.delay(arg)
			} else {
				items = append(items, arg)
			}
		}
	default:
		return
	}
	if wait == nil || len(items) == 0 {
		return
	}
	for _, p := range in {
		op := p.failedOp()
		if op == nil || !retrigger && !w.sameItem(op, items) {
			continue
		}
		w.requeues = append(w.requeues, requeueEvent{p: p.clone(), node: s, wait: wait, op: op, retrigger: retrigger && !w.sameItem(op, items)})
	}
}

func isGo(s ast.Stmt) bool {
	_, ok := s.(*ast.GoStmt)
	return ok
}

// enqueued returns what a statement hands to a queue: the value sent on a
// channel, or the arguments of an Add/Push/Enqueue method.
func (w *walker) enqueued(s ast.Stmt) []ast.Expr {
	switch s := s.(type) {
	case *ast.SendStmt:
		return []ast.Expr{s.Value}
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok {
			return nil
		}
		if fn := w.a.callee(call); fn != nil && enqueueName.MatchString(fn.Name()) && (recvNamed(fn) != nil || isInterfaceMethod(fn)) {
			return call.Args
		}
	}
	return nil
}

// retriggers reports whether a statement sends on a channel that the
// function being walked receives from, outside the statement: a watchdog
// that, after a failure, wakes its own loop again later.
func (w *walker) retriggers(s ast.Stmt) bool {
	send, ok := s.(*ast.SendStmt)
	if !ok {
		return false
	}
	ch := chanRef(w.info(), send.Chan)
	if ch == nil {
		return false
	}
	found := false
	ast.Inspect(w.fc.body, func(n ast.Node) bool {
		if found || n == s {
			return false
		}
		switch n := n.(type) {
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW && chanRef(w.info(), n.X) == ch
		case *ast.RangeStmt:
			found = chanRef(w.info(), n.X) == ch
		}
		return !found
	})
	return found
}

// receivesDone reports whether a body receives from ctx.Done() outside
// function literals: the loop it holds ends with the context.
func (a *checker) receivesDone(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW && a.ctxDone(u.X) {
			found = true
		}
		return !found
	})
	return found
}

// chanRef is what names a channel: its variable, or the field it is held
// in (c.kick).
func chanRef(info *types.Info, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.ObjectOf(e)
	case *ast.SelectorExpr:
		return info.ObjectOf(e.Sel)
	}
	return nil
}

// sameItem reports whether what is re-queued is what the operation was
// given: a variable among its arguments other than a context.
func (w *walker) sameItem(op *ast.CallExpr, items []ast.Expr) bool {
	given := map[types.Object]bool{}
	for _, arg := range op.Args {
		ast.Inspect(arg, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := w.info().ObjectOf(id).(*types.Var); ok && !isContext(v.Type()) && !v.IsField() {
					given[v] = true
				}
			}
			return true
		})
	}
	found := false
	for _, it := range items {
		ast.Inspect(it, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && given[w.info().ObjectOf(id)] {
				found = true
			}
			return !found
		})
	}
	return found
}
