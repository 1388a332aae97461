package retrylib

import (
	"go/ast"
	"go/types"
	"time"
)

const dskitPath = "github.com/grafana/dskit/backoff"

// dskit reads github.com/grafana/dskit/backoff: a loop written around a
// Backoff, for b.Ongoing() { ...; b.Wait() }. backoff.New(ctx,
// Config{MinBackoff, MaxBackoff, MaxRetries}) waits a random time in a
// window that doubles from [MinBackoff, 2×MinBackoff) up to MaxBackoff:
// always jittered and capped, except that a MaxBackoff at or below
// MinBackoff (or unset) waits exactly MinBackoff every time. MaxRetries 0
// is no limit; ctx ends Ongoing and the waits.
//
// The Retrier is given for each b.Wait() or b.NextDelay() inside a loop
// (Retrier.Loop); a Backoff created inside that loop never grows.
func dskit(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	if fn.Signature().Recv() == nil || fn.Name() != "Wait" && fn.Name() != "NextDelay" {
		return nil
	}
	t := newReader(info, call, enclosing)
	recv, origin, where, loop, fresh, ok := t.pacedCall(call)
	if !ok {
		return nil
	}
	s := unknownSchedule(recv)
	newCall, isNew := isCall(where.info, origin, dskitPath, "New")
	if isNew && len(newCall.Args) == 2 {
		s = where.dskitConfig(newCall, newCall.Args[1])
		s.ctx = where.context(newCall.Args[0])
	}
	// The library bounds the loop only where the loop asks it; its
	// waits end with its context either way.
	if loop == nil || !t.asksOngoing(loop, recv) {
		s.attempts, s.unknown = 0, false
	} else if s.unknown {
		s.ctx.ends = true
	}
	var op ast.Expr
	classified := true
	if loop != nil {
		op, classified = firstErrorCall(t.info, loopBody(loop)), t.waitInspects(loop, call)
		if op == nil {
			return nil // nothing in the loop can fail: a pacing, not a retry
		}
	}
	r := s.retrier(dskitPath, call, op, verdict{classified: classified})
	r.Loop = loop
	r.Waits = true
	if loop == nil {
		opInRetry(r)
	}
	if fs, ok := loop.(*ast.ForStmt); ok && fs.Cond != nil && t.asksOngoing(&ast.ExprStmt{X: fs.Cond}, recv) {
		r.Governs = true
	}
	if reset := t.resetEachRound(loop, recv, dskitPath, call.Pos()); reset != nil && isNew {
		r.Fresh, r.FreshAt = true, reset
		r.Delay.Grows, r.Delay.Capped = false, true
	} else if isNew && fresh {
		r.Fresh, r.FreshAt = true, origin
		r.Delay.Grows, r.Delay.Capped = false, true
	}
	return r
}

// dskitConfig reads a backoff.Config: a literal, a variable with fields
// set after it, or a helper of the package that returns one.
func (t *reader) dskitConfig(newCall *ast.CallExpr, cfg ast.Expr) schedule {
	x, where := t.value(cfg)
	lit, ok := ast.Unparen(x).(*ast.CompositeLit)
	if !ok {
		return unknownSchedule(cfg)
	}
	f := structFields(lit)
	t.setAfter(f, cfg)
	fields := f.value
	s := schedule{at: lit, waits: true, factor: 2}
	var min, max time.Duration
	minKnown, maxKnown := true, true
	if e, ok := fields["MinBackoff"]; ok {
		min, minKnown = where.duration(e)
	}
	if e, ok := fields["MaxBackoff"]; ok {
		max, maxKnown = where.duration(e)
	}
	s.initial, s.initialKnown = min, minKnown
	switch {
	case minKnown && min == 0:
		s.waits = false // the window starts and stays at zero
	case minKnown && maxKnown && max <= min:
		if e, ok := fields["MinBackoff"]; ok {
			s.delay.Value = where.durationText(e)
		} else {
			s.delay.Value = "0s"
		}
	case minKnown && maxKnown && 2*min >= max:
		s.delay = Delay{Random: true, Capped: true}
	default:
		s.delay = Delay{Grows: true, Random: true, Capped: true}
	}
	if e, ok := fields["MaxRetries"]; ok {
		if n, known := where.integer(e); known {
			if n > 0 {
				s.attempts = int(n)
			}
		} else {
			s.unknown = true
		}
	}
	return s
}

// asksOngoing reports whether a loop consults the back-off b for its
// end: b.Ongoing() or b.Err() in its condition or body.
func (t *reader) asksOngoing(loop ast.Stmt, b ast.Expr) bool {
	obj := exprObject(t.info, b)
	found := false
	ast.Inspect(loop, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Ongoing" || sel.Sel.Name == "Err" || sel.Sel.Name == "ErrCause") {
			if fn := callee(t.info, call); fn != nil && fn.Pkg() != nil && Path(fn.Pkg()) == dskitPath && (obj == nil || exprObject(t.info, sel.X) == obj) {
				found = true
			}
		}
		return true
	})
	return found
}

// exprObject returns the variable or field an expression names.
func exprObject(info *types.Info, e ast.Expr) types.Object {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.ObjectOf(x)
	case *ast.SelectorExpr:
		return info.ObjectOf(x.Sel)
	}
	return nil
}

// loopInspects reports whether a hand-written loop's body looks at what
// failed in a condition.
// waitInspects reports whether the failure is inspected on the way to
// the wait: an if around the wait, or an if before it in an enclosing
// block that leaves the round (if !retryable(err) { return err }), tests
// the failure beyond whether there was one. A test elsewhere in the loop
// (a decode error after the wait's branch) does not classify what the
// wait retries. A wait the walk cannot place falls back to the loop.
func (t *reader) waitInspects(loop ast.Stmt, wait ast.Node) bool {
	body := loopBody(loop)
	var chain []ast.Node // from the loop body down to the wait
	var find func(n ast.Node) bool
	find = func(n ast.Node) bool {
		if n == nil {
			return false
		}
		if n == wait {
			return true
		}
		found := false
		ast.Inspect(n, func(c ast.Node) bool {
			if found || c == nil || c == n {
				return !found
			}
			if _, ok := c.(*ast.FuncLit); ok {
				return false
			}
			if c.Pos() <= wait.Pos() && wait.End() <= c.End() {
				if find(c) {
					chain = append(chain, c)
					found = true
				}
				return false
			}
			return true
		})
		return found
	}
	if body == nil || !find(body) {
		return t.loopInspects(loop)
	}
	chain = append(chain, body)
	for i, n := range chain {
		if s, ok := n.(*ast.IfStmt); ok && t.inspects(s.Cond) {
			return true
		}
		// The statements before the wait's own in each block.
		var list []ast.Stmt
		switch b := n.(type) {
		case *ast.BlockStmt:
			list = b.List
		case *ast.CaseClause:
			list = b.Body
		case *ast.CommClause:
			list = b.Body
		default:
			continue
		}
		var next ast.Node
		if i > 0 {
			next = chain[i-1]
		}
		for _, st := range list {
			if next != nil && st.Pos() >= next.Pos() {
				break
			}
			switch st := st.(type) {
			case *ast.IfStmt:
				if t.inspects(st.Cond) && leavesRound(st.Body) {
					return true
				}
			case *ast.SwitchStmt:
				for _, cl := range st.Body.List {
					cc := cl.(*ast.CaseClause)
					for _, c := range caseConds(st.Tag, cc.List) {
						if t.inspects(c) && leavesRound(&ast.BlockStmt{List: cc.Body}) {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// leavesRound reports whether a block ends with a return, break, continue
// or goto: what it filters does not reach the statements after it.
func leavesRound(b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	switch b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	}
	return false
}

func (t *reader) loopInspects(loop ast.Stmt) bool {
	found := false
	ast.Inspect(loopBody(loop), func(n ast.Node) bool {
		if found {
			return false
		}
		switch s := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			found = t.inspects(s.Cond)
		case *ast.SwitchStmt:
			for _, cl := range s.Body.List {
				for _, c := range caseConds(s.Tag, cl.(*ast.CaseClause).List) {
					found = found || t.inspects(c)
				}
			}
		case *ast.TypeSwitchStmt:
			if x := typeSwitchSubject(s); x != nil {
				found = t.inspects(x)
			}
		}
		return true
	})
	return found
}

// firstErrorCall returns the first call in a block whose last result is
// an error: the operation a hand-written loop retries.
func firstErrorCall(info *types.Info, body *ast.BlockStmt) ast.Expr {
	var op ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		if op != nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if sig, ok := types.Unalias(info.TypeOf(call.Fun)).(*types.Signature); ok {
				if r := sig.Results(); r.Len() > 0 && isError(r.At(r.Len()-1).Type()) {
					op = call
				}
			}
		}
		return true
	})
	return op
}

var dskitFixes = map[string]string{
	"fixed-sleep":           "set MaxBackoff above MinBackoff, so that the wait doubles with jitter",
	"unbounded-retry":       "set MaxRetries, or give backoff.New a context that ends",
	"unclassified-retry":    "return at once, before b.Wait(), on errors a retry cannot fix",
	"sleep-ignores-context": "give backoff.New the ctx instead of context.Background()",
}
