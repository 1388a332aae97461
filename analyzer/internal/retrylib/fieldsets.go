package retrylib

import (
	"go/ast"
	"go/token"
	"go/types"
)

// This file reads the fields code sets on a configuration value after
// building it — b := backoff.NewExponentialBackOff(); b.MaxElapsedTime =
// 0, or s.http.RetryMax = 3 — and names where a value is kept.

// ref names where a value is kept: a variable, or a chain of field
// selections on one (s.client), by the objects of its names. A package
// variable of another package (retry.DefaultBackoff) is a ref of its own.
type ref []types.Object

// refOf returns the ref an expression names, through parentheses, *x and
// &x; nil for any other expression.
func (t *reader) refOf(e ast.Expr) ref {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := t.info.ObjectOf(x).(*types.Var); ok {
			return ref{v}
		}
	case *ast.SelectorExpr:
		v, ok := t.info.Uses[x.Sel].(*types.Var)
		if !ok {
			return nil
		}
		if !v.IsField() {
			return ref{v} // pkg.Var
		}
		if r := t.refOf(x.X); r != nil {
			return append(r[:len(r):len(r)], v)
		}
	case *ast.StarExpr:
		return t.refOf(x.X)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return t.refOf(x.X)
		}
	}
	return nil
}

// is reports whether two refs name the same place.
func (r ref) is(o ref) bool {
	if len(r) == 0 || len(r) != len(o) {
		return false
	}
	for i := range r {
		if r[i] != o[i] {
			return false
		}
	}
	return true
}

// refers reports whether e names the place r names.
func (t *reader) refers(e ast.Expr, r ref) bool { return r.is(t.refOf(e)) }

// setOn adds to f the fields body assigns on the value target names
// before use (x.Field = v, in source order, a later one replacing an
// earlier).
func (t *reader) setOn(f fields, target ref, body *ast.BlockStmt, use token.Pos) {
	if body == nil || len(target) == 0 {
		return
	}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || as.Pos() >= use || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && t.refers(sel.X, target) {
				f.set(sel.Sel.Name, as.Rhs[i], sel)
			}
		}
		return true
	})
}

// lastSet returns the last value the body gives, before the use, to what
// target names — b := v, b = v, var b = v, c.backoff = v — with the reader
// of it; for a package variable the body does not set, its initialiser.
// Only that one step is taken: a value copied from elsewhere may have had
// fields set there.
func (t *reader) lastSet(target ref) (ast.Expr, *reader) {
	if len(target) == 0 {
		return nil, t
	}
	var rhs ast.Expr
	last := token.NoPos
	if t.body != nil {
		ast.Inspect(t.body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if (n.Tok != token.ASSIGN && n.Tok != token.DEFINE) || n.Pos() >= t.use || len(n.Lhs) != len(n.Rhs) {
					return true
				}
				for i, l := range n.Lhs {
					if t.refers(l, target) {
						rhs, last = n.Rhs[i], n.Pos()
					}
				}
			case *ast.ValueSpec:
				if n.Pos() >= t.use || len(n.Values) != len(n.Names) || len(target) != 1 {
					return true
				}
				for i, id := range n.Names {
					if t.info.Defs[id] == target[0] {
						rhs, last = n.Values[i], n.Pos()
					}
				}
			}
			return true
		})
	}
	if rhs != nil {
		return rhs, &reader{info: t.info, body: t.body, use: last}
	}
	if v, ok := target[0].(*types.Var); ok && len(target) == 1 && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return t.assigned(v)
	}
	return nil, t
}

// setAfter adds to f the fields of the variable that holds the value e
// denotes which are assigned after it was built and before the use:
// b := backoff.NewExponentialBackOff(); b.MaxElapsedTime = 0. The
// variable may be e itself, or one e was copied from, also in a
// constructor that stores it in a field.
func (t *reader) setAfter(f fields, e ast.Expr) {
	v, where := t.holder(e)
	if v == nil {
		return
	}
	body := where.body
	if body == nil || !(body.Pos() <= v.Pos() && v.Pos() < body.End()) {
		body = t.declaringBody(v.Pos())
	}
	if body == nil {
		return
	}
	use := t.use
	if !(body.Pos() <= use && use < body.End()) {
		use = body.End()
	}
	t.setOn(f, ref{v}, body, use)
}

// holder returns the last variable on the way from e to the value it
// denotes: the one the constructor's result was assigned to.
func (t *reader) holder(e ast.Expr) (*types.Var, *reader) {
	var held *types.Var
	cur := t
	for range maxTrace {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X
			continue
		}
		var rhs ast.Expr
		var where *reader
		switch x := e.(type) {
		case *ast.Ident:
			v, ok := cur.info.Uses[x].(*types.Var)
			if !ok {
				return held, cur
			}
			held = v
			rhs, where = cur.assigned(v)
		case *ast.SelectorExpr:
			v, ok := cur.info.Uses[x.Sel].(*types.Var)
			if !ok || !v.IsField() {
				return held, cur
			}
			rhs, where = cur.fieldValue(v)
		default:
			return held, cur
		}
		if rhs == nil {
			return held, cur
		}
		switch ast.Unparen(rhs).(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.UnaryExpr:
			e, cur = rhs, where
			continue
		}
		return held, cur
	}
	return held, cur
}
