package retryloop

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
)

// assignment is one write to a variable or field.
type assignment struct {
	tok token.Token // token.DEFINE, token.ASSIGN, token.MUL_ASSIGN, ..., token.INC, token.RANGE
	rhs ast.Expr    // nil for ++, --, range keys and tuple results it cannot split
	pos token.Pos
}

// funcCtx is what the analysis knows about one function body.
type funcCtx struct {
	fn      ast.Node
	body    *ast.BlockStmt
	obj     *types.Func // nil for function literals
	sig     *types.Signature
	assigns map[types.Object][]assignment
	resets  map[types.Object][]*ast.CallExpr // t.Reset(d)
	labels  map[ast.Stmt]string
	gotos   map[string][]*ast.BranchStmt
	ifs     []*ast.IfStmt
	ordered []write // the assignments in source order, built on first use
	// retryLits are the closures of the body that call the function
	// itself (retry := func(err error) error { wait; return f(...) }):
	// calling one is a recursive call, with its body in between.
	retryLits map[types.Object]*ast.FuncLit
}

func (a *checker) newFuncCtx(fn ast.Node, body *ast.BlockStmt) *funcCtx {
	fc := &funcCtx{
		fn:      fn,
		body:    body,
		assigns: make(map[types.Object][]assignment),
		resets:  make(map[types.Object][]*ast.CallExpr),
		labels:  make(map[ast.Stmt]string),
		gotos:   make(map[string][]*ast.BranchStmt),
	}
	info := a.info()
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		fc.obj, _ = info.Defs[fn.Name].(*types.Func)
		if fc.obj != nil {
			fc.sig, _ = fc.obj.Type().(*types.Signature)
		}
	case *ast.FuncLit:
		fc.sig, _ = info.TypeOf(fn).(*types.Signature)
	}
	objOf := func(e ast.Expr) types.Object {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			return info.ObjectOf(e)
		case *ast.SelectorExpr:
			if v, ok := info.ObjectOf(e.Sel).(*types.Var); ok {
				return v
			}
		case *ast.StarExpr:
			return nil
		}
		return nil
	}
	add := func(e ast.Expr, as assignment) {
		if obj := objOf(e); obj != nil {
			fc.assigns[obj] = append(fc.assigns[obj], as)
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				add(l, assignment{tok: n.Tok, rhs: rhsOf(len(n.Lhs), n.Rhs, i), pos: n.Pos()})
			}
		case *ast.IncDecStmt:
			add(n.X, assignment{tok: n.Tok, pos: n.Pos()})
		case *ast.ValueSpec:
			for i, name := range n.Names {
				add(name, assignment{tok: token.DEFINE, rhs: rhsOf(len(n.Names), n.Values, i), pos: name.Pos()})
			}
		case *ast.RangeStmt:
			if n.Key != nil {
				add(n.Key, assignment{tok: token.RANGE, pos: n.Pos()})
			}
			if n.Value != nil {
				add(n.Value, assignment{tok: token.RANGE, pos: n.Pos()})
			}
		case *ast.LabeledStmt:
			fc.labels[n.Stmt] = n.Label.Name
		case *ast.BranchStmt:
			if n.Tok == token.GOTO && n.Label != nil {
				fc.gotos[n.Label.Name] = append(fc.gotos[n.Label.Name], n)
			}
		case *ast.IfStmt:
			fc.ifs = append(fc.ifs, n)
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Reset" && len(n.Args) == 1 {
				if obj := objOf(sel.X); obj != nil && (isNamed(obj.Type(), "time", "Timer") || isNamed(obj.Type(), "time", "Ticker")) {
					fc.resets[obj] = append(fc.resets[obj], n)
				}
			}
		}
		return true
	})
	return fc
}

// rhsOf returns what the i-th of n left-hand sides is assigned: its own
// expression, or the one call whose results are spread over all of them.
func rhsOf(n int, rhs []ast.Expr, i int) ast.Expr {
	switch {
	case len(rhs) == n:
		return rhs[i]
	case len(rhs) == 1:
		return rhs[0]
	}
	return nil
}

// boolDef returns the expression a boolean variable was last set to before
// its use at id, or nil.
func (fc *funcCtx) boolDef(id *ast.Ident, info *types.Info) ast.Expr {
	obj := info.ObjectOf(id)
	if obj == nil || !isBool(obj.Type()) {
		return nil
	}
	var best *assignment
	for i, as := range fc.assigns[obj] {
		if as.pos < id.Pos() && (best == nil || as.pos > best.pos) {
			best = &fc.assigns[obj][i]
		}
	}
	if best == nil || best.rhs == nil || best.tok != token.DEFINE && best.tok != token.ASSIGN {
		return nil
	}
	return best.rhs
}

// timerDelay returns the delay a timer or ticker waits in the loop: the
// argument of a Reset inside it, else of the NewTimer/NewTicker call.
func (fc *funcCtx) timerDelay(obj types.Object, lc *loopCtx, a *checker) ast.Expr {
	for _, r := range fc.resets[obj] {
		if lc.contains(r.Pos()) {
			return r.Args[0]
		}
	}
	for _, as := range fc.assigns[obj] {
		call, ok := ast.Unparen(as.rhs).(*ast.CallExpr)
		if !ok {
			continue
		}
		if len(call.Args) == 1 && isPkgFunc(a.callee(call), "time", "NewTimer", "NewTicker") {
			return call.Args[0]
		}
		if d := timerMakerDelay(a, call); d != nil {
			return d
		}
	}
	return nil
}

// timerMakerDelay returns the duration a helper is given when it makes
// the timer it returns from it (timer, cancel := TimerWithCancel(delay)):
// a function whose only duration parameter is the timer's and that
// returns a *time.Timer. nil for any other call.
func timerMakerDelay(a *checker, call *ast.CallExpr) ast.Expr {
	fn := a.callee(call)
	if fn == nil || funcPath(fn) == "time" {
		return nil
	}
	sig := fn.Signature()
	makes := false
	for i := 0; i < sig.Results().Len(); i++ {
		if p, ok := sig.Results().At(i).Type().(*types.Pointer); ok && isNamed(p.Elem(), "time", "Timer") {
			makes = true
		}
	}
	if !makes || sig.Variadic() {
		return nil
	}
	var delay ast.Expr
	for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
		if isDuration(sig.Params().At(i).Type()) {
			if delay != nil {
				return nil // two durations: which one is the timer's is not known
			}
			delay = call.Args[i]
		}
	}
	return delay
}

// loopCtx describes the loop being analysed.
type loopCtx struct {
	node       ast.Node // the loop statement, nil for goto and recursion
	mode       mode
	label      string
	start, end token.Pos
	counters   map[types.Object]bool
	// post is the for statement's post statement, run on every round.
	post ast.Stmt
	// seeded: the loop entry carries the outcome of an operation called
	// before the loop, which the body calls again.
	seeded bool
	// streaks are counters set back to a constant where an attempt
	// failed: they count successes in a row, they bound no failures.
	streaks map[types.Object]bool
	// failMarks are bool and duration variables set to a constant where
	// an attempt has just failed (failed = true, sleepTime = time.Second),
	// with the constants set there and on the paths that had not failed.
	failMarks map[types.Object]*markValues
}

func (lc *loopCtx) contains(p token.Pos) bool { return lc.start <= p && p < lc.end }

// countersIn finds the integer variables that change from one attempt to
// the next inside [start, end): i++, n += 1, n = n + 1.
func (fc *funcCtx) countersIn(lc *loopCtx) {
	lc.counters = make(map[types.Object]bool)
	for _, w := range fc.writesIn(lc.start, lc.end) {
		obj, as := w.obj, w.as
		if !isInteger(obj.Type()) || isDuration(obj.Type()) {
			continue
		}
		switch as.tok {
		case token.INC, token.DEC, token.ADD_ASSIGN, token.SUB_ASSIGN:
			lc.counters[obj] = true
		case token.ASSIGN:
			if b, ok := ast.Unparen(as.rhs).(*ast.BinaryExpr); ok && (b.Op == token.ADD || b.Op == token.SUB) {
				lc.counters[obj] = true
			}
		}
	}
}

// write is one assignment and the variable it writes.
type write struct {
	obj types.Object
	as  assignment
}

// writesIn returns the assignments in [start, end), from an index of all
// of them in source order built once: a function of many loops is not
// scanned whole for each of them.
func (fc *funcCtx) writesIn(start, end token.Pos) []write {
	if fc.ordered == nil {
		fc.ordered = []write{}
		for obj, list := range fc.assigns {
			for _, as := range list {
				fc.ordered = append(fc.ordered, write{obj, as})
			}
		}
		slices.SortFunc(fc.ordered, func(x, y write) int { return cmp.Compare(x.as.pos, y.as.pos) })
	}
	i, _ := slices.BinarySearchFunc(fc.ordered, start, func(w write, p token.Pos) int { return cmp.Compare(w.as.pos, p) })
	j, _ := slices.BinarySearchFunc(fc.ordered, end, func(w write, p token.Pos) int { return cmp.Compare(w.as.pos, p) })
	return fc.ordered[i:j]
}

func (a *checker) forLoop(fc *funcCtx, s *ast.ForStmt) *Loop {
	lc := &loopCtx{node: s, mode: modeFor, label: fc.labels[s], start: s.Pos(), end: s.End(), post: s.Post}
	fc.countersIn(lc)
	a.findStreaks(fc, lc, s)
	w := &walker{a: a, fc: fc, lc: lc}
	in := []*path{a.entryPath(fc, lc, s.Body)}
	if s.Init != nil {
		in = w.stmt(s.Init, in, scope{})
	}
	body := in
	if s.Cond != nil {
		var f []*path
		body, f = w.cond(s.Cond, in, 0)
		w.exit(f, s)
	}
	out := w.stmts(s.Body.List, body, scope{})
	w.round(out, s.Body)
	// The condition is tested again after a round: a loop like
	// `for err != nil` or `for !done` is left there on success.
	if s.Cond != nil && (a.condTracksOutcome(fc, s.Body, s.Cond) || a.condCountsFailures(fc, lc, s.Cond) || a.mentionsStreak(lc, s.Cond)) {
		var again []*path
		for _, r := range w.rounds {
			again = append(again, r.p.clone())
		}
		if s.Post != nil {
			again = w.stmt(s.Post, again, scope{})
		}
		// The loop is left on success when the condition can be false
		// after a successful attempt: judge success before the test.
		for _, p := range again {
			t, f := w.cond(s.Cond, []*path{p.clone()}, 0)
			// for !ok { ok = tryLock(); wait }: the attempt is judged by
			// the condition, and a failed one goes round.
			for _, q := range t {
				if q.failedOp() != nil {
					w.rounds = append(w.rounds, event{q, s.Cond})
				}
			}
			if len(f) > 0 {
				if p.succeeded() {
					w.exit([]*path{p}, s)
				} else {
					w.exit(f, s)
				}
			}
		}
	}
	form := FormCounter
	switch {
	case s.Cond != nil && a.condTestsError(s.Cond):
		form = FormErrCond
	case !countsAttempts(a, s.Post) && s.Cond == nil:
		form = FormInfinite
	case !countsAttempts(a, s.Post):
		form = FormCond
	}
	l := a.finish(w, form, s, s.For)
	if l != nil && s.Cond != nil {
		if b := a.condBound(fc, lc, s.Cond); b != BoundNone {
			l.Bound = b
		}
	}
	return l
}

func (a *checker) rangeLoop(fc *funcCtx, s *ast.RangeStmt) *Loop {
	if a.isTickerChan(s.X) && s.Key == nil {
		return a.tickLoop(fc, s)
	}
	if t := a.typeOf(s.X); t == nil || !isInteger(t) {
		return nil // ranging over a collection tries alternatives, it does not retry
	}
	lc := &loopCtx{node: s, mode: modeFor, label: fc.labels[s], start: s.Pos(), end: s.End()}
	fc.countersIn(lc)
	if s.Key != nil {
		if obj := a.info().ObjectOf(identOf(s.Key)); obj != nil {
			lc.counters[obj] = true
		}
	}
	w := &walker{a: a, fc: fc, lc: lc}
	out := w.stmts(s.Body.List, []*path{a.entryPath(fc, lc, s.Body)}, scope{})
	w.round(out, s.Body)
	l := a.finish(w, FormRange, s, s.For)
	if l != nil {
		l.Bound = BoundAttempts
	}
	return l
}

// tickLoop reads `for range ticker.C { ... }`: every round starts with
// a tick, a wait of the ticker's period, and the loop goes round until
// its body leaves; a body that leaves on success and goes round on
// failure retries on the ticker's pace.
func (a *checker) tickLoop(fc *funcCtx, s *ast.RangeStmt) *Loop {
	lc := &loopCtx{node: s, mode: modeFor, label: fc.labels[s], start: s.Pos(), end: s.End()}
	fc.countersIn(lc)
	w := &walker{a: a, fc: fc, lc: lc}
	tick := &ast.ExprStmt{X: &ast.UnaryExpr{OpPos: s.X.Pos(), Op: token.ARROW, X: s.X}}
	body := append([]ast.Stmt{tick}, s.Body.List...)
	out := w.stmts(body, []*path{a.entryPath(fc, lc, s.Body)}, scope{})
	w.round(out, s.Body)
	return a.finish(w, FormInfinite, s, s.For)
}

// isTickerChan reports whether x is a ticker's channel: ticker.C of a
// *time.Ticker, or time.Tick(d).
func (a *checker) isTickerChan(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.SelectorExpr:
		if x.Sel.Name != "C" {
			return false
		}
		n, ok := types.Unalias(derefType(a.typeOf(x.X))).(*types.Named)
		return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Ticker"
	case *ast.CallExpr:
		return isPkgFunc(a.callee(x), "time", "Tick")
	}
	return false
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	if id == nil {
		return &ast.Ident{Name: "_"}
	}
	return id
}

// gotoLoops finds `label: ... goto label` loops in a block.
func (a *checker) gotoLoops(fc *funcCtx, b *ast.BlockStmt) []*Loop {
	var loops []*Loop
	for i, st := range b.List {
		ls, ok := st.(*ast.LabeledStmt)
		if !ok {
			continue
		}
		back := false
		for _, g := range fc.gotos[ls.Label.Name] {
			if g.Pos() > ls.Pos() && g.End() <= b.End() {
				back = true
			}
		}
		if !back {
			continue
		}
		lc := &loopCtx{mode: modeGoto, label: ls.Label.Name, start: ls.Pos(), end: b.End()}
		fc.countersIn(lc)
		w := &walker{a: a, fc: fc, lc: lc}
		region := append([]ast.Stmt{ls.Stmt}, b.List[i+1:]...)
		out := w.stmts(region, []*path{newPath()}, scope{})
		w.exit(out, b)
		if l := a.finish(w, FormGoto, ls, ls.Pos()); l != nil {
			loops = append(loops, l)
		}
	}
	return loops
}

// recursion finds a function that retries by calling itself.
func (a *checker) recursion(fc *funcCtx) *Loop {
	if fc.obj == nil {
		return nil
	}
	var self []*ast.CallExpr
	ast.Inspect(fc.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			// retry := func(err error) (T, error) { ...; return f(...) }
			if obj, lit := a.closureDef(n); lit != nil {
				if calls := a.selfCalls(lit.Body, fc.obj); len(calls) > 0 {
					if fc.retryLits == nil {
						fc.retryLits = map[types.Object]*ast.FuncLit{}
					}
					fc.retryLits[obj] = lit
					self = append(self, calls...)
				}
			}
		case *ast.GoStmt:
			// go f() after a failure, or go func() { wait; f() }(),
			// re-launches the function: the next attempt runs in a new
			// goroutine.
			self = append(self, a.relaunches(n, fc.obj)...)
			return false
		case *ast.FuncLit, *ast.DeferStmt:
			return false
		case *ast.CallExpr:
			if fn := a.callee(n); fn != nil && fn.Origin() == fc.obj {
				self = append(self, n)
			}
		}
		return true
	})
	if len(self) == 0 {
		return nil
	}
	lc := &loopCtx{mode: modeRecursion, start: fc.body.Pos(), end: fc.body.End()}
	fc.countersIn(lc)
	// A parameter passed on changed counts the attempts (attempt+1, n-1);
	// a duration passed on changed is the next delay, as if assigned:
	// f(ctx, min(backoff*2, maxDelay)) sets backoff = min(backoff*2, maxDelay).
	if fd, ok := fc.fn.(*ast.FuncDecl); ok {
		params := fieldObjs(a, fd.Type.Params)
		for _, call := range self {
			for i, arg := range call.Args {
				if i >= len(params) || params[i] == nil {
					continue
				}
				if id, ok := ast.Unparen(arg).(*ast.Ident); ok && a.info().ObjectOf(id) == params[i] {
					continue
				}
				if isDuration(params[i].Type()) {
					fc.assigns[params[i]] = append(fc.assigns[params[i]], assignment{tok: token.ASSIGN, rhs: arg, pos: call.Pos()})
				} else {
					lc.counters[params[i]] = true
				}
			}
		}
	}
	w := &walker{a: a, fc: fc, lc: lc}
	out := w.stmts(fc.body.List, []*path{newPath()}, scope{})
	w.exit(out, fc.body)
	var pos token.Pos
	for _, r := range w.rounds {
		if r.p.failedOp() != nil {
			pos = firstSelfCall(a, r.node, fc.obj)
			break
		}
	}
	if pos == token.NoPos {
		return nil
	}
	l := a.finish(w, FormRecursion, nil, pos)
	if l != nil {
		for _, c := range self {
			if c.Pos() == pos {
				l.Node = c
			}
		}
	}
	return l
}

// relaunches returns the calls by which a go statement runs the function
// fn again: the statement's own call, or a call among the top-level
// statements of the function literal it starts.
func (a *checker) relaunches(g *ast.GoStmt, fn *types.Func) []*ast.CallExpr {
	if callee := a.callee(g.Call); callee != nil && callee.Origin() == fn {
		return []*ast.CallExpr{g.Call}
	}
	lit, ok := g.Call.Fun.(*ast.FuncLit)
	if !ok {
		return nil
	}
	var calls []*ast.CallExpr
	for _, st := range lit.Body.List {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			continue
		}
		if call, ok := ast.Unparen(es.X).(*ast.CallExpr); ok {
			if callee := a.callee(call); callee != nil && callee.Origin() == fn {
				calls = append(calls, call)
			}
		}
	}
	return calls
}

// closureDef returns the variable and function literal of name :=
// func(...) {...}, or nil.
func (a *checker) closureDef(as *ast.AssignStmt) (types.Object, *ast.FuncLit) {
	if as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, nil
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	lit, isLit := ast.Unparen(as.Rhs[0]).(*ast.FuncLit)
	if !ok || !isLit {
		return nil, nil
	}
	obj := a.info().Defs[id]
	if obj == nil {
		return nil, nil
	}
	return obj, lit
}

// selfCalls returns the calls of fn in body, outside nested function
// literals, go and defer statements.
func (a *checker) selfCalls(body *ast.BlockStmt, fn *types.Func) []*ast.CallExpr {
	var out []*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.CallExpr:
			if callee := a.callee(n); callee != nil && callee.Origin() == fn {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

func firstSelfCall(a *checker, n ast.Node, self *types.Func) token.Pos {
	pos := token.NoPos
	ast.Inspect(n, func(n ast.Node) bool {
		if pos.IsValid() {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := a.callee(call); fn != nil && fn.Origin() == self {
				pos = call.Pos()
			}
		}
		return true
	})
	return pos
}

func fieldObjs(a *checker, fl *ast.FieldList) []types.Object {
	var out []types.Object
	if fl == nil {
		return nil
	}
	for _, f := range fl.List {
		if len(f.Names) == 0 {
			out = append(out, nil)
		}
		for _, n := range f.Names {
			out = append(out, a.info().Defs[n])
		}
	}
	return out
}

// finish turns the walked paths into a Loop, or nil if the loop does not
// retry: some failure must go round and some success must leave.
func (a *checker) finish(w *walker, form Form, node ast.Node, pos token.Pos) *Loop {
	var ops []*ast.CallExpr
	var failing []*path
	for _, r := range w.rounds {
		if op := r.p.failedOp(); op != nil && !a.localCheck(op) && !a.takesAccepted(w.fc, w.lc, op) {
			failing = append(failing, r.p)
			ops = addOp(ops, op)
		}
	}
	if len(failing) == 0 {
		return nil
	}
	leaves := false
	for _, e := range w.exits {
		if e.p.succeeded() {
			leaves = true
			break
		}
	}
	if leaves && form != FormRunner {
		failing, ops = a.dropPaced(w, failing)
		if len(failing) == 0 {
			return nil
		}
	}
	if !leaves && form != FormRunner {
		// No success leaves: a retry only if the failure path waits and
		// the success path goes round without waiting (reconnect). An
		// attempt given to a runner that never says it is done is run
		// again on the runner's own retry schedule.
		ops, failing = a.reconnect(w)
		if len(ops) == 0 {
			return nil
		}
	}
	if a.failover(w.fc, w.lc, ops) {
		return nil
	}
	if w.doneAnswer(failing) {
		w.answer = -1
	}
	l := &Loop{Form: form, Node: node, Pos: pos, Func: w.fc.fn, Ops: ops, Reconnect: !leaves, answer: w.answer}
	l.LocalOS = true
	for _, p := range failing {
		l.LocalOS = l.LocalOS && p.localOS
	}
	if node == nil {
		l.Node = w.fc.fn
	}
	seen := map[ast.Node]bool{}
	addWait := func(wt *Wait) {
		if !seen[wt.Node] {
			seen[wt.Node] = true
			l.Waits = append(l.Waits, wt)
		}
	}
	for _, p := range failing {
		rearmed := map[types.Object]bool{}
		for _, wt := range p.waits {
			if wt.rearms != nil {
				rearmed[wt.rearms] = true
			}
		}
		for _, wt := range p.waits {
			if wt.rearms == nil && wt.Kind == WaitTimer && rearmed[timerOf(w, wt)] {
				continue // the receive waits what the Reset set
			}
			addWait(wt)
		}
	}
	for _, e := range w.exits {
		if e.p.guard == guardBound && l.Bound == BoundNone {
			l.Bound = e.p.bound
		}
		if e.p.inDone && l.Bound == BoundNone {
			l.Bound = BoundContext
		}
	}
	if l.Bound == BoundNone && (l.Reconnect || a.servesInbound(ops)) {
		// A reconnect loop (a server's accept loop, a reader of a
		// socket) that leaves on the error a closed listener or
		// connection gives (net.ErrClosed, io.EOF) stops when it is
		// told to; one that leaves only on, say, a 401 does not. An
		// accept loop that leaves on the errors it does not retry (any
		// but a Temporary one) leaves when its listener is closed.
		for _, e := range w.exits {
			if e.p.guard == guardError && (e.p.closed || a.servesInbound(ops)) {
				l.Bound = BoundContext
				break
			}
		}
	}
	for _, ev := range append(append([]event(nil), w.rounds...), w.exits...) {
		if ev.p.keyLimit && l.Bound == BoundNone {
			l.Bound = BoundAttempts
		}
	}
	l.Classified, l.Unclassified = classifiedOps(w, failing)
	l.Permanent = a.permanent(failing)
	l.Retried = retriedCodes(failing)
	// Without a wait, only a loop that counts its attempts is taken for a
	// retry: an open loop that goes round at once on failure is more often
	// a reader, a scanner or a walk than a retry.
	if len(l.Waits) == 0 && form != FormCounter && form != FormRange && form != FormRunner {
		return nil
	}
	// Without a wait, an operation given the counter the loop steps
	// (listen(fmt.Sprintf(":%d", port)) for port := 8000; port < 8010)
	// tries the next candidate each round: a search, not a retry.
	if len(l.Waits) == 0 && !w.runsGiven(ops) && a.givenStepped(w.lc, ops) {
		return nil
	}
	l.Context = a.contextInScope(pos)
	for _, wt := range l.Waits {
		wt.Uncancellable = a.uncancellable(funcBody(w.fc.fn), wt.Node)
	}
	l.Attempts = a.loopAttempts(w.fc, l)
	a.capShortSchedules(w.fc, w.lc, l)
	return l
}

// classifiedOps reports whether the failure of every operation a loop
// retries is inspected on some path it fails on (going round or
// leaving), or it needs none: it retries only the context's own errors,
// or fails without an error value (a false result, a nil handle). When
// not, it returns the first operation whose errors all go round unseen:
// a loop that tells one sentinel of its second call apart still retries
// every failure of its first.
func classifiedOps(w *walker, failing []*path) (bool, *ast.CallExpr) {
	inspected := map[*ast.CallExpr]bool{}
	unattached := false
	for _, ev := range append(append([]event(nil), w.rounds...), w.exits...) {
		if !ev.p.classified {
			continue
		}
		if op := ev.p.failedOp(); op != nil {
			inspected[op] = true
		} else {
			// A test on a path without a known failed operation (the
			// error of a helper that wraps it) is taken for every one's.
			unattached = true
		}
	}
	for _, p := range failing {
		op := p.failedOp()
		if p.classified || p.contextErr || !p.errorFailure() || inspected[op] {
			continue
		}
		if w.answer < 0 && w.givenFunc(op) >= 0 {
			// The attempt says when to stop (done, err := f()): which of
			// its errors to retry is for each caller's attempt to say.
			continue
		}
		if !unattached {
			return false, op
		}
	}
	return true, nil
}

func containsCall(list []*ast.CallExpr, c *ast.CallExpr) bool {
	for _, x := range list {
		if x == c {
			return true
		}
	}
	return false
}

// addOp adds an operation unless the same call, as written, is there:
// for err := op(); err != nil; err = op() retries one operation.
func addOp(list []*ast.CallExpr, c *ast.CallExpr) []*ast.CallExpr {
	for _, x := range list {
		if x == c || types.ExprString(x) == types.ExprString(c) {
			return list
		}
	}
	return append(list, c)
}

// failover reports whether the operations move on from one attempt to the
// next: they index by the attempt counter (the next address of a list), or
// read a variable the loop advances from itself (dir = filepath.Dir(dir),
// node = node.next). Trying something else is not a retry of the same call.
func (a *checker) failover(fc *funcCtx, lc *loopCtx, ops []*ast.CallExpr) bool {
	for _, op := range ops {
		found := false
		ast.Inspect(op, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IndexExpr:
				ast.Inspect(n.Index, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && lc.counters[a.info().ObjectOf(id)] {
						found = true
					}
					return true
				})
			case *ast.Ident:
				if obj := a.info().ObjectOf(n); obj != nil && !lc.counters[obj] && (advances(a, fc, lc, obj, ops) || a.itemOfCounter(fc, lc, obj, 0)) {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// itemOfCounter reports whether the loop sets obj, every round, to the
// item the counter points at: name := names[i], seg, err :=
// open(segmentName(dir, i)), r := reader(seg). An operation on it works
// through a list, one item a round; it does not retry. A duration or a
// context computed from the counter (a timeout per attempt) is no item.
func (a *checker) itemOfCounter(fc *funcCtx, lc *loopCtx, obj types.Object, depth int) bool {
	v, ok := obj.(*types.Var)
	if !ok || depth > 2 || isContext(v.Type()) || isDuration(v.Type()) || isError(v.Type()) {
		return false
	}
	for _, as := range fc.assigns[obj] {
		if !lc.contains(as.pos) || as.rhs == nil || as.tok != token.DEFINE && as.tok != token.ASSIGN {
			continue
		}
		found := false
		ast.Inspect(as.rhs, func(n ast.Node) bool {
			if found {
				return false
			}
			if e, ok := n.(ast.Expr); ok {
				if t := a.typeOf(e); t != nil && (isDuration(t) || isContext(t)) {
					return false
				}
			}
			if b, ok := n.(*ast.BinaryExpr); ok && isBool(a.typeOf(b)) {
				return false // verbose := tries > 10 decides something else
			}
			if id, ok := n.(*ast.Ident); ok {
				o := a.info().ObjectOf(id)
				found = a.stepped(lc, o) || o != obj && o != nil && a.itemOfCounter(fc, lc, o, depth+1)
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// givenStepped reports whether an operation's arguments read the counter
// the loop steps every round.
func (a *checker) givenStepped(lc *loopCtx, ops []*ast.CallExpr) bool {
	for _, op := range ops {
		if a.argsRead(op, func(obj types.Object) bool { return a.stepped(lc, obj) }) {
			return true
		}
	}
	return false
}

// stepped reports whether obj is the counter a for statement's post
// statement or a range clause advances every round, whatever the outcome:
// the index of the item, not a count of failures.
func (a *checker) stepped(lc *loopCtx, obj types.Object) bool {
	if obj == nil || !lc.counters[obj] {
		return false
	}
	var post ast.Node = lc.post
	if r, ok := lc.node.(*ast.RangeStmt); ok {
		post = r.Key
	}
	if post == nil {
		return false
	}
	found := false
	ast.Inspect(post, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && a.info().ObjectOf(id) == obj {
			found = true
		}
		return !found
	})
	return found
}

// advances reports whether the loop sets obj from its own value through a
// call or a field: dir = filepath.Dir(dir), n = n.next. An operation that
// hands back the value it was given (tok, err = refresh(ctx, tok)) retries
// with its own result; it does not move on.
func advances(a *checker, fc *funcCtx, lc *loopCtx, obj types.Object, ops []*ast.CallExpr) bool {
	if v, ok := obj.(*types.Var); !ok || isContext(v.Type()) || isDuration(v.Type()) {
		// ctx, cancel = context.WithTimeout(ctx, d) gives the attempt a
		// deadline; it moves on to nothing.
		return false
	}
	for _, as := range fc.assigns[obj] {
		if !lc.contains(as.pos) || as.tok != token.ASSIGN || as.rhs == nil {
			continue
		}
		if call, ok := ast.Unparen(as.rhs).(*ast.CallExpr); ok && containsCall(ops, call) {
			continue
		}
		switch r := ast.Unparen(as.rhs).(type) {
		case *ast.CallExpr, *ast.SelectorExpr, *ast.IndexExpr, *ast.SliceExpr:
			if a.mentions(r, obj) {
				return true
			}
		}
	}
	return false
}

// contextInScope returns a context.Context variable visible at pos.
func (a *checker) contextInScope(pos token.Pos) *types.Var {
	pkg := a.pass.Pkg.Scope()
	for s := pkg.Innermost(pos); s != nil && s != pkg && s != types.Universe; s = s.Parent() {
		var best *types.Var
		for _, name := range s.Names() {
			if v, ok := s.Lookup(name).(*types.Var); ok && isContext(v.Type()) && v.Pos() < pos && name != "_" && !a.deadContext(v, pos) {
				if best == nil || name == "ctx" {
					best = v
				}
			}
		}
		if best != nil {
			return best
		}
	}
	v, _ := a.receiverContext(pos)
	return v
}

// deadContext reports whether v is a context the function holding pos
// makes itself and nobody can cancel while it runs: context.Background()
// or TODO(), or a WithCancel or WithValue of one whose cancel runs only
// on return. A wait that ignores it ignores nothing.
//
// The answer depends on v alone (its function holds pos), so it is kept:
// every loop of a function asks it of the same contexts.
func (a *checker) deadContext(v *types.Var, pos token.Pos) bool {
	if d, ok := a.dead[v]; ok {
		return d
	}
	if a.dead == nil {
		a.dead = make(map[*types.Var]bool)
	}
	d := a.deadContextSeen(v, pos, map[*types.Var]bool{})
	a.dead[v] = d
	return d
}

func (a *checker) deadContextSeen(v *types.Var, pos token.Pos, seen map[*types.Var]bool) bool {
	if seen[v] {
		return true // ctx = context.WithValue(ctx, k, x): as dead as it was
	}
	seen[v] = true
	decl := a.enclosingDecl(pos)
	if decl == nil || decl.Body == nil || v.Pos() < decl.Body.Pos() || v.Pos() >= decl.Body.End() {
		return false // a parameter, a receiver's field, a package variable
	}
	var defs []ast.Expr
	var cancels []types.Object
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				id, ok := ast.Unparen(l).(*ast.Ident)
				if !ok || a.info().ObjectOf(id) != v {
					continue
				}
				rhs := rhsOf(len(n.Lhs), n.Rhs, i)
				defs = append(defs, rhs)
				if len(n.Lhs) == 2 && len(n.Rhs) == 1 && i == 0 {
					if c, ok := ast.Unparen(n.Lhs[1]).(*ast.Ident); ok && c.Name != "_" {
						cancels = append(cancels, a.info().ObjectOf(c))
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if a.info().Defs[id] == v {
					defs = append(defs, rhsOf(len(n.Names), n.Values, i))
				}
			}
		}
		return true
	})
	if len(defs) == 0 {
		return false
	}
	for _, d := range defs {
		if !a.madeDead(d, seen, 0) {
			return false
		}
	}
	// The cancel function may be called only where the function returns.
	for _, c := range cancels {
		if c != nil && a.calledOutsideDefer(decl.Body, c) {
			return false
		}
	}
	return true
}

// madeDead reports whether e builds a context nothing outside cancels.
func (a *checker) madeDead(e ast.Expr, seen map[*types.Var]bool, depth int) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || depth > 3 {
		return false
	}
	fn := a.callee(call)
	switch {
	case isPkgFunc(fn, "context", "Background", "TODO", "WithoutCancel"):
		return true
	case isPkgFunc(fn, "context", "WithCancel", "WithCancelCause", "WithValue") && len(call.Args) > 0:
		if id, ok := ast.Unparen(call.Args[0]).(*ast.Ident); ok {
			if v, ok := a.info().ObjectOf(id).(*types.Var); ok && isContext(v.Type()) {
				return a.deadContextSeen(v, id.Pos(), seen)
			}
		}
		return a.madeDead(call.Args[0], seen, depth+1)
	}
	return false
}

// calledOutsideDefer reports whether the function obj is called, or
// handed on, anywhere but in a defer statement.
func (a *checker) calledOutsideDefer(body *ast.BlockStmt, obj types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		if d, ok := n.(*ast.DeferStmt); ok {
			if id, ok := ast.Unparen(d.Call.Fun).(*ast.Ident); ok && a.info().ObjectOf(id) == obj {
				return false
			}
		}
		if id, ok := n.(*ast.Ident); ok && a.info().Uses[id] == obj {
			found = true
		}
		return true
	})
	return found
}

// countsAttempts reports whether a for statement's post statement counts:
// i++, n += 1, attempt = attempt + 1.
func countsAttempts(a *checker, post ast.Stmt) bool {
	switch s := post.(type) {
	case *ast.IncDecStmt:
		return isInteger(a.typeOf(s.X))
	case *ast.AssignStmt:
		return len(s.Lhs) == 1 && isInteger(a.typeOf(s.Lhs[0])) &&
			(s.Tok == token.ADD_ASSIGN || s.Tok == token.SUB_ASSIGN || s.Tok == token.ASSIGN)
	}
	return false
}

// condTracksOutcome reports whether a loop condition can change with the
// outcome of an attempt: it tests an error, or a flag set in the body.
func (a *checker) condTracksOutcome(fc *funcCtx, body *ast.BlockStmt, cond ast.Expr) bool {
	if a.condTestsError(cond) {
		return true
	}
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := a.info().ObjectOf(id); obj != nil && isBool(obj.Type()) {
				for _, as := range fc.assigns[obj] {
					if body.Pos() <= as.pos && as.pos < body.End() {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

func (a *checker) condTestsError(cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && !found {
			if call, ok := e.(*ast.CallExpr); ok && a.isContextErr(call) {
				return false // ctx.Err() tests the context, not an attempt
			}
			if t := a.typeOf(e); t != nil && isError(t) {
				found = true
			}
		}
		return !found
	})
	return found
}

func (a *checker) isContextErr(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Err" && isContext(a.typeOf(sel.X))
}

// condBound says what a loop condition bounds: an attempt counter, a
// deadline, the context, or an outside flag (taken as a stop signal).
func (a *checker) condBound(fc *funcCtx, lc *loopCtx, cond ast.Expr) BoundKind {
	kind := BoundNone
	set := func(k BoundKind) {
		if kind == BoundNone {
			kind = k
		}
	}
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				rt := a.typeOf(sel.X)
				switch {
				case isContext(rt):
					set(BoundContext)
					return false
				case isTimeish(rt):
					set(BoundDeadline)
					return false
				}
			}
			if a.callReturnsBool(n) && !a.callInspectsError(n) && !a.doesIO(n) {
				set(BoundContext)
			}
			return false
		case *ast.BinaryExpr:
			if a.lenOfFailureList(fc, lc, n.X) || a.lenOfFailureList(fc, lc, n.Y) || a.mentionsStreak(lc, n) {
				return false // len(unconnected) > 0 counts failures, it bounds nothing
			}
			switch n.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
				tx, ty := a.typeOf(n.X), a.typeOf(n.Y)
				switch {
				case isTimeish(tx) || isTimeish(ty):
					set(BoundDeadline)
				case tx != nil && ty != nil && isInteger(tx) && isInteger(ty):
					set(BoundAttempts)
				}
			}
		case *ast.Ident:
			obj := a.info().ObjectOf(n)
			if v, ok := obj.(*types.Var); ok && isBool(v.Type()) {
				inBody := false
				for _, as := range fc.assigns[v] {
					if lc.contains(as.pos) {
						inBody = true
					}
				}
				if !inBody {
					set(BoundContext)
				}
			}
		case *ast.SelectorExpr:
			if v, ok := a.info().ObjectOf(n.Sel).(*types.Var); ok && isBool(v.Type()) {
				set(BoundContext)
			}
			return false
		}
		return true
	})
	return kind
}

func (a *checker) callReturnsBool(call *ast.CallExpr) bool { return isBool(a.typeOf(call)) }

func (a *checker) callInspectsError(call *ast.CallExpr) bool {
	for _, arg := range call.Args {
		if t := a.typeOf(arg); t != nil && isError(t) {
			return true
		}
	}
	return false
}

// permanent describes the failures that cannot succeed which the failing
// paths retry.
func (a *checker) permanent(failing []*path) []string {
	var out []string
	for _, p := range failing {
		for _, words := range p.saysPermanent {
			out = addUnique(out, failure.DescribeText(words))
		}
		for _, name := range p.isPermanent {
			out = addUnique(out, name)
		}
		if p.predicated && !p.breakerOpen {
			continue // an unread predicate decided what is retried
		}
		if codes := p.http.Permanent(); p.http.Narrowed && len(codes) > 0 {
			out = addUnique(out, failure.DescribeHTTP(codes))
		}
		if codes := p.grpc.Permanent(); p.grpc.Narrowed && len(codes) > 0 {
			for _, c := range codes {
				out = addUnique(out, failure.DescribeGRPC(c))
			}
		}
		op := p.failedOp()
		if p.breakerOpen || !p.breakerExcluded && op != nil && a.isBreakerCall(op) && !p.http.Narrowed && !p.grpc.Narrowed {
			out = addUnique(out, failure.DescribeBreakerOpen())
		}
	}
	return out
}

// timerOf is the timer whose channel a receive wait reads, or nil.
func timerOf(w *walker, wt *Wait) types.Object {
	x, ok := wt.Node.(ast.Expr)
	if !ok {
		return nil
	}
	if sel, ok := ast.Unparen(x).(*ast.SelectorExpr); ok && sel.Sel.Name == "C" {
		return w.objOf(sel.X)
	}
	return nil
}
