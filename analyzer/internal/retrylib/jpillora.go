package retrylib

import (
	"go/ast"
	"go/types"
	"time"
)

const jpilloraPath = "github.com/jpillora/backoff"

// jpillora reads github.com/jpillora/backoff (v1.1.0): b.Duration() or
// b.ForAttempt(n) in a hand-written loop is that loop's wait, as
// time.Sleep(b.Duration()). The library only paces the loop: it bounds
// nothing and knows no context. From backoff.go at v1.1.0 (ForAttempt,
// lines 57-95): a zero Min is 100ms (line 62), a zero Max 10s (line 66),
// a zero Factor 2 (line 74), Jitter false (field doc, line 28); the wait
// is Min×Factor^attempt clamped to Max (lines 87-93), so it is always
// capped; Min >= Max waits Max every time (line 70); a Factor at or below
// 1 stays at Min; Jitter draws it at random between Min and that value
// (line 80).
//
// A Backoff built inside the loop, or Reset at the start of every round,
// never grows.
func jpillora(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	if fn.Signature().Recv() == nil || fn.Name() != "Duration" && fn.Name() != "ForAttempt" {
		return nil
	}
	t := newReader(info, call, enclosing)
	recv, origin, where, loop, fresh, ok := t.pacedCall(call)
	if !ok {
		return nil
	}
	s := where.jpilloraBackoff(origin, recv, t)
	r := s.retrier(jpilloraPath, call, nil, verdict{classified: true})
	r.Loop = loop
	r.Fixes = jpilloraFixes
	if loop == nil {
		opInRetry(r)
	}
	at := origin
	if reset := t.resetEachRound(loop, recv, jpilloraPath, call.Pos()); reset != nil && !s.unknown {
		fresh, at = true, reset
	}
	if fresh && at != recv && !s.unknown && fn.Name() == "Duration" {
		r.Fresh, r.FreshAt = true, at
		r.Delay.Grows, r.Delay.Capped = false, true
		if !r.Delay.Random {
			r.Delay.Value = s.initialText
		}
	}
	return r
}

// jpilloraSchedule is a schedule with the text of its first wait, which
// a Backoff made anew every round waits every time.
type jpilloraSchedule struct {
	schedule
	initialText string
}

// jpilloraBackoff reads the Backoff a wait is asked of: a literal, with
// the fields set on its variable afterwards, or a variable declared
// without a value (all defaults). use is the reader of the wait.
func (t *reader) jpilloraBackoff(x, use ast.Expr, at *reader) jpilloraSchedule {
	var f fields
	var lit ast.Expr
	switch v := ast.Unparen(x).(type) {
	case *ast.CompositeLit:
		if !t.isJpillora(t.info.TypeOf(v)) {
			return jpilloraSchedule{schedule: unknownSchedule(use)}
		}
		f, lit = structFields(v), v
	case *ast.CallExpr:
		// b.Copy() keeps the constraints of b.
		if c, ok := isCall(t.info, v, jpilloraPath, "Copy"); ok {
			if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
				o, w := t.value(sel.X)
				if o != sel.X || w != t {
					return w.jpilloraBackoff(o, use, at)
				}
			}
		}
		if c, ok := ast.Unparen(v).(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && id.Name == "new" && len(c.Args) == 1 && t.isJpillora(t.info.TypeOf(c.Args[0])) {
				f, lit = newFields(), v
				break
			}
		}
		return jpilloraSchedule{schedule: unknownSchedule(use)}
	case *ast.Ident:
		// var b backoff.Backoff: the zero value, every default.
		obj, _ := t.info.Uses[v].(*types.Var)
		if obj == nil || !t.isJpillora(obj.Type()) {
			return jpilloraSchedule{schedule: unknownSchedule(use)}
		}
		if _, isPtr := obj.Type().(*types.Pointer); isPtr || !t.declaredWithoutValue(obj) {
			return jpilloraSchedule{schedule: unknownSchedule(use)}
		}
		f, lit = newFields(), v
	default:
		return jpilloraSchedule{schedule: unknownSchedule(use)}
	}
	at.setAfter(f, use)
	s := jpilloraSchedule{schedule: schedule{at: lit, waits: true}}
	min, minKnown := 100*time.Millisecond, true
	minText := "100ms"
	if e, ok := f.value["Min"]; ok {
		if d, known := t.duration(e); !known || d > 0 {
			min, minKnown, minText = d, known, t.durationText(e)
		}
	}
	max, maxKnown := 10*time.Second, true
	maxText := "10s"
	if e, ok := f.value["Max"]; ok {
		if d, known := t.duration(e); !known || d > 0 {
			max, maxKnown, maxText = d, known, t.durationText(e)
		}
	}
	factor, factorKnown := 2.0, true
	if e, ok := f.value["Factor"]; ok {
		if v, known := t.float(e); !known || v > 0 {
			factor, factorKnown = v, known
		}
	}
	jitter := false
	if e, ok := f.value["Jitter"]; ok {
		c := t.constValue(e)
		jitter = c == nil || c.String() != "false"
	}
	s.initialText = minText
	switch {
	case minKnown && maxKnown && min >= max:
		s.delay.Value, s.initialText = maxText, maxText
	case factorKnown && factor <= 1:
		s.delay.Value = minText
	default:
		s.delay = Delay{Grows: true, Capped: true, Random: jitter}
		s.initial, s.initialKnown, s.factor = min, minKnown, factor
	}
	return s
}

func (t *reader) isJpillora(typ types.Type) bool {
	if typ == nil {
		return false
	}
	if p, ok := typ.(*types.Pointer); ok {
		typ = p.Elem()
	}
	n, ok := types.Unalias(typ).(*types.Named)
	return ok && n.Obj().Pkg() != nil && Path(n.Obj().Pkg()) == jpilloraPath && n.Obj().Name() == "Backoff"
}

// declaredWithoutValue reports a variable declared by var v T.
func (t *reader) declaredWithoutValue(v *types.Var) bool {
	f := t.fileOf(v.Pos())
	if f == nil {
		return false
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if found {
			return false
		}
		if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Values) == 0 {
			for _, name := range vs.Names {
				if name.Pos() == v.Pos() {
					found = true
				}
			}
		}
		return true
	})
	return found
}

var jpilloraFixes = map[string]string{
	"fixed-sleep": "set Max above Min and Factor above 1, with Jitter: true, in the backoff.Backoff",
	"no-jitter":   "set Jitter: true in the backoff.Backoff",
	"no-cap":      "set Max in the backoff.Backoff",
}
