package retrylib

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzer/internal/predicates"
)

// This file runs a small predicate given to a library — a CheckRetry
// policy, an OnError retriable, a wait condition, an AWS IsErrorRetryable
// — for one kind of failure at a time, to tell which failures it retries.

// tri is a truth value that may be unknown, the shared evaluator's.
type tri = predicates.Truth

const (
	triUnknown = predicates.Unknown
	triFalse   = predicates.False
	triTrue    = predicates.True
)

func triOf(b bool) tri { return predicates.Of(b) }

// scenario runs a small predicate (a CheckRetry policy, an OnError
// retriable, an AWS IsErrorRetryable) for one kind of failure and tells
// whether the predicate retries it, through the shared evaluator. The
// hooks describe the failure: value gives the constant an expression has
// in it (resp.StatusCode is 404), truth the truth of a boolean atom
// (apierrors.IsNotFound(err) holds), and verdict reads a returned value as
// "retry" or not. A condition that depends on neither runs both ways.
type scenario struct {
	value   func(ast.Expr) constant.Value
	truth   func(ast.Expr) tri
	verdict func(ast.Expr) tri
	// onReturn, when set, reads a whole return statement instead of
	// verdict reading its first result.
	onReturn func(*ast.ReturnStmt) tri
	run      *predicates.Run
}

func (t *reader) newScenario() *scenario {
	s := &scenario{}
	s.run = &predicates.Run{
		Info:      t.info,
		Undecided: predicates.Fork,
		Value: func(e ast.Expr) constant.Value {
			if s.value == nil {
				return nil
			}
			return s.value(e)
		},
		Truth: func(e ast.Expr) tri {
			if s.truth == nil {
				return triUnknown
			}
			return s.truth(e)
		},
		Answer: func(r *ast.ReturnStmt) tri {
			switch {
			case s.onReturn != nil:
				return s.onReturn(r)
			case len(r.Results) == 0 || s.verdict == nil:
				return triUnknown
			}
			return s.verdict(r.Results[0])
		},
		Follow: t.sole,
	}
	return s
}

// retries runs the body of a predicate: the verdict of the first return
// statement reached, or unknown.
func (s *scenario) retries(body *ast.BlockStmt) tri {
	if body == nil {
		return triUnknown
	}
	v, _ := s.run.Body(body.List)
	return v
}

// eval evaluates a condition in the scenario.
func (s *scenario) eval(e ast.Expr) tri { return s.run.Bool(e) }

// boolVerdict reads a returned bool: retry when it is true.
func (s *scenario) boolVerdict(e ast.Expr) tri { return s.eval(e) }

// execReturns runs stmts, reading each return statement with read.
func (s *scenario) execReturns(stmts []ast.Stmt, read func(*ast.ReturnStmt) tri) (tri, bool) {
	s.onReturn = read
	defer func() { s.onReturn = nil }()
	return s.run.Body(stmts)
}

// sole follows a local variable to the one value the function ever gives
// it — for the first of several results of a call, that call — so that a
// predicate reads the same on every path through it; any other
// expression, and a variable given several values, is returned as it is.
func (t *reader) sole(e ast.Expr) ast.Expr {
	for range maxTrace {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return e
		}
		v, ok := t.info.Uses[id].(*types.Var)
		if !ok {
			return e
		}
		value, index, ok := t.soleAssignment(v)
		if !ok || index > 0 {
			return e
		}
		e = value
	}
	return e
}

// soleAssignment returns the one value given to a local variable in the
// function that declares it, with its place among a call's results (-1
// when it is not one of several); ok is false for a package variable, a
// parameter, or a variable given no value or several.
func (t *reader) soleAssignment(v *types.Var) (value ast.Expr, index int, ok bool) {
	if v.Pkg() == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil, -1, false
	}
	body := t.declaringBody(v.Pos())
	if body == nil {
		return nil, -1, false
	}
	n := 0
	t.eachAssignment(body, v, func(_ token.Pos, e ast.Expr, i int) {
		value, index = e, i
		n++
	})
	return value, index, n == 1
}

// soleConst returns the constant value of e, following local variables
// given one value and conversions (time.Duration(n)).
func (t *reader) soleConst(e ast.Expr) constant.Value {
	for range maxTrace {
		if e == nil {
			return nil
		}
		if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
			return tv.Value
		}
		if r := t.sole(e); r != e {
			e = r
			continue
		}
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return nil
		}
		if tv, ok := t.info.Types[call.Fun]; !ok || !tv.IsType() {
			return nil
		}
		e = call.Args[0]
	}
	return nil
}
