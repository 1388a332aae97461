package retrylib

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"time"
)

// text returns the string e evaluates to, following values as value
// does: a constant, a concatenation of readable strings, or fmt.Sprintf
// over constants (a gRPC service config built from a template).
func (t *reader) text(e ast.Expr) (string, bool) { return t.textDepth(e, maxTrace) }

func (t *reader) textDepth(e ast.Expr, depth int) (string, bool) {
	if depth < 0 {
		return "", false
	}
	if c := t.constValue(e); c != nil && c.Kind() == constant.String {
		return constant.StringVal(c), true
	}
	x, where := t.value(e)
	switch x := ast.Unparen(x).(type) {
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		a, ok1 := where.textDepth(x.X, depth-1)
		b, ok2 := where.textDepth(x.Y, depth-1)
		return a + b, ok1 && ok2
	case *ast.CallExpr:
		if !isFunc(callee(where.info, x), "fmt", "Sprintf") || len(x.Args) == 0 || x.Ellipsis.IsValid() {
			return "", false
		}
		format, ok := where.textDepth(x.Args[0], depth-1)
		if !ok {
			return "", false
		}
		args := make([]any, 0, len(x.Args)-1)
		for _, a := range x.Args[1:] {
			v, ok := where.goValue(a)
			if !ok {
				// A string not known here (a service name) is only a
				// name in the document; any other value may be a setting.
				if !isString(where.info.TypeOf(a)) {
					return "", false
				}
				v = "unknown"
			}
			args = append(args, v)
		}
		return fmt.Sprintf(format, args...), true
	}
	return "", false
}

// goValue returns a constant argument as the Go value fmt would format.
func (t *reader) goValue(e ast.Expr) (any, bool) {
	v := t.constValue(e)
	if v == nil {
		return nil, false
	}
	switch v.Kind() {
	case constant.String:
		return constant.StringVal(v), true
	case constant.Int:
		n, ok := constant.Int64Val(v)
		if isNamed(t.info.TypeOf(e), "time", "Duration") {
			return time.Duration(n), ok
		}
		return n, ok
	case constant.Float:
		f, _ := constant.Float64Val(v)
		return f, true
	case constant.Bool:
		return constant.BoolVal(v), true
	}
	return nil, false
}

func isString(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}
