package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// reconnect finds the operations of a loop whose success path goes round
// too (a watch, a stream, a subscription, a supervisor) but whose failure
// path takes a wait that some success path does not: the loop reconnects
// after a failure, and every instance that failed together reconnects on
// the same clock. It returns those operations and their failing rounds,
// or nothing when the loop is periodic (both paths wait) or moves on to
// the next item each round.
func (a *checker) reconnect(w *walker) ([]*ast.CallExpr, []*path) {
	var ops []*ast.CallExpr
	var failing []*path
	for _, r := range w.rounds {
		op := r.p.failedOp()
		if op == nil || a.localCheck(op) || !waitsAfter(r.p, op) && !w.pacedByFailure(r.p) {
			continue
		}
		own := w.failureOnlyWaits(op, r.p)
		if len(own) == 0 {
			continue
		}
		if a.takesCounter(w.lc, op) || a.takesFreshItem(w.fc, w.lc, op) && !a.requeuedItem(w.fc, w.lc, r.p, op) {
			continue
		}
		if a.failureSkipsOnly(w.fc, op) {
			continue // the failure goes on as a success does
		}
		// The waits every success takes too (a ticker at the bottom of a
		// polling loop) pace the loop; only the failure's own waits
		// answer the failure.
		p := r.p.clone()
		p.waits = own
		failing = append(failing, p)
		ops = addOp(ops, op)
	}
	return ops, failing
}

// dropPaced removes, from a loop that leaves on success, the failing
// rounds of an operation whose failure takes no wait of its own, only the
// one at the top of the loop that its success goes round to as well: a
// check on a ticker that goes on to the next tick whether it failed or
// found nothing new (it leaves only once something changed) is periodic
// for that operation, not a retry of it.
func (a *checker) dropPaced(w *walker, failing []*path) ([]*path, []*ast.CallExpr) {
	var kept []*path
	var ops []*ast.CallExpr
	for _, p := range failing {
		op := p.failedOp()
		if len(p.waits) > 0 && !waitsAfter(p, op) && !w.pacedByFailure(p) && a.successGoesRound(w, op) {
			continue
		}
		if a.failureSkipsOnly(w.fc, op) && a.successGoesRound(w, op) {
			// if v, err := probe(); err == nil { use(v) }: the failure
			// only skips the use and goes on as a success does.
			continue
		}
		kept = append(kept, p)
		ops = addOp(ops, op)
	}
	return kept, ops
}

// successGoesRound reports whether some round of the loop goes round after
// op succeeded.
func (a *checker) successGoesRound(w *walker, op *ast.CallExpr) bool {
	for _, r := range w.rounds {
		if r.p.opSucceeded(op) && r.p.failedOp() == nil && !r.p.cancelled {
			return true
		}
	}
	return false
}

// pacedByFailure reports whether a wait the path takes is timed by what
// the failure set: a wait at the top of the loop re-armed with the delay
// the failing path chose answers that failure in the next round.
func (w *walker) pacedByFailure(p *path) bool {
	for _, wt := range p.waits {
		if w.pauseFromFailure(wt) {
			return true
		}
	}
	return false
}

// failureOnlyWaits returns the waits after op on the failing path fp that
// some path on which op succeeded goes round without: the failure path
// waits, the success path goes round without that wait.
func (w *walker) failureOnlyWaits(op *ast.CallExpr, fp *path) []*Wait {
	var own []*Wait
	for _, wt := range fp.waits {
		if w.pauseFromFailure(wt) {
			// Every round waits here, but the failure picks how long
			// (the next round's wait at the top, when it stands before
			// the attempt).
			own = append(own, wt)
			continue
		}
		if !waitAfter(wt, op) {
			continue
		}
		for _, r := range w.rounds {
			// A round whose wait the context cut short skipped no wait.
			if r.p.opSucceeded(op) && !r.p.cancelled && !hasWait(r.p, wt) {
				own = append(own, wt)
				break
			}
		}
	}
	return own
}

// hasWait reports whether the path takes the wait wt: the same wait, or
// the same timer re-armed elsewhere for the same delay (t.Reset(interval)
// after a success and after a failure).
func hasWait(p *path, wt *Wait) bool {
	for _, x := range p.waits {
		if x.Node != wt.Node {
			continue
		}
		if x.rearmedBy == wt.rearmedBy || x.rearmedBy != nil && wt.rearmedBy != nil && x.Delay != nil && wt.Delay != nil &&
			types.ExprString(x.Delay) == types.ExprString(wt.Delay) {
			return true
		}
	}
	return false
}

// waitAfter reports whether wt comes after op in the body, or is the wait
// of a retry step op itself.
func waitAfter(wt *Wait, op *ast.CallExpr) bool {
	if wt.rearmedBy != nil {
		return wt.rearmedBy.Pos() > op.Pos()
	}
	return wt.Node.Pos() > op.Pos() || wt.Node == ast.Node(op)
}

// waitsAfter reports whether the path waits after op in the body: a wait
// at the top of the loop, before the attempt, paces every round (a ticker,
// a select on a timer and a wake-up channel); it answers no failure.
func waitsAfter(p *path, op *ast.CallExpr) bool {
	for _, wt := range p.waits {
		if waitAfter(wt, op) {
			return true
		}
	}
	return false
}

// opSucceeded reports whether op is known to have succeeded on the path.
func (p *path) opSucceeded(op *ast.CallExpr) bool {
	for _, f := range p.errs {
		if f.op == op && !f.wait && f.state == errNil {
			return true
		}
	}
	return p.last == op && p.http.Narrowed && p.http.HasSuccess() && !p.http.Has(500)
}

// servesInbound reports whether every operation accepts an inbound
// connection.
func (a *checker) servesInbound(ops []*ast.CallExpr) bool {
	for _, op := range ops {
		if !a.acceptsInbound(op) {
			return false
		}
	}
	return len(ops) > 0
}

// acceptsInbound reports whether op accepts an inbound connection
// (net.Listener's Accept and the like). An accept loop that waits after a
// failed accept and goes round is a reconnect loop like any other: its
// wait decides how every instance behaves when accepting keeps failing
// (too many open files, a closed listener).
func (a *checker) acceptsInbound(op *ast.CallExpr) bool {
	fn := a.callee(op)
	if fn == nil || len(fn.Name()) < 6 || fn.Name()[:6] != "Accept" {
		return false
	}
	if rt := a.recvType(op); rt != nil && implementsNamed(rt, "net", "Listener") {
		return true
	}
	if t, ok := a.typeOf(op).(*types.Tuple); ok && t.Len() > 0 {
		return implementsNamed(t.At(0).Type(), "net", "Conn")
	}
	return false
}

// implementsNamed reports whether t implements the interface path.name
// of a package the current one imports, directly or not.
func implementsNamed(t types.Type, path, name string) bool {
	if isNamed(t, path, name) {
		return true
	}
	iface := lookupIface(t, path, name)
	return iface != nil && (types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface))
}

// lookupIface finds the interface path.name among the packages the
// method set of t mentions.
func lookupIface(t types.Type, path, name string) *types.Interface {
	ms := types.NewMethodSet(t)
	for i := 0; i < ms.Len(); i++ {
		sig, ok := ms.At(i).Type().(*types.Signature)
		if !ok {
			continue
		}
		for _, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
			for j := 0; j < tup.Len(); j++ {
				n, ok := types.Unalias(tup.At(j).Type()).(*types.Named)
				if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != path {
					continue
				}
				if obj, ok := n.Obj().Pkg().Scope().Lookup(name).(*types.TypeName); ok {
					if iface, ok := obj.Type().Underlying().(*types.Interface); ok {
						return iface
					}
				}
			}
		}
	}
	return nil
}

// takesCounter reports whether op is given a variable the loop advances
// every round (a segment number, a bucket index): a loop whose success
// path goes round too then moves on to the next item, it does not retry.
func (a *checker) takesCounter(lc *loopCtx, op *ast.CallExpr) bool {
	return a.argsRead(op, func(obj types.Object) bool { return lc.counters[obj] })
}

// argsRead reports whether an argument of op reads a variable that is.
func (a *checker) argsRead(op *ast.CallExpr, is func(types.Object) bool) bool {
	found := false
	for _, arg := range op.Args {
		ast.Inspect(arg, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && is(a.info().ObjectOf(id)) {
				found = true
			}
			return !found
		})
	}
	return found
}

// entryPath is the state on entering a loop body. When an error variable
// set before the loop is set again inside it by a call, the first attempt
// happened before the loop (err := op(); for err != nil { ...; err = op() }):
// the entry carries the outcome of that call as if the body's own call had
// made it, so that a test at the top of the body tests an attempt.
func (a *checker) entryPath(fc *funcCtx, lc *loopCtx, body *ast.BlockStmt) *path {
	p := newPath()
	var seed *ast.CallExpr
	for _, wr := range fc.writesIn(body.Pos(), body.End()) {
		obj, as := wr.obj, wr.as
		if as.tok != token.ASSIGN || !isError(obj.Type()) {
			continue
		}
		if _, seen := p.errs[obj]; seen {
			continue // the first call in the body stands for the attempt
		}
		if first := fc.assigns[obj]; len(first) == 0 || first[0].pos >= lc.start {
			continue // not set before the loop
		}
		call, ok := ast.Unparen(as.rhs).(*ast.CallExpr)
		if !ok || a.errorResult(call) < 0 || a.isErrorConstructor(call) {
			continue
		}
		p.errs[obj] = errFact{op: call}
		if seed == nil || call.Pos() < seed.Pos() {
			seed = call
		}
	}
	if seed != nil {
		p.last = seed
		lc.seeded = true
	}
	return p
}

// rangesItems reports whether the range statement at pos, inside the
// loop, ranges over a collection rather than a count.
func (a *checker) rangesItems(lc *loopCtx, pos token.Pos) bool {
	if lc.node == nil {
		return false // goto and recursion: no range statement of their own
	}
	found := false
	ast.Inspect(lc.node, func(n ast.Node) bool {
		if r, ok := n.(*ast.RangeStmt); ok && r.Pos() == pos {
			t := a.typeOf(r.X)
			found = t != nil && !isInteger(t)
		}
		return !found
	})
	return found
}

// builds reports whether a call only builds a value: a builtin (make,
// new, append), a conversion, or a constructor (newHandler, NewBuffer)
// that does no I/O. What it returns is no item fetched from elsewhere.
func (a *checker) builds(call *ast.CallExpr) bool {
	if tv, ok := a.info().Types[call.Fun]; ok && (tv.IsBuiltin() || tv.IsType()) {
		return true
	}
	fn := a.callee(call)
	if fn == nil {
		return false
	}
	name := fn.Name()
	return (strings.HasPrefix(name, "new") || strings.HasPrefix(name, "New")) && !a.doesIO(call)
}

// takesAccepted reports whether op is given a connection the loop
// accepted this round, or something read from it (c, err := l.Accept();
// addr := c.RemoteAddr(); lookup(addr)): its failure drops that connection
// and the next round serves the next one.
func (a *checker) takesAccepted(fc *funcCtx, lc *loopCtx, op *ast.CallExpr) bool {
	seen := map[types.Object]bool{}
	var accepted func(obj types.Object, depth int) bool
	accepted = func(obj types.Object, depth int) bool {
		v, ok := obj.(*types.Var)
		if !ok || seen[v] || depth > 3 {
			return false
		}
		seen[v] = true
		for _, as := range fc.assigns[v] {
			if as.rhs == nil || !lc.contains(as.pos) {
				continue
			}
			if call, ok := ast.Unparen(as.rhs).(*ast.CallExpr); ok && call != op && a.acceptsInbound(call) {
				return true
			}
			found := false
			ast.Inspect(as.rhs, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && !found {
					found = accepted(a.info().ObjectOf(id), depth+1)
				}
				return !found
			})
			if found {
				return true
			}
		}
		return false
	}
	return a.argsRead(op, func(obj types.Object) bool { return accepted(obj, 0) })
}

// takesFreshItem reports whether op is given something the loop fetched
// this round — m, err := q.Receive(ctx); process(ctx, m) — so that each
// round works on the next item, it does not reconnect.
func (a *checker) takesFreshItem(fc *funcCtx, lc *loopCtx, op *ast.CallExpr) bool {
	found := false
	for _, arg := range op.Args {
		ast.Inspect(arg, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || found {
				return !found
			}
			v, ok := a.info().ObjectOf(id).(*types.Var)
			if !ok || isContext(v.Type()) || isDuration(v.Type()) {
				return true
			}
			for _, as := range fc.assigns[v] {
				if lc.contains(as.pos) && as.tok == token.RANGE && a.rangesItems(lc, as.pos) {
					found = true // for _, c := range chunks: the next item
					continue
				}
				if !lc.contains(as.pos) || as.rhs == nil || ast.Unparen(as.rhs) == op {
					continue
				}
				switch r := ast.Unparen(as.rhs).(type) {
				case *ast.CallExpr:
					found = !a.builds(r)
				case *ast.IndexExpr:
					found = true
				case *ast.UnaryExpr:
					found = r.Op == token.ARROW
				}
			}
			return !found
		})
	}
	return found
}

// sends records on each path what a send statement hands a channel.
func (w *walker) sends(s *ast.SendStmt, in []*path) {
	for _, p := range in {
		p.sent = append(p.sent, s)
	}
}

// requeuedItem reports whether op works on an item the loop received from
// a channel that the failing path p hands the item back to (case id :=
// <-q: ... if err != nil { q <- id }): the loop's next round, or a later
// one, runs the operation on the same item again, so the item is no fresh
// one.
func (a *checker) requeuedItem(fc *funcCtx, lc *loopCtx, p *path, op *ast.CallExpr) bool {
	if len(p.sent) == 0 {
		return false
	}
	return a.argsRead(op, func(obj types.Object) bool {
		for _, as := range fc.assigns[obj] {
			if !lc.contains(as.pos) || as.rhs == nil {
				continue
			}
			u, ok := ast.Unparen(as.rhs).(*ast.UnaryExpr)
			if !ok || u.Op != token.ARROW {
				continue
			}
			ch := chanRef(a.info(), u.X)
			for _, s := range p.sent {
				if ch != nil && chanRef(a.info(), s.Chan) == ch && a.mentions(s.Value, obj) {
					return true
				}
			}
		}
		return false
	})
}

// failureSkipsOnly reports whether the only answer to op's failure is to
// skip what its success does: the error it returns is tested by an
// if err == nil { ... } without else right where op is called, whose body
// neither returns nor jumps, so both go on the same way.
func (a *checker) failureSkipsOnly(fc *funcCtx, op *ast.CallExpr) bool {
	found := false
	ast.Inspect(fc.body, func(n ast.Node) bool {
		if found {
			return false
		}
		block, ok := n.(*ast.BlockStmt)
		if !ok {
			return true
		}
		for i, st := range block.List {
			ifs, ok := st.(*ast.IfStmt)
			if !ok || ifs.Else != nil {
				continue
			}
			as, _ := ifs.Init.(*ast.AssignStmt)
			if as == nil && i > 0 {
				as, _ = block.List[i-1].(*ast.AssignStmt)
			}
			if as == nil || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != op || len(as.Lhs) == 0 {
				continue
			}
			errID, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident)
			if !ok || !isError(a.typeOf(errID)) {
				continue
			}
			b, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
			if !ok || b.Op != token.EQL {
				continue
			}
			x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
			if isNilIdent(x) {
				x, y = y, x
			}
			if id, ok := x.(*ast.Ident); ok && isNilIdent(y) && a.info().ObjectOf(id) == a.info().ObjectOf(errID) && !jumps(ifs.Body) {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// jumps reports whether a block returns or branches out of its place in
// the loop (return, continue, break, goto), outside function literals.
func jumps(b *ast.BlockStmt) bool {
	return anyNode(b, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ReturnStmt, *ast.BranchStmt:
			return true
		}
		return false
	})
}
