package retryloop

import (
	"go/ast"
	"go/token"
)

// uncancellable reports whether the wait at n runs only where the loop's
// context is nil or cannot be cancelled: in the branch of
// `if ctx != nil { select ... } else { time.Sleep(d) }`, or after
// `if done := ctx.Done(); done != nil { ...; continue }`. Such a wait has
// no cancellation to honour.
func (a *checker) uncancellable(body *ast.BlockStmt, n ast.Node) bool {
	if body == nil || n == nil {
		return false
	}
	var stack []ast.Node
	var chain []ast.Node
	ast.Inspect(body, func(m ast.Node) bool {
		if chain != nil {
			return false
		}
		if m == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if m.Pos() > n.Pos() || m.End() < n.End() {
			return false // n is not inside m
		}
		stack = append(stack, m)
		if m == n {
			chain = append([]ast.Node(nil), stack...)
		}
		return true
	})
	for i := 0; i+1 < len(chain); i++ {
		child := chain[i+1]
		switch p := chain[i].(type) {
		case *ast.IfStmt:
			isNil, ok := a.contextNilTest(p.Cond, p.Init)
			if !ok {
				continue
			}
			if isNil && child == p.Body || !isNil && p.Else != nil && child == p.Else {
				return true
			}
		case *ast.BlockStmt:
			for _, st := range p.List {
				if st == child {
					break
				}
				is, ok := st.(*ast.IfStmt)
				if !ok || is.Else != nil || !leavesBlock(is.Body) {
					continue
				}
				if isNil, ok := a.contextNilTest(is.Cond, is.Init); ok && !isNil {
					return true
				}
			}
		}
	}
	return false
}

// contextNilTest reads `x == nil` or `x != nil` where x is a context or
// the channel its Done() returns (done := ctx.Done() in init); isNil is
// true for ==.
func (a *checker) contextNilTest(cond ast.Expr, init ast.Stmt) (isNil, ok bool) {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL && b.Op != token.NEQ || !isNilIdent(b.Y) {
		return false, false
	}
	x := ast.Unparen(b.X)
	if isContext(a.typeOf(x)) || a.ctxDone(x) {
		return b.Op == token.EQL, true
	}
	id, isID := x.(*ast.Ident)
	as, isAssign := init.(*ast.AssignStmt)
	if !isID || !isAssign || len(as.Lhs) != len(as.Rhs) {
		return false, false
	}
	for i, l := range as.Lhs {
		if lid, ok := l.(*ast.Ident); ok && a.info().ObjectOf(lid) == a.info().ObjectOf(id) && a.ctxDone(as.Rhs[i]) {
			return b.Op == token.EQL, true
		}
	}
	return false, false
}

// leavesBlock reports whether a block ends in a return or a branch: the
// statements after the if holding it run only when its test failed. A
// select ending it leaves when every case does; there a bare break only
// ends the select.
func leavesBlock(b *ast.BlockStmt) bool {
	return endsInJump(b.List, false)
}

func endsInJump(list []ast.Stmt, inSelect bool) bool {
	if len(list) == 0 {
		return false
	}
	switch last := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return !inSelect || last.Tok != token.BREAK || last.Label != nil
	case *ast.SelectStmt:
		for _, c := range last.Body.List {
			if !endsInJump(c.(*ast.CommClause).Body, true) {
				return false
			}
		}
		return true
	}
	return false
}
