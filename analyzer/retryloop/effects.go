package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
)

// effects applies what a simple statement does to each path: the waits it
// makes, the operations it performs and the error values it assigns.
// skipRecv skips a top-level receive already handled as a select case.
func (w *walker) effects(s ast.Stmt, in []*path, skipRecv bool) []*path {
	waits := w.waitsIn(s, skipRecv)
	if len(waits) > 0 {
		in = w.splitOnGates(in, waits)
		for _, p := range in {
			for _, wt := range waits {
				if wt.onError != nil && w.knownNil(p, wt.onError) {
					continue // b.BackOff(ctx, err) after a success waits not
				}
				p.waits = append(p.waits, wt)
			}
		}
	}
	w.closureEffects(s, in)
	switch s := s.(type) {
	case *ast.AssignStmt:
		w.noteStreak(s, in)
		w.noteFailMark(s, in)
		w.assign(s.Lhs, s.Rhs, in)
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok {
			for _, spec := range gd.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok && len(vs.Values) > 0 {
					lhs := make([]ast.Expr, len(vs.Names))
					for i, n := range vs.Names {
						lhs[i] = n
					}
					w.assign(lhs, vs.Values, in)
				}
			}
		}
	}
	return in
}

func (w *walker) assign(lhs, rhs []ast.Expr, in []*path) {
	w.forgetValues(lhs, in)
	if len(rhs) == 1 {
		if call, ok := ast.Unparen(rhs[0]).(*ast.CallExpr); ok {
			if idx := w.a.errorResult(call); idx >= 0 && idx < len(lhs) && !isBlank(lhs[idx]) && !isClose(w.a, call) {
				w.assignCall(lhs, idx, call, in)
				w.valueFacts(lhs, call, in, true)
				return
			}
			w.valueFacts(lhs, call, in, false)
		}
	}
	if len(lhs) != len(rhs) {
		return
	}
	w.listFacts(lhs, rhs, in)
	for i, l := range lhs {
		key := w.errKey(l)
		if key == nil {
			continue
		}
		r := ast.Unparen(rhs[i])
		for _, p := range in {
			switch {
			case isNilIdent(r):
				p.errs[key] = errFact{op: p.last, state: errNil}
			case w.errKey(r) != nil:
				if fact, ok := p.errs[w.errKey(r)]; ok {
					p.errs[key] = fact
				} else {
					delete(p.errs, key)
				}
			case isRecv(r):
				// err = <-errc: the outcome of the attempt a goroutine
				// made, nil or not; a failure when the goroutine says
				// success on another channel.
				fact := errFact{op: p.last}
				if at := w.attemptChan(r.(*ast.UnaryExpr).X); at != nil {
					p.last, fact.op = at.op, at.op
					if at.failureOnly {
						fact.state = errNonNil
						p.guard = guardError
					}
				}
				p.errs[key] = fact
			default:
				// fmt.Errorf(...), a wrapped error: a failure of the last
				// operation.
				p.errs[key] = errFact{op: p.last, state: errNonNil}
			}
		}
	}
}

// splitOnGates splits the paths on which a helper that waits only for a
// failure is handed an error whose outcome the path does not know yet:
// b.BackOff(ctx, err) tests err as `if err != nil { wait }` would.
func (w *walker) splitOnGates(in []*path, waits []*Wait) []*path {
	for _, wt := range waits {
		key := w.errKey(wt.onError)
		if wt.onError == nil || key == nil {
			continue
		}
		var out []*path
		for _, p := range in {
			f, ok := p.errs[key]
			if !ok || f.state != errUnknown || f.op == nil || f.wait {
				out = append(out, p)
				continue
			}
			ok2 := p.clone()
			ok2.errs[key] = errFact{op: f.op, state: errNil, kind: f.kind}
			p.errs[key] = errFact{op: f.op, state: errNonNil, kind: f.kind}
			p.guard, ok2.guard = guardError, guardError
			out = append(out, p, ok2)
		}
		in = out
	}
	return in
}

// knownNil reports whether the error e is known to be nil on the path.
func (w *walker) knownNil(p *path, e ast.Expr) bool {
	if isNilIdent(e) {
		return true
	}
	key := w.errKey(e)
	if key == nil {
		return false
	}
	f, ok := p.errs[key]
	return ok && f.state == errNil
}

// reused keys the failure an error variable held before the variable was
// given the context's error.
type reused struct{ key any }

func (w *walker) assignCall(lhs []ast.Expr, idx int, call *ast.CallExpr, in []*path) {
	key := w.errKey(lhs[idx])
	if mentionsContextErr(w, call) {
		// err := ctx.Err(): testing it tests the context, a bound. A
		// failure the variable held stays the path's failure:
		// `if err = ctx.Err(); err != nil { return err }` at the end of
		// a reconnect loop reuses the variable, it does not undo the
		// failed attempt.
		if key != nil {
			for _, p := range in {
				if prev, ok := p.errs[key]; ok && prev.op != nil && prev.state == errNonNil && !prev.wait {
					p.errs[reused{key}] = prev
				}
				p.errs[key] = errFact{wait: true}
			}
		}
		return
	}
	if w.a.isErrorConstructor(call) {
		if key != nil {
			for _, p := range in {
				p.errs[key] = errFact{op: p.last, state: errNonNil}
			}
		}
		return
	}
	if kind, _, _, ok := w.a.waitCall(call); ok && kind != "" {
		if key != nil {
			for _, p := range in {
				p.errs[key] = errFact{wait: true}
			}
		}
		return
	}
	if key == nil {
		return // the error is discarded: not an operation we can follow
	}
	answered := w.responsesRead(call)
	for _, p := range in {
		if p.last != nil && p.last != call && containsCall(answered, p.last) {
			// bs, err := io.ReadAll(resp.Body): reading the answer is
			// part of the attempt that got it; its failure is the
			// attempt's, and the status tests that follow test it.
			p.errs[key] = errFact{op: p.last}
			continue
		}
		// The call failed on this path and runs again: a retry, whose
		// waits are those taken since (the attempt before came from
		// before the loop or from the previous round).
		if prev, ok := p.errs[key]; ok && w.lc.seeded && prev.op == call && prev.state == errNonNil && !prev.wait {
			w.rounds = append(w.rounds, event{p.clone(), call})
		}
		if prev, ok := p.errs[key]; ok && prev.op != nil && prev.op != call && prev.state == errNil && !prev.wait {
			// conn, err := l.Accept(); enc, err := newEncoder(conn):
			// the variable moves on, the accept still succeeded.
			p.errs[passed{prev.op}] = prev
		}
		if prev, ok := p.errs[key]; ok && prev.op != nil && prev.op != call && prev.state == errNonNil && !prev.wait {
			// if _, err := j.Do(); err != nil { wait; _, addr, err =
			// d.Register() }: the variable moves on, the attempt still
			// failed, and the round goes on whatever the next call does.
			p.errs[failedBefore{prev.op}] = prev
		}
		p.last = call
		p.guard = guardNone
		p.maybeOK = false
		p.http, p.grpc = failure.AllHTTP(), failure.AllGRPC()
		p.errs[key] = errFact{op: call}
	}
}

// passed keys the success of an operation whose error variable the next
// operation reuses.
type passed struct{ op *ast.CallExpr }

// failedBefore keys the failure of an operation whose error variable the
// next operation reuses.
type failedBefore struct{ op *ast.CallExpr }

// waitsIn finds the waits a simple statement makes, without entering
// function literals.
func (w *walker) waitsIn(s ast.Stmt, skipRecv bool) []*Wait {
	var out []*Wait
	var top ast.Expr
	if skipRecv {
		if r := recvOf(s); r != nil {
			top = r
		}
	}
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && n.X != top {
				if wt := w.recvWait(n.X, s); wt != nil {
					out = append(out, wt)
					return false
				}
			}
		case *ast.CallExpr:
			if kind, delay, aware, ok := w.a.waitCall(n); ok {
				wt := &Wait{Kind: kind, Node: n, Stmt: s, Delay: delay, ContextAware: aware}
				if g := w.a.summarize(w.a.callee(n)).errGate; g > 0 && g <= len(n.Args) {
					wt.onError = n.Args[g-1]
				}
				out = append(out, wt)
				return false
			}
			if wt := w.rearm(n, s); wt != nil {
				out = append(out, wt)
				return false
			}
			if sleep := w.a.ignoredSleep(n); sleep != nil {
				out = append(out, &Wait{Kind: WaitHelper, Node: n, Stmt: s, Inner: sleep})
				return false
			}
		}
		return true
	})
	for _, wt := range out {
		wt.Source = w.delay(wt.Delay)
		w.repeatedWait(wt)
	}
	return out
}

// repeatedWait marks a wait taken in an inner loop whose rounds grow with
// the attempt: the time it adds up to grows, and no cap was read for it.
func (w *walker) repeatedWait(wt *Wait) {
	if w.repeated > 0 && !wt.Source.Grows {
		wt.Source.Grows = true
		wt.Source.Value = ""
	}
}

// rearm recognises t.Reset(d) on a timer whose channel the loop receives
// from at its top: the path's next wait is that receive, for d. The wait
// stands at the receive, and is told apart by the Reset that set it.
func (w *walker) rearm(call *ast.CallExpr, s ast.Stmt) *Wait {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Reset" || len(call.Args) != 1 || w.lc.node == nil {
		return nil
	}
	timer := w.objOf(sel.X)
	if timer == nil || !isNamed(timer.Type(), "time", "Timer") {
		return nil
	}
	recv := w.receiveBefore(timer, call.Pos())
	if recv == nil {
		return nil
	}
	return &Wait{Kind: WaitTimer, Node: recv, Stmt: s, Delay: call.Args[0], rearms: timer, rearmedBy: call}
}

// receiveBefore returns the receive from timer's channel (t.C), outside a
// select with a default, that the loop makes before pos; nil if none.
func (w *walker) receiveBefore(timer types.Object, pos token.Pos) ast.Expr {
	var found ast.Expr
	ast.Inspect(w.lc.node, func(n ast.Node) bool {
		if found != nil || n == nil || n.Pos() >= pos {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			for _, c := range n.Body.List {
				if c.(*ast.CommClause).Comm == nil {
					return false // a drain: select { case <-t.C: default: }
				}
			}
		case *ast.UnaryExpr:
			if sel, ok := ast.Unparen(n.X).(*ast.SelectorExpr); ok && n.Op == token.ARROW && sel.Sel.Name == "C" && w.objOf(sel.X) == timer {
				found = n.X
			}
		}
		return true
	})
	return found
}

// recvWait recognises a receive that waits: <-time.After(d), <-t.C of a
// timer or ticker, <-clock.After(d), or a channel made by time.After.
func (w *walker) recvWait(x ast.Expr, s ast.Stmt) *Wait {
	mk := func(kind WaitKind, delay ast.Expr) *Wait {
		wt := &Wait{Kind: kind, Node: x, Stmt: s, Delay: delay}
		wt.Source = w.delay(delay)
		w.repeatedWait(wt)
		return wt
	}
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		fn := w.a.callee(x)
		switch {
		case isPkgFunc(fn, "time", "After") && len(x.Args) == 1:
			return mk(WaitAfter, x.Args[0])
		case isPkgFunc(fn, "time", "Tick") && len(x.Args) == 1:
			return mk(WaitTicker, x.Args[0])
		case fn != nil && fn.Name() == "After" && funcPath(fn) != "time" && len(x.Args) >= 1 && isDuration(w.a.typeOf(x.Args[len(x.Args)-1])):
			return mk(WaitClock, x.Args[len(x.Args)-1])
		}
	case *ast.SelectorExpr:
		if x.Sel.Name != "C" {
			return nil
		}
		obj := w.objOf(x.X)
		if obj == nil {
			return nil
		}
		switch {
		case isNamed(obj.Type(), "time", "Timer"):
			return mk(WaitTimer, w.fc.timerDelay(obj, w.lc, w.a))
		case isNamed(obj.Type(), "time", "Ticker"):
			return mk(WaitTicker, w.fc.timerDelay(obj, w.lc, w.a))
		}
	case *ast.Ident:
		obj := w.info().ObjectOf(x)
		if obj == nil || !isTimeChan(obj.Type()) {
			return nil
		}
		for _, as := range w.fc.assigns[obj] {
			if call, ok := ast.Unparen(as.rhs).(*ast.CallExpr); ok && len(call.Args) == 1 {
				fn := w.a.callee(call)
				if isPkgFunc(fn, "time", "After") {
					return mk(WaitAfter, call.Args[0])
				}
				if isPkgFunc(fn, "time", "Tick") {
					return mk(WaitTicker, call.Args[0])
				}
			}
		}
	}
	return nil
}

// objOf returns the variable or field an expression names, or nil.
func (w *walker) objOf(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return w.info().ObjectOf(e)
	case *ast.SelectorExpr:
		if v, ok := w.info().ObjectOf(e.Sel).(*types.Var); ok {
			return v
		}
	}
	return nil
}

// closureEffects applies the error assignments of function literals passed
// to a call in the statement, which runs them before it returns:
// trace(func() { err = z.Init(ctx) }) performs z.Init for the loop.
func (w *walker) closureEffects(s ast.Stmt, in []*path) {
	ast.Inspect(s, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		for _, arg := range call.Args {
			lit, ok := ast.Unparen(arg).(*ast.FuncLit)
			if !ok {
				continue
			}
			ast.Inspect(lit.Body, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.FuncLit:
					return false
				case *ast.AssignStmt:
					if m.Tok == token.ASSIGN && w.setsOuterError(m.Lhs, lit) {
						w.assign(m.Lhs, m.Rhs, in)
					}
				}
				return true
			})
		}
		return true
	})
}

// setsOuterError reports whether an assignment in a function literal sets
// an error variable declared outside it.
func (w *walker) setsOuterError(lhs []ast.Expr, lit *ast.FuncLit) bool {
	for _, l := range lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok {
			if obj := w.info().ObjectOf(id); obj != nil && isError(obj.Type()) && (obj.Pos() < lit.Pos() || obj.Pos() >= lit.End()) {
				return true
			}
		}
	}
	return false
}

func isRecv(e ast.Expr) bool {
	u, ok := e.(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW
}

// isBlank reports whether e is the blank identifier: a call whose error is
// thrown away (buf, _ := io.ReadAll(resp.Body)) is no attempt the loop
// judges, and leaves what the loop knows of the last one alone.
func isBlank(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "_"
}

// responsesRead returns the calls whose HTTP response call reads the body
// of: resp, err := c.Do(req) for io.ReadAll(resp.Body) or
// json.NewDecoder(resp.Body).Decode(&v).
func (w *walker) responsesRead(call *ast.CallExpr) []*ast.CallExpr {
	var out []*ast.CallExpr
	ast.Inspect(call, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Body" || !isNamed(w.a.typeOf(sel.X), "net/http", "Response") {
			return true
		}
		if obj := w.objOf(sel.X); obj != nil {
			for _, as := range w.fc.assigns[obj] {
				if c, ok := ast.Unparen(as.rhs).(*ast.CallExpr); ok {
					out = append(out, c)
				}
			}
		}
		return true
	})
	return out
}

// isClose reports a Close method call: releasing what a failed attempt
// left (resp.Body.Close()) is no attempt of its own, whatever its error.
func isClose(a *checker, call *ast.CallExpr) bool {
	fn := a.callee(call)
	return fn != nil && fn.Name() == "Close" && fn.Signature().Recv() != nil && len(call.Args) == 0
}
