package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
)

// maxPaths bounds the number of paths followed through one loop body; a
// body with more branches than that is followed only in part.
const maxPaths = 256

type errState int8

const (
	errUnknown errState = iota
	errNil
	errNonNil
)

// errFact is what a path knows about one error value.
type errFact struct {
	op    *ast.CallExpr // the operation that produced it, nil if none
	state errState
	wait  bool // produced by a wait (a context-aware sleep helper)
	// kind is what kind of value tells the failure: an error (the
	// default), or a value without one (see failvalue.go).
	kind valueKind
}

type guard int8

const (
	guardNone  guard = iota
	guardError       // the last branch taken tested the failure
	guardBound       // the last branch taken tested a bound
	guardOther       // the last branch taken tested something else
)

// path is what is known along one path through a loop body in one
// iteration.
type path struct {
	errs       map[any]errFact // key: types.Object or *ast.CallExpr
	last       *ast.CallExpr   // the most recent operation
	http       failure.HTTPSet
	grpc       failure.GRPCSet
	classified bool
	guard      guard
	bound      BoundKind // the kind of the last bound tested
	// saved are the guards before the ifs the path is in (restoreGuard).
	saved           []savedGuard
	breakerOpen     bool // the failure is known to be a breaker-open error
	breakerExcluded bool // the failure is known not to be one
	// predicated: a predicate the analysis cannot read decided whether
	// this failure is retried, so the codes left are not known to be.
	predicated bool
	// maybeOK: the last test was a classification that does not hold for
	// a nil error (errors.Is(nil, X) is false), so an unknown error may be
	// nil here: leaving on this path may be leaving on success.
	maybeOK bool
	waits   []*Wait
	dead    bool // the branch that led here cannot be taken
	// contextErr: the failure is known to be the context's own
	// (context.Canceled or DeadlineExceeded).
	contextErr bool
	// keyLimit: the path tested a per-key attempt counter.
	keyLimit bool
	// limited is the kind of the last bound the path tested, wherever.
	limited BoundKind
	// inDone: the path is in the ctx.Done() or stop-channel case of a
	// select, whatever it tests there before it leaves.
	inDone bool
	// cancelled: the path went through the ctx.Done() case of a select:
	// the context ended, whatever the path does after the select.
	cancelled bool
	// closed: the failure is known to be that of a resource closed on
	// purpose (io.EOF, net.ErrClosed).
	closed bool
	// sent lists what the path sent on channels (ch <- item).
	sent []*ast.SendStmt
	// saysPermanent lists the words of a permanent failure the path
	// found in the error's text (strings.Contains(msg, "Unauthorized")).
	saysPermanent []string
	// isPermanent lists the sentinels of a permanent failure the path
	// found the error to be (errors.Is(err, ErrGroupAuthorizationFailed)).
	isPermanent []string
	// localOS: the failure is known to be an errno of the local system
	// (errors.Is(err, syscall.ETXTBSY)), a race on this machine, not a
	// dependency failing.
	localOS bool
}

func newPath() *path {
	return &path{errs: map[any]errFact{}, http: failure.AllHTTP(), grpc: failure.AllGRPC()}
}

func (p *path) clone() *path {
	q := *p
	q.errs = make(map[any]errFact, len(p.errs))
	for k, v := range p.errs {
		q.errs[k] = v
	}
	q.waits = append([]*Wait(nil), p.waits...)
	q.saved = append([]savedGuard(nil), p.saved...)
	q.sent = append([]*ast.SendStmt(nil), p.sent...)
	q.saysPermanent = append([]string(nil), p.saysPermanent...)
	q.isPermanent = append([]string(nil), p.isPermanent...)
	return &q
}

// failedOp returns the operation known to have failed on this path, or nil.
func (p *path) failedOp() *ast.CallExpr {
	// The attempt that failed first on the path decided the round: what
	// ran after it with the same error variable (a refresh of the
	// target, its failure only logged) does not make another attempt.
	var first *ast.CallExpr
	for k, f := range p.errs {
		if k, ok := k.(failedBefore); ok && f.state == errNonNil && (first == nil || k.op.Pos() < first.Pos()) {
			first = k.op
		}
	}
	if first != nil {
		return first
	}
	if p.last != nil {
		for _, f := range p.errs {
			if f.op == p.last && f.state == errNonNil && !f.wait {
				return p.last
			}
		}
		if p.http.Narrowed && !p.http.Has(200) {
			return p.last
		}
		if p.grpc.Narrowed && !p.grpc.Has(0) {
			return p.last
		}
	}
	for _, f := range p.errs {
		if f.op != nil && f.state == errNonNil && !f.wait {
			return f.op
		}
	}
	return nil
}

// errorFailure reports whether the failure on this path is an error
// value, which a classification could look at; a false result or a nil
// handle leaves nothing to classify.
func (p *path) errorFailure() bool {
	return p.errValueFailed() || p.http.Narrowed || p.grpc.Narrowed
}

// errValueFailed reports whether an operation's error value is known to
// be non-nil on this path (not a status or a flag).
func (p *path) errValueFailed() bool {
	for _, f := range p.errs {
		if f.op != nil && f.state == errNonNil && !f.wait && (f.kind == kindError || f.kind == kindErrors) {
			return true
		}
	}
	return false
}

// succeeded reports whether the most recent operation is known to have
// succeeded on this path, and the path leaves because of that: the last
// branch taken tested the outcome (or only counted), not the context, a
// deadline or some unrelated condition such as an end of input.
func (p *path) succeeded() bool {
	if p.last == nil || p.guard == guardOther || p.guard == guardBound && p.bound != BoundAttempts {
		return false
	}
	if p.http.Narrowed && !p.http.HasSuccess() || p.grpc.Narrowed && !p.grpc.Has(0) {
		return false
	}
	ok := false
	for _, f := range p.errs {
		if f.op == p.last && !f.wait {
			switch f.state {
			case errNonNil:
				return false
			case errNil:
				ok = true
			case errUnknown:
				ok = ok || p.maybeOK
			}
		}
	}
	return ok || p.http.Narrowed && p.http.HasSuccess()
}

// mode says what ends an iteration of the loop being walked.
type mode int8

const (
	modeFor mode = iota
	modeGoto
	modeRecursion
)

// event is a path reaching a point where the loop goes round or is left.
type event struct {
	p    *path
	node ast.Node
}

// walker follows the paths through one loop body.
type walker struct {
	a      *checker
	fc     *funcCtx
	lc     *loopCtx
	rounds []event
	exits  []event
	// requeues collects, when the walk looks for them, the failing paths
	// that hand the failed item back to a queue after a wait.
	requeues []requeueEvent
	// repeated counts the inner loops being walked whose number of
	// rounds grows with the attempt (for i := attempt * 5; i > 0; i--):
	// a wait in one is taken more times each attempt.
	repeated int
	// answer is how the bool of a given function value is read, once the
	// walk has seen one (RetrySummary.Answer).
	answer int
	// doneBool: a given function value's bool says it is done (done,
	// err := f()). If its errors go round, true is its answer to stop.
	doneBool bool
	// gotos holds the paths that jump forward to a label inside the loop
	// (goto reconn), until the walk reaches that label.
	gotos map[string][]*path
	// goAttempts maps a channel handed to a goroutine the loop starts to
	// the attempt that goroutine reports on it (go c.fetch(done, errCh),
	// go func() { errc <- c.run(ctx) }()): what the loop receives from it
	// is that attempt's outcome.
	goAttempts map[types.Object]goAttempt
}

// goAttempt is the attempt a goroutine makes and how a channel of it
// reports the outcome: success (a done channel beside an error channel),
// failureOnly (that error channel: it carries only failures), or neither
// (errc <- op(): nil or not).
type goAttempt struct {
	op                   *ast.CallExpr
	success, failureOnly bool
}

// scope tells the walker where break and continue go.
type scope struct {
	loopDepth   int // enclosing loops inside the analysed loop
	breakDepth  int // enclosing breakables (loops, switch, select) inside it
	breakSink   *[]*path
	contSink    *[]*path
	innerLabels map[string]bool
}

func (w *walker) info() *types.Info { return w.a.info() }

func (w *walker) stmts(list []ast.Stmt, in []*path, sc scope) []*path {
	for _, s := range list {
		if ls, ok := s.(*ast.LabeledStmt); ok && len(w.gotos[ls.Label.Name]) > 0 {
			in = append(in, w.gotos[ls.Label.Name]...)
			delete(w.gotos, ls.Label.Name)
		}
		if len(in) == 0 {
			if len(w.gotos) == 0 {
				return nil
			}
			continue // a label further on may be jumped to
		}
		in = w.stmt(s, in, sc)
	}
	return in
}

// forwardLabel reports whether a goto jumps forward to a label inside the
// loop being walked: the paths taking it go on from there.
func (w *walker) forwardLabel(s *ast.BranchStmt) bool {
	if w.lc.node == nil || s.Label == nil {
		return false
	}
	l, ok := w.info().Uses[s.Label].(*types.Label)
	return ok && l.Pos() > s.Pos() && w.lc.contains(l.Pos())
}

func (w *walker) stmt(s ast.Stmt, in []*path, sc scope) []*path {
	if len(in) > maxPaths {
		in = in[:maxPaths]
	}
	switch s := s.(type) {
	case *ast.BlockStmt:
		return w.stmts(s.List, in, sc)
	case *ast.LabeledStmt:
		if sc.innerLabels == nil {
			sc.innerLabels = map[string]bool{}
		} else {
			m := make(map[string]bool, len(sc.innerLabels)+1)
			for k := range sc.innerLabels {
				m[k] = true
			}
			sc.innerLabels = m
		}
		sc.innerLabels[s.Label.Name] = true
		return w.stmt(s.Stmt, in, sc)
	case *ast.ExprStmt:
		if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok && w.a.isTerminal(call) {
			// panic("timed out") where the context ended or a limit
			// was reached bounds the loop as a return would.
			for _, p := range in {
				if p.guard == guardBound || p.inDone {
					w.exit([]*path{p}, s)
				}
			}
			return nil
		}
		if lit := w.retryLit(s); lit != nil {
			return w.inline(lit, in, sc)
		}
		if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
			w.requeue(s, call, in)
		}
		if w.selfCall(s) {
			w.round(in, s)
			return nil
		}
		if out, ok := w.step(s, in); ok {
			return out
		}
		return w.simple(s, in)
	case *ast.AssignStmt:
		if w.selfCall(s) {
			w.round(in, s)
			return nil
		}
		if lit := w.retryLit(s); lit != nil {
			return w.inline(lit, in, sc)
		}
		return w.simple(s, in)
	case *ast.SendStmt:
		w.sends(s, in)
		return w.simple(s, in)
	case *ast.DeclStmt, *ast.IncDecStmt:
		return w.simple(s, in)
	case *ast.ReturnStmt:
		if w.selfCall(s) {
			w.round(in, s)
			return nil
		}
		if lit := w.retryLit(s); lit != nil {
			w.inline(lit, in, sc)
			return nil // the closure's returns are the function's
		}
		in = w.simple(s, in)
		if w.lc.mode == modeAttempt {
			w.answerReturn(s, in)
			return nil
		}
		if w.lc.mode == modeResume {
			w.resumeReturn(s, in)
			return nil
		}
		w.exit(in, s)
		return nil
	case *ast.BranchStmt:
		return w.branch(s, in, sc)
	case *ast.IfStmt:
		if s.Init != nil {
			in = w.stmt(s.Init, in, sc)
		}
		saveGuard(in)
		t, f := w.cond(s.Cond, in, 0)
		out := w.stmts(s.Body.List, t, sc)
		if s.Else != nil {
			out = append(out, w.stmt(s.Else, f, sc)...)
		} else {
			out = append(out, f...)
		}
		restoreGuard(out, onlyCalls(s) && !w.terminalIn(s))
		return out
	case *ast.SwitchStmt:
		return w.switchStmt(s, in, sc)
	case *ast.TypeSwitchStmt:
		return w.typeSwitch(s, in, sc)
	case *ast.SelectStmt:
		return w.selectStmt(s, in, sc)
	case *ast.ForStmt, *ast.RangeStmt:
		return w.innerLoop(s, in, sc)
	case *ast.GoStmt:
		if w.lc.mode == modeRecursion && w.fc.obj != nil {
			if calls := w.a.relaunches(s, w.fc.obj); len(calls) > 0 {
				return w.relaunch(s, in, sc)
			}
		}
		w.requeue(s, s.Call, in)
		w.goAttempt(s)
		return in
	case *ast.DeferStmt, *ast.EmptyStmt:
		return in
	}
	return in
}

// terminalIn reports whether an if statement's branches call a function
// that does not return (log.Fatal, panic, os.Exit): they end the attempts.
func (w *walker) terminalIn(s *ast.IfStmt) bool {
	found := false
	ast.Inspect(s.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && w.a.isTerminal(call) {
			found = true
		}
		return !found
	})
	if !found && s.Else != nil {
		ast.Inspect(s.Else, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && w.a.isTerminal(call) {
				found = true
			}
			return !found
		})
	}
	return found
}

// relaunch follows a go statement that runs the analysed function again:
// the new goroutine is the next round, after what the function literal
// it starts does first (a wait).
func (w *walker) relaunch(s *ast.GoStmt, in []*path, sc scope) []*path {
	lit, ok := s.Call.Fun.(*ast.FuncLit)
	if !ok {
		w.round(in, s)
		return nil
	}
	copies := make([]*path, 0, len(in))
	for _, p := range in {
		copies = append(copies, p.clone())
	}
	w.stmts(lit.Body.List, copies, sc)
	return nil
}

// retryLit returns, in the recursion form, the closure of the function
// that calls it again which a statement calls (return retry(err)), or nil.
func (w *walker) retryLit(s ast.Stmt) *ast.FuncLit {
	if w.lc.mode != modeRecursion || len(w.fc.retryLits) == 0 {
		return nil
	}
	var lit *ast.FuncLit
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && lit == nil {
				lit = w.fc.retryLits[w.info().Uses[id]]
			}
		}
		return lit == nil
	})
	return lit
}

// inline follows the body of a closure that calls the function again, as
// if written where it is called: its call of the function is the next
// round, its other returns leave.
func (w *walker) inline(lit *ast.FuncLit, in []*path, sc scope) []*path {
	copies := make([]*path, 0, len(in))
	for _, p := range in {
		copies = append(copies, p.clone())
	}
	return w.stmts(lit.Body.List, copies, sc)
}

// selfCall reports whether, in the recursion form, a statement calls the
// function being analysed.
func (w *walker) selfCall(s ast.Stmt) bool {
	if w.lc.mode != modeRecursion {
		return false
	}
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if fn := w.a.callee(n); fn != nil && fn.Origin() == w.fc.obj {
				found = true
			}
		}
		return true
	})
	return found
}

func (w *walker) round(in []*path, n ast.Node) {
	for _, p := range in {
		w.rounds = append(w.rounds, event{p, n})
	}
}

func (w *walker) exit(in []*path, n ast.Node) {
	for _, p := range in {
		w.exits = append(w.exits, event{p, n})
	}
}

func (w *walker) branch(s *ast.BranchStmt, in []*path, sc scope) []*path {
	label := ""
	if s.Label != nil {
		label = s.Label.Name
	}
	switch s.Tok {
	case token.BREAK:
		switch {
		case label == "" && sc.breakDepth > 0, label != "" && sc.innerLabels[label]:
			if sc.breakSink != nil {
				*sc.breakSink = append(*sc.breakSink, in...)
			}
		default:
			w.exit(in, s)
		}
	case token.CONTINUE:
		switch {
		case label == "" && sc.loopDepth > 0, label != "" && sc.innerLabels[label]:
			if sc.contSink != nil {
				*sc.contSink = append(*sc.contSink, in...)
			}
		case label == "" || label == w.lc.label:
			if w.lc.mode == modeFor {
				w.round(in, s)
			} else {
				w.exit(in, s)
			}
		default:
			w.exit(in, s)
		}
	case token.GOTO:
		switch {
		case w.lc.mode == modeGoto && label == w.lc.label:
			w.round(in, s)
		case w.forwardLabel(s):
			if w.gotos == nil {
				w.gotos = map[string][]*path{}
			}
			w.gotos[label] = append(w.gotos[label], in...)
		default:
			w.exit(in, s)
		}
	case token.FALLTHROUGH:
		return in
	}
	return nil
}

func (w *walker) nested(sc scope, loop bool) (scope, *[]*path, *[]*path) {
	var brk, cont []*path
	inner := sc
	inner.breakDepth++
	inner.breakSink = &brk
	if loop {
		inner.loopDepth++
		inner.contSink = &cont
	}
	return inner, &brk, &cont
}

func (w *walker) switchStmt(s *ast.SwitchStmt, in []*path, sc scope) []*path {
	if s.Init != nil {
		in = w.stmt(s.Init, in, sc)
	}
	inner, brk, _ := w.nested(sc, false)
	var out []*path
	rest := in
	var dflt *ast.CaseClause
	for _, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			dflt = cc
			continue
		}
		var t []*path
		t, rest = w.caseCond(s.Tag, cc.List, rest)
		out = append(out, w.stmts(cc.Body, t, inner)...)
	}
	if dflt != nil {
		out = append(out, w.stmts(dflt.Body, rest, inner)...)
	} else {
		out = append(out, rest...)
	}
	return append(out, *brk...)
}

// caseCond splits paths on one case clause: those where one of the values
// matches, and those where none does.
func (w *walker) caseCond(tag ast.Expr, values []ast.Expr, in []*path) (t, f []*path) {
	f = in
	for _, v := range values {
		var tt []*path
		if tag != nil {
			tt, f = w.compare(tag, token.EQL, v, f, 0)
		} else {
			tt, f = w.cond(v, f, 0)
		}
		t = append(t, tt...)
	}
	return t, f
}

func (w *walker) typeSwitch(s *ast.TypeSwitchStmt, in []*path, sc scope) []*path {
	if s.Init != nil {
		in = w.stmt(s.Init, in, sc)
	}
	var guard ast.Expr
	switch a := s.Assign.(type) {
	case *ast.AssignStmt:
		if len(a.Rhs) == 1 {
			guard = a.Rhs[0]
		}
	case *ast.ExprStmt:
		guard = a.X
	}
	onErr := false
	if ta, ok := ast.Unparen(guard).(*ast.TypeAssertExpr); ok {
		onErr = isError(w.a.typeOf(ta.X))
	}
	inner, brk, _ := w.nested(sc, false)
	var out []*path
	for _, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		paths := make([]*path, 0, len(in))
		for _, p := range in {
			q := p.clone()
			if onErr {
				q.classified = true
				q.guard = guardError
				open := false
				for _, t := range cc.List {
					if w.a.isBreakerOpen(t) {
						open = true
					}
				}
				switch {
				case open:
					q.breakerOpen = true
				case cc.List != nil && !isNilIdent(cc.List[0]):
					q.breakerExcluded = true
				}
			}
			paths = append(paths, q)
		}
		out = append(out, w.stmts(cc.Body, paths, inner)...)
	}
	if !hasDefault(s.Body) {
		out = append(out, in...)
	}
	return append(out, *brk...)
}

func hasDefault(b *ast.BlockStmt) bool {
	for _, c := range b.List {
		switch c := c.(type) {
		case *ast.CaseClause:
			if c.List == nil {
				return true
			}
		case *ast.CommClause:
			if c.Comm == nil {
				return true
			}
		}
	}
	return false
}

func isNilIdent(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "nil"
}

func (w *walker) selectStmt(s *ast.SelectStmt, in []*path, sc scope) []*path {
	inner, brk, _ := w.nested(sc, false)
	ctxAware := false
	for _, c := range s.Body.List {
		if cc := c.(*ast.CommClause); cc.Comm != nil && w.a.ctxDone(recvOf(cc.Comm)) {
			ctxAware = true
		}
	}
	var out []*path
	for _, c := range s.Body.List {
		cc := c.(*ast.CommClause)
		paths := make([]*path, 0, len(in))
		for _, p := range in {
			paths = append(paths, p.clone())
		}
		if cc.Comm != nil {
			recv := recvOf(cc.Comm)
			switch {
			case recv == nil:
			case w.a.ctxDone(recv):
				for _, p := range paths {
					p.guard, p.bound = guardBound, BoundContext
					p.inDone = true
					p.cancelled = true
				}
			case w.oneShot(recv):
				// timeout := time.After(d) before the loop: it fires
				// once, when the retries have run out of time.
				for _, p := range paths {
					p.guard, p.bound = guardBound, BoundDeadline
				}
			case hasDefault(s.Body) && isTimeChan(w.a.typeOf(recv)):
				// A select with a default never blocks: draining a
				// timer's channel before Reset is not a wait.
			case w.attemptChan(recv) != nil:
				// The outcome of the attempt a goroutine of this round
				// makes: no stop channel.
				if at := w.attemptChan(recv); at.success {
					for _, p := range paths {
						p.last, p.guard = at.op, guardError
						p.errs[at.op] = errFact{op: at.op, state: errNil}
					}
				}
			default:
				if wt := w.recvWait(recv, cc.Comm); wt != nil {
					wt.Select = true
					wt.ContextAware = ctxAware
					for _, p := range paths {
						p.waits = append(p.waits, wt)
					}
				} else if !isTimeChan(w.a.typeOf(recv)) {
					// Any other channel (a stop or done channel, a
					// result) ends the wait from outside the loop, and
					// whatever the case does to leave leaves on it
					// (case _, ok := <-stop: if !ok { return }).
					for _, p := range paths {
						p.guard, p.bound = guardBound, BoundContext
						p.inDone = true
					}
				}
			}
			if send, ok := cc.Comm.(*ast.SendStmt); ok {
				w.sends(send, paths)
			}
			paths = w.effects(cc.Comm, paths, true)
		}
		out = append(out, w.stmts(cc.Body, paths, inner)...)
	}
	out = append(out, *brk...)
	for _, p := range out {
		p.inDone = false
	}
	return out
}

func isTimeChan(t types.Type) bool {
	c, ok := t.(*types.Chan)
	return ok && isNamed(c.Elem(), "time", "Time")
}

// recvOf returns the channel expression a select case receives from.
func recvOf(s ast.Stmt) ast.Expr {
	var e ast.Expr
	switch s := s.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			e = s.Rhs[0]
		}
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u.X
	}
	return nil
}

// innerLoop follows a loop nested in the analysed one: its body may run or
// not, and its break and continue stay inside it.
func (w *walker) innerLoop(s ast.Stmt, in []*path, sc scope) []*path {
	inner, brk, cont := w.nested(sc, true)
	var body *ast.BlockStmt
	switch s := s.(type) {
	case *ast.ForStmt:
		if s.Init != nil {
			in = w.stmt(s.Init, in, sc)
		}
		body = s.Body
	case *ast.RangeStmt:
		body = s.Body
	}
	copies := make([]*path, 0, len(in))
	for _, p := range in {
		copies = append(copies, p.clone())
	}
	grows := w.roundsGrow(s)
	if grows {
		w.repeated++
	}
	out := w.stmts(body.List, copies, inner)
	if grows {
		w.repeated--
	}
	if f, ok := s.(*ast.ForStmt); ok && f.Cond == nil {
		// for { ... } is left only by break: consuming a stream until
		// it fails leaves with the stream's failure.
		return *brk
	}
	out = append(out, *brk...)
	out = append(out, *cont...)
	return append(in, out...)
}

// roundsGrow reports whether an inner loop's number of rounds is computed
// from a counter of the analysed loop: a countdown of ticks that grows
// with the attempt (for i := attempt * 5; i > 0; i--). The inner loop's
// own counter, which its init and post statements write, is not one.
func (w *walker) roundsGrow(s ast.Stmt) bool {
	var parts []ast.Node
	own := map[types.Object]bool{}
	switch s := s.(type) {
	case *ast.ForStmt:
		parts = []ast.Node{s.Init, s.Cond}
		for _, st := range []ast.Stmt{s.Init, s.Post} {
			switch st := st.(type) {
			case *ast.AssignStmt:
				for _, l := range st.Lhs {
					own[w.objOf(l)] = true
				}
			case *ast.IncDecStmt:
				own[w.objOf(st.X)] = true
			}
		}
	case *ast.RangeStmt:
		parts = []ast.Node{s.X}
	}
	found := false
	for _, n := range parts {
		if n == nil || found {
			continue
		}
		ast.Inspect(n, func(m ast.Node) bool {
			if id, ok := m.(*ast.Ident); ok {
				obj := w.info().ObjectOf(id)
				found = w.lc.counters[obj] && !own[obj]
			}
			return !found
		})
	}
	return found
}

// simple applies the effects of a statement without control flow.
func (w *walker) simple(s ast.Stmt, in []*path) []*path {
	return w.effects(s, in, false)
}

// goAttempt records the channels a goroutine started in the loop reports
// its attempt on: go f(..., done, errCh), where f is the attempt, or go
// func() { errCh <- op() }(), where op is.
func (w *walker) goAttempt(s *ast.GoStmt) {
	if w.lc.mode == modeRecursion {
		return
	}
	add := func(ch ast.Expr, at goAttempt) {
		obj := w.objOf(ch)
		if obj == nil {
			return
		}
		if w.goAttempts == nil {
			w.goAttempts = map[types.Object]goAttempt{}
		}
		w.goAttempts[obj] = at
	}
	if lit, ok := ast.Unparen(s.Call.Fun).(*ast.FuncLit); ok {
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if send, ok := n.(*ast.SendStmt); ok && isErrorChan(w.a.typeOf(send.Chan)) {
				if call, ok := ast.Unparen(send.Value).(*ast.CallExpr); ok && w.a.errorResult(call) >= 0 {
					add(send.Chan, goAttempt{op: call})
				}
			}
			return true
		})
		return
	}
	var errChans, others []ast.Expr
	for _, arg := range s.Call.Args {
		switch t := w.a.typeOf(arg); {
		case isErrorChan(t):
			errChans = append(errChans, arg)
		case t != nil && !isTimeChan(t):
			if _, ok := t.Underlying().(*types.Chan); ok {
				others = append(others, arg)
			}
		}
	}
	split := len(others) > 0
	if len(errChans) != 1 || !split && !w.a.doesIO(s.Call) {
		return // an attempt says how it went on channels of its own, or reaches another system
	}
	add(errChans[0], goAttempt{op: s.Call, failureOnly: split})
	for _, ch := range others {
		add(ch, goAttempt{op: s.Call, success: true})
	}
}

// attemptChan returns how a receive from ch reports the attempt of a
// goroutine the loop started, or nil.
func (w *walker) attemptChan(ch ast.Expr) *goAttempt {
	obj := w.objOf(ch)
	if obj == nil {
		return nil
	}
	if at, ok := w.goAttempts[obj]; ok {
		return &at
	}
	return nil
}

// isErrorChan reports a channel of errors.
func isErrorChan(t types.Type) bool {
	if t == nil {
		return false
	}
	c, ok := t.Underlying().(*types.Chan)
	return ok && isError(c.Elem())
}
