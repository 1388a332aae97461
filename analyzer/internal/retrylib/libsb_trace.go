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

// tri is a truth value that may be unknown.
type tri int8

const (
	triUnknown tri = iota
	triFalse
	triTrue
)

func triOf(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

func (a tri) not() tri {
	switch a {
	case triTrue:
		return triFalse
	case triFalse:
		return triTrue
	}
	return triUnknown
}

// scenario runs a small predicate (a CheckRetry policy, an OnError
// retriable, an AWS IsErrorRetryable) for one kind of failure and tells
// whether the predicate retries it. The hooks describe the failure: value
// gives the constant an expression has in it (resp.StatusCode is 404),
// truth the truth of a boolean atom (apierrors.IsNotFound(err) holds), and
// verdict reads a returned value as "retry" or not.
type scenario struct {
	t       *tracer
	value   func(ast.Expr) constant.Value
	truth   func(ast.Expr) tri
	verdict func(ast.Expr) tri
	// onReturn, when set, reads a whole return statement instead of
	// verdict reading its first result.
	onReturn func(*ast.ReturnStmt) tri
	// env holds the bool variables set on the path run so far
	// (shouldRetry = true).
	env   map[string]tri
	depth int
}

// fork runs one branch with its own copy of the variables set so far.
func (s *scenario) fork(run func() (tri, bool)) (tri, bool) {
	saved := s.env
	s.env = make(map[string]tri, len(saved))
	for k, v := range saved {
		s.env[k] = v
	}
	defer func() { s.env = saved }()
	return run()
}

// assign records what a statement sets a bool variable to.
func (s *scenario) assign(st ast.Stmt) {
	set := func(id *ast.Ident, v ast.Expr) {
		if s.env == nil {
			s.env = map[string]tri{}
		}
		if tv, ok := s.t.info.Types[v]; ok && tv.Type != nil && types.Identical(tv.Type.Underlying(), types.Typ[types.Bool]) {
			s.env[id.Name] = s.eval(v)
			return
		}
		delete(s.env, id.Name)
	}
	switch st := st.(type) {
	case *ast.AssignStmt:
		if len(st.Lhs) != len(st.Rhs) {
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok && s.env != nil {
					delete(s.env, id.Name)
				}
			}
			return
		}
		for i, l := range st.Lhs {
			if id, ok := l.(*ast.Ident); ok && (st.Tok == token.ASSIGN || st.Tok == token.DEFINE) {
				set(id, st.Rhs[i])
			}
		}
	case *ast.DeclStmt:
		gd, ok := st.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, id := range vs.Names {
				switch {
				case len(vs.Values) == len(vs.Names):
					set(id, vs.Values[i])
				case len(vs.Values) == 0:
					if obj := s.t.info.Defs[id]; obj != nil && types.Identical(obj.Type().Underlying(), types.Typ[types.Bool]) {
						if s.env == nil {
							s.env = map[string]tri{}
						}
						s.env[id.Name] = triFalse
					}
				}
			}
		}
	}
}

// retries runs the body of a predicate: the verdict of the first return
// statement reached, or unknown.
func (s *scenario) retries(body *ast.BlockStmt) tri {
	if body == nil {
		return triUnknown
	}
	v, _ := s.exec(body.List, nil)
	return v
}

// exec runs stmts then rest; returned reports whether a return statement
// was reached.
func (s *scenario) exec(stmts, rest []ast.Stmt) (v tri, returned bool) {
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > 64 {
		return triUnknown, true
	}
	for i, st := range stmts {
		after := append(append([]ast.Stmt{}, stmts[i+1:]...), rest...)
		switch st := st.(type) {
		case *ast.ReturnStmt:
			if s.onReturn != nil {
				return s.onReturn(st), true
			}
			if len(st.Results) == 0 {
				return triUnknown, true
			}
			return s.verdict(st.Results[0]), true
		case *ast.BlockStmt:
			return s.exec(st.List, after)
		case *ast.AssignStmt, *ast.DeclStmt:
			s.assign(st)
		case *ast.IfStmt:
			if st.Init != nil {
				s.assign(st.Init)
			}
			var elseList []ast.Stmt
			switch e := st.Else.(type) {
			case *ast.BlockStmt:
				elseList = e.List
			case *ast.IfStmt:
				elseList = []ast.Stmt{e}
			}
			switch s.eval(st.Cond) {
			case triTrue:
				return s.exec(st.Body.List, after)
			case triFalse:
				return s.exec(elseList, after)
			}
			a, _ := s.fork(func() (tri, bool) { return s.exec(st.Body.List, after) })
			b, _ := s.fork(func() (tri, bool) { return s.exec(elseList, after) })
			if a == b {
				return a, true
			}
			return triUnknown, true
		case *ast.SwitchStmt:
			return s.switchStmt(st, after)
		}
	}
	if len(rest) > 0 {
		return s.exec(rest, nil)
	}
	return triUnknown, false
}

func (s *scenario) switchStmt(st *ast.SwitchStmt, after []ast.Stmt) (tri, bool) {
	var def *ast.CaseClause
	var unknown []tri
	for _, c := range st.Body.List {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			def = cc
			continue
		}
		m := triFalse
		for _, e := range cc.List {
			var r tri
			if st.Tag == nil {
				r = s.eval(e)
			} else {
				r = s.equal(st.Tag, e)
			}
			if r == triTrue {
				m = triTrue
				break
			}
			if r == triUnknown {
				m = triUnknown
			}
		}
		switch m {
		case triTrue:
			v, _ := s.exec(cc.Body, after)
			return s.merge(unknown, v), true
		case triUnknown:
			v, _ := s.fork(func() (tri, bool) { return s.exec(cc.Body, after) })
			unknown = append(unknown, v)
		}
	}
	var v tri
	if def != nil {
		v, _ = s.exec(def.Body, after)
	} else {
		v, _ = s.exec(after, nil)
	}
	return s.merge(unknown, v), true
}

func (s *scenario) merge(alts []tri, v tri) tri {
	for _, a := range alts {
		if a != v {
			return triUnknown
		}
	}
	return v
}

// eval evaluates a condition in the scenario.
func (s *scenario) eval(e ast.Expr) tri {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		if v, ok := s.env[id.Name]; ok {
			return v
		}
	}
	if s.truth != nil {
		if r := s.truth(e); r != triUnknown {
			return r
		}
	}
	if v := s.val(e); v != nil && v.Kind() == constant.Bool {
		return triOf(constant.BoolVal(v))
	}
	switch x := e.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return s.eval(x.X).not()
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND:
			a, b := s.eval(x.X), s.eval(x.Y)
			if a == triFalse || b == triFalse {
				return triFalse
			}
			if a == triTrue && b == triTrue {
				return triTrue
			}
			return triUnknown
		case token.LOR:
			a, b := s.eval(x.X), s.eval(x.Y)
			if a == triTrue || b == triTrue {
				return triTrue
			}
			if a == triFalse && b == triFalse {
				return triFalse
			}
			return triUnknown
		case token.EQL:
			return s.equal(x.X, x.Y)
		case token.NEQ:
			return s.equal(x.X, x.Y).not()
		case token.LSS, token.LEQ, token.GTR, token.GEQ:
			a, b := s.val(x.X), s.val(x.Y)
			if a == nil || b == nil || a.Kind() == constant.Unknown || b.Kind() == constant.Unknown {
				return triUnknown
			}
			return triOf(constant.Compare(a, x.Op, b))
		}
	case *ast.Ident:
		if r := s.t.resolve(x); r != ast.Expr(x) {
			return s.eval(r)
		}
	}
	return triUnknown
}

func (s *scenario) equal(a, b ast.Expr) tri {
	x, y := s.val(a), s.val(b)
	if x == nil || y == nil || x.Kind() == constant.Unknown || y.Kind() == constant.Unknown {
		return triUnknown
	}
	if x.Kind() != y.Kind() && !(isNumeric(x) && isNumeric(y)) {
		return triFalse
	}
	return triOf(constant.Compare(x, token.EQL, y))
}

func isNumeric(v constant.Value) bool {
	return v.Kind() == constant.Int || v.Kind() == constant.Float
}

// val is the constant value of e in the scenario, or nil.
func (s *scenario) val(e ast.Expr) constant.Value {
	e = ast.Unparen(e)
	if s.value != nil {
		if v := s.value(e); v != nil {
			return v
		}
	}
	if tv, ok := s.t.info.Types[e]; ok && tv.Value != nil {
		return tv.Value
	}
	if id, ok := e.(*ast.Ident); ok {
		if r := s.t.resolve(id); r != ast.Expr(id) {
			return s.val(r)
		}
	}
	return nil
}

// boolVerdict reads a returned bool: retry when it is true.
func (s *scenario) boolVerdict(e ast.Expr) tri { return s.eval(e) }

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

// funcDelay reads the wait a back-off function literal returns (a
// retryablehttp Backoff, an AWS BackoffDelayerFunc): it grows when attempt,
// its attempt parameter, enters it, is random when a random source does,
// and capped when min or a comparison clamps it. known is false when the
// result comes from code that cannot be read.
func (t *tracer) funcDelay(lit *ast.FuncLit, attempt types.Object) (d Delay, known bool) {
	var results []ast.Expr
	ast.Inspect(lit.Body, func(n ast.Node) bool {
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
	constant := true
	for _, r := range results {
		rs := t.shapeOf(lit, r, attempt, 0)
		s = s.or(rs)
		if rs.Grows || rs.Random || rs.unknown {
			constant = false
		}
	}
	if s.unknown && !s.Random {
		return Delay{}, false
	}
	if constant && len(results) == 1 {
		s.Value = t.durationText(results[0])
	}
	return s.Delay, true
}

func (t *tracer) shapeOf(lit *ast.FuncLit, e ast.Expr, attempt types.Object, depth int) shape {
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
		if obj == attempt {
			return shape{Delay: Delay{Grows: true}}
		}
		if !within(posNode(obj.Pos()), lit) {
			return shape{} // a parameter of the library or a captured value: fixed for the call
		}
		return t.varShape(lit, x.Name, obj, attempt, depth)
	case *ast.BinaryExpr:
		a, b := t.shapeOf(lit, x.X, attempt, depth+1), t.shapeOf(lit, x.Y, attempt, depth+1)
		return a.or(b)
	case *ast.UnaryExpr:
		return t.shapeOf(lit, x.X, attempt, depth+1)
	case *ast.SelectorExpr:
		return shape{}
	case *ast.CallExpr:
		return t.callShape(lit, x, attempt, depth)
	}
	return shape{unknown: true}
}

type posNode token.Pos

func (p posNode) Pos() token.Pos { return token.Pos(p) }
func (p posNode) End() token.Pos { return token.Pos(p) }

func (t *tracer) varShape(lit *ast.FuncLit, name string, obj types.Object, attempt types.Object, depth int) shape {
	var s shape
	capped := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
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
				rs := t.shapeOf(lit, n.Rhs[i], attempt, depth+1)
				switch n.Tok {
				case token.MUL_ASSIGN, token.SHL_ASSIGN, token.ADD_ASSIGN:
					rs.Grows = true
				}
				s = s.or(rs)
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if t.info.Defs[id] == obj && i < len(n.Values) {
					s = s.or(t.shapeOf(lit, n.Values[i], attempt, depth+1))
				}
			}
		case *ast.IfStmt:
			if be, ok := ast.Unparen(n.Cond).(*ast.BinaryExpr); ok && (be.Op == token.GTR || be.Op == token.GEQ) && keyOf(be.X) == name {
				capped = true
			}
		}
		return true
	})
	s.Capped = s.Capped || capped
	return s
}

func (t *tracer) callShape(lit *ast.FuncLit, call *ast.CallExpr, attempt types.Object, depth int) shape {
	args := func() shape {
		var s shape
		for _, a := range call.Args {
			s = s.or(t.shapeOf(lit, a, attempt, depth+1))
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
	fn := t.callee(call)
	if fn == nil || fn.Pkg() == nil {
		return shape{unknown: true}
	}
	switch path := Path(fn.Pkg()); {
	case path == "math/rand" || path == "math/rand/v2" || path == "crypto/rand":
		s := args()
		s.Random = true
		return s
	case path == "math":
		s := args()
		if fn.Name() == "Min" {
			s.Capped = true
		}
		return s
	case isFunc(fn, "time", "Duration"):
		return args()
	case isFunc(fn, "k8s.io/apimachinery/pkg/util/wait", "Jitter"):
		s := args()
		s.Random = true
		return s
	case isFunc(fn, retryablehttpPath, "DefaultBackoff"):
		return shape{Delay: Delay{Grows: true, Capped: true}}
	case isFunc(fn, retryablehttpPath, "LinearJitterBackoff"), isFunc(fn, retryablehttpPath, "RateLimitLinearJitterBackoff"):
		return shape{Delay: Delay{Grows: true, Random: true, Capped: true}}
	case path == awsRetryPath && fn.Name() == "BackoffDelay":
		return shape{Delay: Delay{Grows: true, Random: true, Capped: true}}
	}
	return shape{unknown: true}
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
