package retrylib

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"time"
)

// This file reads the shape of the wait a back-off function of the code
// returns: whether it grows with the attempt, is random, and is capped.

// shape is what a back-off function's result is made of.
type shape struct {
	Delay
	unknown bool
}

func (a shape) or(b shape) shape {
	return shape{Delay: Delay{
		Grows:  a.Grows || b.Grows,
		Random: a.Random || b.Random,
		Capped: a.Capped || b.Capped,
	}, unknown: a.unknown || b.unknown}
}

// delayFunc is a back-off function being read: a function literal or a
// function of the package, and its attempt parameter.
type delayFunc struct {
	typ     *ast.FuncType
	body    *ast.BlockStmt
	attempt types.Object
}

// declares reports whether obj is declared in the function: a parameter
// or a local variable, not a value captured from around it.
func (f delayFunc) declares(obj types.Object) bool {
	return f.typ.Pos() <= obj.Pos() && obj.Pos() < f.body.End()
}

// funcDelay reads the wait a back-off function returns (a retryablehttp
// Backoff, an AWS BackoffDelayerFunc), given its type and body: it grows
// when its parameter number attempt enters it, is random when a random
// source does, and capped when min or a comparison clamps it. known is
// false when the result comes from code that cannot be read.
func (t *reader) funcDelay(typ *ast.FuncType, body *ast.BlockStmt, attempt int) (d Delay, known bool) {
	fn := delayFunc{typ: typ, body: body, attempt: paramObj(t.info, typ, attempt)}
	var results []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) > 0 {
				results = append(results, n.Results[0])
			}
		}
		return true
	})
	if len(results) == 0 {
		return Delay{}, false
	}
	var s shape
	fixed := true
	for _, r := range results {
		rs := t.shapeOf(fn, r, 0)
		s = s.or(rs)
		if rs.Grows || rs.Random || rs.unknown {
			fixed = false
		}
	}
	if s.unknown && !s.Random {
		return Delay{}, false
	}
	if fixed && len(results) == 1 {
		s.Value = types.ExprString(results[0])
		if c := constant.ToInt(t.soleConst(results[0])); c.Kind() == constant.Int {
			if n, ok := constant.Int64Val(c); ok {
				s.Value = time.Duration(n).String()
			}
		}
	}
	return s.Delay, true
}

func (t *reader) shapeOf(fn delayFunc, e ast.Expr, depth int) shape {
	if depth > 12 {
		return shape{unknown: true}
	}
	e = ast.Unparen(e)
	if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
		return shape{}
	}
	switch x := e.(type) {
	case *ast.Ident:
		obj := t.info.Uses[x]
		if obj == nil {
			return shape{unknown: true}
		}
		if obj == fn.attempt {
			return shape{Delay: Delay{Grows: true}}
		}
		if !fn.declares(obj) {
			return shape{} // a parameter of the library or a captured value: fixed for the call
		}
		return t.varShape(fn, obj, depth)
	case *ast.BinaryExpr:
		a, b := t.shapeOf(fn, x.X, depth+1), t.shapeOf(fn, x.Y, depth+1)
		return a.or(b)
	case *ast.UnaryExpr:
		return t.shapeOf(fn, x.X, depth+1)
	case *ast.SelectorExpr:
		return shape{}
	case *ast.CallExpr:
		return t.callShape(fn, x, depth)
	}
	return shape{unknown: true}
}

func (t *reader) varShape(fn delayFunc, obj types.Object, depth int) shape {
	var s shape
	capped := false
	ast.Inspect(fn.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok || (t.info.Defs[id] != obj && t.info.Uses[id] != obj) {
					continue
				}
				if len(n.Rhs) != len(n.Lhs) {
					s.unknown = true
					continue
				}
				rs := t.shapeOf(fn, n.Rhs[i], depth+1)
				switch n.Tok {
				case token.MUL_ASSIGN, token.SHL_ASSIGN, token.ADD_ASSIGN:
					rs.Grows = true
				}
				s = s.or(rs)
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if t.info.Defs[id] == obj && i < len(n.Values) {
					s = s.or(t.shapeOf(fn, n.Values[i], depth+1))
				}
			}
		case *ast.IfStmt:
			if be, ok := ast.Unparen(n.Cond).(*ast.BinaryExpr); ok && (be.Op == token.GTR || be.Op == token.GEQ) && t.refers(be.X, ref{obj}) {
				capped = true
			}
		}
		return true
	})
	s.Capped = s.Capped || capped
	return s
}

func (t *reader) callShape(fn delayFunc, call *ast.CallExpr, depth int) shape {
	args := func() shape {
		var s shape
		for _, a := range call.Args {
			s = s.or(t.shapeOf(fn, a, depth+1))
		}
		return s
	}
	if tv, ok := t.info.Types[call.Fun]; ok && tv.IsType() {
		return args()
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := t.info.Uses[id].(*types.Builtin); ok {
			s := args()
			if b.Name() == "min" {
				s.Capped = true
			}
			return s
		}
	}
	f := callee(t.info, call)
	if f == nil || f.Pkg() == nil {
		return shape{unknown: true}
	}
	switch path := Path(f.Pkg()); {
	case path == "math/rand" || path == "math/rand/v2" || path == "crypto/rand":
		s := args()
		s.Random = true
		return s
	case path == "math":
		s := args()
		if f.Name() == "Min" {
			s.Capped = true
		}
		return s
	case isFunc(f, "time", "Duration"):
		return args()
	case isFunc(f, "k8s.io/apimachinery/pkg/util/wait", "Jitter"):
		s := args()
		s.Random = true
		return s
	case isFunc(f, retryablehttpPath, "DefaultBackoff"):
		return shape{Delay: Delay{Grows: true, Capped: true}}
	case isFunc(f, retryablehttpPath, "LinearJitterBackoff"), isFunc(f, retryablehttpPath, "RateLimitLinearJitterBackoff"):
		return shape{Delay: Delay{Grows: true, Random: true, Capped: true}}
	case path == awsRetryPath && f.Name() == "BackoffDelay":
		return shape{Delay: Delay{Grows: true, Random: true, Capped: true}}
	}
	return shape{unknown: true}
}
