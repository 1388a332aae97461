package retrylib

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"time"
)

// tracer follows the configuration of a retrying call through the body of
// the function that holds it: the values given to a variable, the fields
// set on it afterwards, and the constants those values come to.
type tracer struct {
	info *types.Info
	body *ast.BlockStmt
	// parent maps each node of body to the node that holds it.
	parent map[ast.Node]ast.Node
}

func newTracer(info *types.Info, body *ast.BlockStmt) *tracer {
	t := &tracer{info: info, body: body, parent: map[ast.Node]ast.Node{}}
	if body == nil {
		return t
	}
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if len(stack) > 0 {
			t.parent[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return t
}

// inspect walks the body of the function, if there is one.
func (t *tracer) inspect(f func(ast.Node) bool) {
	if t.body != nil {
		ast.Inspect(t.body, f)
	}
}

// up returns the nearest ancestor of n that is not a parenthesis.
func (t *tracer) up(n ast.Node) ast.Node {
	p := t.parent[n]
	for {
		pe, ok := p.(*ast.ParenExpr)
		if !ok {
			return p
		}
		p = t.parent[pe]
	}
}

// keyOf names the value an expression refers to — a variable or a chain
// of field selections on one (s.client) — or "" for any other expression.
func keyOf(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		if k := keyOf(e.X); k != "" {
			return k + "." + e.Sel.Name
		}
	case *ast.StarExpr:
		return keyOf(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return keyOf(e.X)
		}
	}
	return ""
}

// assignment is one value given to a key: x := v, x = v or var x = v.
// Index is the position of x among the left-hand sides when the right-hand
// side is one call returning several values.
type assignment struct {
	Value ast.Expr
	Index int
	At    ast.Node
}

// assignments lists the values given to key in the body, in source order.
func (t *tracer) assignments(key string) []assignment {
	var out []assignment
	if t.body == nil || key == "" {
		return nil
	}
	t.inspect(func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
				return true
			}
			for i, lhs := range n.Lhs {
				if keyOf(lhs) != key || (len(n.Rhs) != len(n.Lhs) && len(n.Rhs) != 1) {
					continue
				}
				if len(n.Rhs) == len(n.Lhs) {
					out = append(out, assignment{Value: n.Rhs[i], At: n})
				} else {
					out = append(out, assignment{Value: n.Rhs[0], Index: i, At: n})
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if name.Name != key {
					continue
				}
				switch {
				case len(n.Values) == len(n.Names):
					out = append(out, assignment{Value: n.Values[i], At: n})
				case len(n.Values) == 1:
					out = append(out, assignment{Value: n.Values[0], Index: i, At: n})
				}
			}
		}
		return true
	})
	return out
}

// origin returns the last value given to key before pos, or nil.
func (t *tracer) origin(key string, pos token.Pos) *assignment {
	var last *assignment
	for _, a := range t.assignments(key) {
		if a.At.Pos() < pos {
			a := a
			last = &a
		}
	}
	return last
}

// fieldSet is key.Field = Value.
type fieldSet struct {
	Field string
	Value ast.Expr
	At    ast.Node
}

// fieldSets lists the fields set on key in the body, in source order.
func (t *tracer) fieldSets(key string) []fieldSet {
	var out []fieldSet
	if t.body == nil || key == "" {
		return nil
	}
	t.inspect(func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, lhs := range as.Lhs {
			sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
			if ok && keyOf(sel.X) == key {
				out = append(out, fieldSet{Field: sel.Sel.Name, Value: as.Rhs[i], At: as})
			}
		}
		return true
	})
	return out
}

// literalFields returns the fields a composite literal sets, by name.
func literalFields(lit *ast.CompositeLit) map[string]ast.Expr {
	out := map[string]ast.Expr{}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				out[id.Name] = kv.Value
			}
		}
	}
	return out
}

// resolve follows a local variable to the single value it is given in the
// body; any other expression is returned as it is.
func (t *tracer) resolve(e ast.Expr) ast.Expr {
	for range 8 {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return e
		}
		v, ok := t.info.Uses[id].(*types.Var)
		if !ok || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
			return e
		}
		as := t.assignments(id.Name)
		if len(as) != 1 || as[0].Index != 0 {
			return e
		}
		e = as[0].Value
	}
	return e
}

// constOf returns the constant value of e, following local variables
// given one value.
func (t *tracer) constOf(e ast.Expr) constant.Value {
	if e == nil {
		return nil
	}
	if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
		return tv.Value
	}
	r := t.resolve(e)
	if r != e {
		return t.constOf(r)
	}
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := t.info.Types[call.Fun]; ok && tv.IsType() {
			return t.constOf(call.Args[0]) // a conversion: time.Duration(n)
		}
	}
	return nil
}

func (t *tracer) intOf(e ast.Expr) (int64, bool) {
	v := constant.ToInt(t.constOf(e))
	if v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

func (t *tracer) floatOf(e ast.Expr) (float64, bool) {
	v := constant.ToFloat(t.constOf(e))
	if v.Kind() != constant.Float {
		return 0, false
	}
	f, _ := constant.Float64Val(v)
	return f, true
}

func (t *tracer) durationOf(e ast.Expr) (time.Duration, bool) {
	n, ok := t.intOf(e)
	return time.Duration(n), ok
}

// stringOf returns the string e evaluates to: a constant, a concatenation
// of readable strings, or fmt.Sprintf over constants.
func (t *tracer) stringOf(e ast.Expr) (string, bool) {
	if v := t.constOf(e); v != nil && v.Kind() == constant.String {
		return constant.StringVal(v), true
	}
	if lit, ok := t.packageValue(e).(*ast.BasicLit); ok && lit.Kind == token.STRING {
		return t.stringOf(lit)
	}
	switch x := ast.Unparen(t.resolve(e)).(type) {
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		a, ok1 := t.stringOf(x.X)
		b, ok2 := t.stringOf(x.Y)
		return a + b, ok1 && ok2
	case *ast.CallExpr:
		fn := t.callee(x)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || fn.Name() != "Sprintf" || len(x.Args) == 0 || x.Ellipsis.IsValid() {
			return "", false
		}
		format, ok := t.stringOf(x.Args[0])
		if !ok {
			return "", false
		}
		args := make([]any, 0, len(x.Args)-1)
		for _, a := range x.Args[1:] {
			v, ok := t.goValue(a)
			if !ok {
				// A string not known here (a service name) is only a
				// name in the document; any other value may be a setting.
				if !t.isString(a) {
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
func (t *tracer) goValue(e ast.Expr) (any, bool) {
	v := t.constOf(e)
	if v == nil {
		return nil, false
	}
	switch v.Kind() {
	case constant.String:
		return constant.StringVal(v), true
	case constant.Int:
		n, ok := constant.Int64Val(v)
		if tv, ok2 := t.info.Types[e]; ok2 && isDuration(tv.Type) {
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

func isDuration(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// callee returns the function or method a call invokes, or nil.
func (t *tracer) callee(call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.IndexExpr:
		return nil
	default:
		return nil
	}
	fn, _ := t.info.Uses[id].(*types.Func)
	return fn
}

// calls reports whether e is a call to path.name (one of names).
func (t *tracer) calls(e ast.Expr, path string, names ...string) (*ast.CallExpr, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	fn := t.callee(call)
	for _, n := range names {
		if isFunc(fn, path, n) {
			return call, true
		}
	}
	return nil, false
}

// refersTo reports whether the value named by e is the package-level
// object path.name (a function value or variable).
func (t *tracer) refersTo(e ast.Expr, path, name string) bool {
	id := nameIdent(e)
	if id == nil {
		return false
	}
	obj := t.info.Uses[id]
	return obj != nil && obj.Pkg() != nil && Path(obj.Pkg()) == path && obj.Name() == name
}

// liveContext reports whether e is a context that can end: any
// context.Context but context.Background() and context.TODO(), followed
// through local variables.
func (t *tracer) liveContext(e ast.Expr) bool {
	if e == nil {
		return false
	}
	r := t.resolve(e)
	if _, ok := t.calls(r, "context", "Background", "TODO"); ok {
		return false
	}
	if id, ok := ast.Unparen(r).(*ast.Ident); ok && id.Name == "nil" {
		return false
	}
	return true
}

// funcLit returns the function literal e is, or a local variable holds.
func (t *tracer) funcLit(e ast.Expr) *ast.FuncLit {
	if e == nil {
		return nil
	}
	lit, _ := ast.Unparen(t.resolve(e)).(*ast.FuncLit)
	return lit
}

// within reports whether n lies inside outer.
func within(n, outer ast.Node) bool {
	return outer != nil && outer.Pos() <= n.Pos() && n.End() <= outer.End()
}

// durationText renders a constant wait as written: its value when known,
// else the expression.
func (t *tracer) durationText(e ast.Expr) string {
	if d, ok := t.durationOf(e); ok {
		return d.String()
	}
	return types.ExprString(e)
}

// joinPermanent merges lists of permanent failures, keeping the first
// occurrence of each.
func joinPermanent(lists ...[]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range lists {
		for _, s := range l {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// foreverAttempts is the attempt limit from which a limit means none:
// RetryMax = math.MaxInt32 retries for as long as the process lives.
const foreverAttempts = 10000

// limit turns an attempt count into Retrier.Attempts: 0 when it is so
// large that it is no limit.
func limit(attempts int64) int {
	if attempts >= foreverAttempts {
		return 0
	}
	return int(attempts)
}

// finiteSchedule counts a growing wait as capped when so few attempts are
// made that it cannot grow far: the last of at most four waits.
func finiteSchedule(d Delay, attempts int) Delay {
	if d.Grows && !d.Capped && attempts > 0 && attempts <= 5 {
		d.Capped = true
	}
	return d
}

// packageValue returns the literal a package-level variable of this
// package is declared with (var serviceConfig = `{...}`, var backoff =
// wait.Backoff{...}): a string literal or a composite literal, or nil. The
// declaration is not in the function, so it is found as the outermost
// typed expression that starts first after the variable's name.
func (t *tracer) packageValue(e ast.Expr) ast.Expr {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := t.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	var next ast.Expr
	for x := range t.info.Types {
		if x.Pos() <= v.Pos() {
			continue
		}
		if next == nil || x.Pos() < next.Pos() || (x.Pos() == next.Pos() && x.End() > next.End()) {
			next = x
		}
	}
	switch x := next.(type) {
	case *ast.BasicLit:
		if x.Kind == token.STRING {
			return x
		}
	case *ast.CompositeLit:
		return x
	}
	return nil
}

func (t *tracer) isString(e ast.Expr) bool {
	tv, ok := t.info.Types[e]
	if !ok || tv.Type == nil {
		return false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// reader returns a reader of the same body, for the parts of a
// configuration read with reader.
func (t *tracer) reader() *reader {
	r := &reader{info: t.info, body: t.body}
	if t.body != nil {
		r.use = t.body.End()
	}
	return r
}
