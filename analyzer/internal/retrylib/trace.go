package retrylib

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strings"
	"time"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
)

// This file traces how the values a retry call uses were built: a back-off
// assigned from a constructor and changed afterwards, functional options
// gathered in a slice, struct literals, a configuration returned by a
// helper of the same package or kept in a field. Everything is read from
// the syntax and types of the package being analysed; nothing is kept
// between calls.

// maxTrace bounds how many assignments a trace follows.
const maxTrace = 8

// reader reads the configuration of one retry call.
type reader struct {
	info *types.Info
	// body is the function body holding the call; use is the call's
	// position: assignments after it do not configure it.
	body *ast.BlockStmt
	use  token.Pos
	// parents maps each node of body to the node holding it, built on
	// first use (see parent).
	parents map[ast.Node]ast.Node
	// halt is set while the paths of an operation are walked for a
	// library whose operation stops the retries by a call made before it
	// returns the failure (roko's r.Break()): what follows such a call on
	// a path is not retried.
	halt *opKind
}

func newReader(info *types.Info, call *ast.CallExpr, enclosing *ast.BlockStmt) *reader {
	return &reader{info: info, body: enclosing, use: call.Pos()}
}

// at returns a reader for code evaluated in another body (a helper that
// builds the configuration), with every assignment before end counting.
func (t *reader) at(body *ast.BlockStmt, end token.Pos) *reader {
	return &reader{info: t.info, body: body, use: end}
}

// files returns the syntax of the package, as the type checker recorded
// it (go/packages and unitchecker record FileVersions for every file).
func (t *reader) files() []*ast.File {
	var fs []*ast.File
	for f := range t.info.FileVersions {
		fs = append(fs, f)
	}
	return fs
}

// fileOf returns the file holding pos, nil if the package has none.
func (t *reader) fileOf(pos token.Pos) *ast.File {
	for f := range t.info.FileVersions {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// funcDecl returns the declaration of a function of the package, nil for
// a function of another package or one without a body.
func (t *reader) funcDecl(fn *types.Func) *ast.FuncDecl {
	if fn == nil || !fn.Pos().IsValid() {
		return nil
	}
	f := t.fileOf(fn.Pos())
	if f == nil {
		return nil
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Pos() == fn.Pos() && fd.Body != nil {
			return fd
		}
	}
	return nil
}

// callee returns the function a call calls, nil for a call of a function
// value or a conversion.
func callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn != nil {
		fn = fn.Origin()
	}
	return fn
}

// isCall reports whether e is a call of the function or method name of
// the package path (vendor prefix ignored), and returns the call.
func isCall(info *types.Info, e ast.Expr, path string, names ...string) (*ast.CallExpr, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	fn := callee(info, call)
	if fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) != path {
		return nil, false
	}
	for _, n := range names {
		if fn.Name() == n {
			return call, true
		}
	}
	return nil, false
}

// isFunc reports whether fn is the function or method name of the
// package path (vendor prefix ignored).
func isFunc(fn *types.Func, path, name string) bool {
	return fn != nil && fn.Pkg() != nil && Path(fn.Pkg()) == path && fn.Name() == name
}

// refersTo reports whether e names the package-level object name of the
// package path (a function value or a variable), as written.
func refersTo(info *types.Info, e ast.Expr, path, name string) bool {
	id := nameIdent(e)
	if id == nil {
		return false
	}
	obj := info.Uses[id]
	return obj != nil && obj.Pkg() != nil && Path(obj.Pkg()) == path && obj.Name() == name
}

// compositeOf returns the composite literal e is, or takes the address of.
func compositeOf(e ast.Expr) *ast.CompositeLit {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

// paramObj returns the object of the i-th parameter of a function type,
// nil when it has none or it is unnamed.
func paramObj(info *types.Info, ft *ast.FuncType, i int) types.Object {
	n := 0
	for _, f := range ft.Params.List {
		if len(f.Names) == 0 {
			n++
			continue
		}
		for _, id := range f.Names {
			if n == i {
				return info.Defs[id]
			}
			n++
		}
	}
	return nil
}

// conversionTo returns the operand of e when e converts it to the named
// type name of the package path: retry.BackoffDelayerFunc(f).
func conversionTo(info *types.Info, e ast.Expr, path, name string) (ast.Expr, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, false
	}
	tv, ok := info.Types[call.Fun]
	if !ok || !tv.IsType() || !isNamed(tv.Type, path, name) {
		return nil, false
	}
	return call.Args[0], true
}

// value follows e to the expression it was built from: through
// parentheses, &x, conversions, local variables (the last assignment
// before the use), package variables, a field set in one place, and calls
// of same-package helpers that return one value. It returns the reader in
// whose body the result is to be read.
func (t *reader) value(e ast.Expr) (ast.Expr, *reader) { return t.valueUntil(e, nil) }

// valueUntil is value stopping at the first expression on the way for
// which stop holds (a conversion value would look through).
func (t *reader) valueUntil(e ast.Expr, stop func(ast.Expr, *reader) bool) (ast.Expr, *reader) {
	cur := t
	for range maxTrace {
		e = ast.Unparen(e)
		if stop != nil && stop(e, cur) {
			return e, cur
		}
		switch x := e.(type) {
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				e = x.X
				continue
			}
		case *ast.Ident:
			v, ok := cur.info.Uses[x].(*types.Var)
			if !ok {
				return e, cur
			}
			rhs, where := cur.assigned(v)
			if rhs == nil {
				return e, cur
			}
			e, cur = rhs, where
			continue
		case *ast.SelectorExpr:
			if v, ok := cur.info.Uses[x.Sel].(*types.Var); ok {
				if v.IsField() {
					rhs, where := cur.fieldValue(v)
					if rhs == nil {
						return e, cur
					}
					e, cur = rhs, where
					continue
				}
				if rhs, where := cur.assigned(v); rhs != nil {
					e, cur = rhs, where
					continue
				}
			}
		case *ast.CallExpr:
			if tv, ok := cur.info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
				e = x.Args[0]
				continue
			}
			if ret, where := cur.returned(x); ret != nil {
				e, cur = ret, where
				continue
			}
		}
		return e, cur
	}
	return e, cur
}

// assigned returns the last value given to v before the use: in the
// function that declares it (v := x, v = x, var v = x) or, for a package
// variable, its initialiser. A variable last given one of several results
// of a call has no value here.
func (t *reader) assigned(v *types.Var) (ast.Expr, *reader) {
	rhs, index, where := t.lastAssignment(v)
	if index >= 0 {
		return nil, t
	}
	return rhs, where
}

// lastAssignment returns the last value given to v before the use, as
// assigned does, and the reader in whose body it is to be read. When that
// value is one call whose results go to several variables (req, err :=
// http.NewRequest(...)), it is the call and index is v's place among
// them; index is -1 otherwise. rhs is nil when v is given nothing.
func (t *reader) lastAssignment(v *types.Var) (rhs ast.Expr, index int, where *reader) {
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		for _, init := range t.info.InitOrder {
			if len(init.Lhs) == 1 && init.Lhs[0] == v {
				return init.Rhs, -1, t.at(nil, token.NoPos)
			}
		}
		return nil, -1, t
	}
	body := t.body
	if body == nil || !(body.Pos() <= v.Pos() && v.Pos() < body.End()) {
		body = t.declaringBody(v.Pos())
	}
	if body == nil {
		return nil, -1, t
	}
	use := t.use
	if !(body.Pos() <= use && use < body.End()) {
		use = body.End()
	}
	last := token.NoPos
	index = -1
	t.eachAssignment(body, v, func(at token.Pos, value ast.Expr, i int) {
		if at < use {
			rhs, index, last = value, i, at
		}
	})
	if rhs == nil {
		return nil, -1, t
	}
	// What the value refers to is read as it was when it was assigned.
	return rhs, index, &reader{info: t.info, body: body, use: last}
}

// eachAssignment calls f, in source order, for each value body gives v:
// v := x, v = x, var v = x. When one call's results go to several
// variables, value is the call and index v's place among them; index is
// -1 otherwise.
func (t *reader) eachAssignment(body *ast.BlockStmt, v *types.Var, f func(at token.Pos, value ast.Expr, index int)) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
				return true
			}
			for i, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && t.info.ObjectOf(id) == v {
					switch {
					case len(n.Rhs) == len(n.Lhs):
						f(n.Pos(), n.Rhs[i], -1)
					case len(n.Rhs) == 1:
						f(n.Pos(), n.Rhs[0], i)
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if t.info.Defs[id] != v {
					continue
				}
				switch {
				case len(n.Values) == len(n.Names):
					f(n.Pos(), n.Values[i], -1)
				case len(n.Values) == 1:
					f(n.Pos(), n.Values[0], i)
				}
			}
		}
		return true
	})
}

// declaringBody returns the innermost function body of the package that
// holds pos.
func (t *reader) declaringBody(pos token.Pos) *ast.BlockStmt {
	f := t.fileOf(pos)
	if f == nil {
		return nil
	}
	var body *ast.BlockStmt
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || !(n.Pos() <= pos && pos < n.End()) {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil && n.Body.Pos() <= pos {
				body = n.Body
			}
		case *ast.FuncLit:
			if n.Body.Pos() <= pos {
				body = n.Body
			}
		}
		return true
	})
	return body
}

// parent returns the nearest node of the body holding n that is not a
// parenthesis; nil for the body itself and for a node outside it.
func (t *reader) parent(n ast.Node) ast.Node {
	if t.parents == nil {
		t.parents = map[ast.Node]ast.Node{}
		var stack []ast.Node
		if t.body != nil {
			ast.Inspect(t.body, func(n ast.Node) bool {
				if n == nil {
					stack = stack[:len(stack)-1]
					return false
				}
				if len(stack) > 0 {
					t.parents[n] = stack[len(stack)-1]
				}
				stack = append(stack, n)
				return true
			})
		}
	}
	p := t.parents[n]
	for {
		pe, ok := p.(*ast.ParenExpr)
		if !ok {
			return p
		}
		p = t.parents[pe]
	}
}

// fieldValue returns the one value the package stores in a struct field,
// in a composite literal or an assignment; nil when it stores several or
// none.
func (t *reader) fieldValue(field *types.Var) (ast.Expr, *reader) {
	var found ast.Expr
	var in *ast.BlockStmt
	n := 0
	for _, f := range t.files() {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(node ast.Node) bool {
				switch node := node.(type) {
				case *ast.KeyValueExpr:
					if id, ok := node.Key.(*ast.Ident); ok && t.info.ObjectOf(id) == field {
						found, in = node.Value, fd.Body
						n++
					}
				case *ast.AssignStmt:
					for i, l := range node.Lhs {
						if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && t.info.ObjectOf(sel.Sel) == field && len(node.Rhs) == len(node.Lhs) {
							found, in = node.Rhs[i], fd.Body
							n++
						}
					}
				}
				return true
			})
		}
	}
	if n != 1 {
		return nil, t
	}
	return found, t.at(in, in.End())
}

// returned follows a call of a same-package function that has a single
// return statement with one result (a helper that builds a back-off or a
// list of options) to that result.
func (t *reader) returned(call *ast.CallExpr) (ast.Expr, *reader) {
	fd := t.funcDecl(callee(t.info, call))
	if fd == nil {
		return nil, t
	}
	var rets []*ast.ReturnStmt
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if r, ok := n.(*ast.ReturnStmt); ok {
			rets = append(rets, r)
		}
		return true
	})
	var res ast.Expr
	for _, r := range rets {
		if len(r.Results) == 0 {
			return nil, t
		}
		e := r.Results[0]
		if id, ok := e.(*ast.Ident); ok && id.Name == "nil" {
			continue // an error path: return nil, err
		}
		if res != nil {
			return nil, t
		}
		res = e
	}
	if res == nil {
		return nil, t
	}
	return res, t.at(fd.Body, res.Pos())
}

// fields are the fields of a configuration value the code sets: the
// value assigned to each, and where it is set (the key of a literal, the
// selector of an assignment, the option call), for findings about it.
type fields struct {
	value map[string]ast.Expr
	site  map[string]ast.Expr
}

func newFields() fields {
	return fields{value: map[string]ast.Expr{}, site: map[string]ast.Expr{}}
}

func (f fields) set(name string, value, site ast.Expr) {
	f.value[name], f.site[name] = value, site
}

// structFields returns the keyed fields of a struct literal.
func structFields(lit *ast.CompositeLit) fields {
	f := newFields()
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				f.set(id.Name, kv.Value, kv)
			}
		}
	}
	return f
}

// options expands the variadic options of a call: each argument, and for
// opts... the elements of the slice it was built from (a literal, then
// every append before the call). ok is false when the slice comes from
// code the finder cannot read.
func (t *reader) options(call *ast.CallExpr, from int) (opts []ast.Expr, ok bool) {
	if from >= len(call.Args) {
		return nil, true
	}
	args := call.Args[from:]
	if !call.Ellipsis.IsValid() {
		return args, true
	}
	out := append([]ast.Expr(nil), args[:len(args)-1]...)
	elems, ok := t.sliceElems(args[len(args)-1], 0)
	return append(out, elems...), ok
}

// sliceElems returns the elements a slice was given: its literal and what
// was appended to it before the use.
func (t *reader) sliceElems(e ast.Expr, depth int) ([]ast.Expr, bool) {
	if depth > maxTrace {
		return nil, false
	}
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.CompositeLit:
		return x.Elts, true
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "append" && len(x.Args) > 0 {
			if _, builtin := t.info.Uses[id].(*types.Builtin); builtin {
				out, ok := t.sliceElems(x.Args[0], depth+1)
				if x.Ellipsis.IsValid() && len(x.Args) == 2 {
					more, ok2 := t.sliceElems(x.Args[1], depth+1)
					return append(out, more...), ok && ok2
				}
				return append(out, x.Args[1:]...), ok
			}
		}
		if ret, where := t.returned(x); ret != nil {
			return where.sliceElems(ret, depth+1)
		}
		return nil, false
	case *ast.Ident:
		if x.Name == "nil" {
			return nil, true
		}
		v, ok := t.info.Uses[x].(*types.Var)
		if !ok {
			return nil, false
		}
		return t.sliceVar(v, depth)
	}
	return nil, false
}

// sliceVar returns the elements of a slice variable at the use: its
// definition, then every assignment (opts = append(opts, ...)) before it.
func (t *reader) sliceVar(v *types.Var, depth int) ([]ast.Expr, bool) {
	body := t.body
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		if rhs, where := t.assigned(v); rhs != nil {
			return where.sliceElems(rhs, depth+1)
		}
		return nil, false
	}
	if body == nil || !(body.Pos() <= v.Pos() && v.Pos() < body.End()) {
		body = t.declaringBody(v.Pos())
	}
	if body == nil {
		return nil, false
	}
	var out []ast.Expr
	defined, ok := false, true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Pos() >= t.use || len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, l := range n.Lhs {
				if id, isID := ast.Unparen(l).(*ast.Ident); isID && t.info.ObjectOf(id) == v {
					before := &reader{info: t.info, body: body, use: n.Pos()}
					out, ok = before.sliceElems(n.Rhs[i], depth+1)
					defined = true
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if t.info.Defs[id] == v {
					defined = true
					if i < len(n.Values) {
						out, ok = t.sliceElems(n.Values[i], depth+1)
					}
				}
			}
		}
		return true
	})
	return out, defined && ok
}

// constValue returns the constant value of e, following local variables
// assigned once from a constant.
func (t *reader) constValue(e ast.Expr) constant.Value {
	if e == nil {
		return nil
	}
	if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
		return tv.Value
	}
	v, where := t.value(e)
	if tv, ok := where.info.Types[v]; ok && tv.Value != nil {
		return tv.Value
	}
	return nil
}

// duration returns the constant duration of e.
func (t *reader) duration(e ast.Expr) (time.Duration, bool) {
	c := t.constValue(e)
	if c == nil {
		return 0, false
	}
	c = constant.ToInt(c)
	if c.Kind() != constant.Int {
		return 0, false
	}
	v, ok := constant.Int64Val(c)
	return time.Duration(v), ok
}

// integer returns the constant integer of e.
func (t *reader) integer(e ast.Expr) (int64, bool) {
	c := t.constValue(e)
	if c == nil {
		return 0, false
	}
	c = constant.ToInt(c)
	if c.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c)
}

// float returns the constant number of e.
func (t *reader) float(e ast.Expr) (float64, bool) {
	c := t.constValue(e)
	if c == nil {
		return 0, false
	}
	c = constant.ToFloat(c)
	if c.Kind() != constant.Float {
		return 0, false
	}
	f, _ := constant.Float64Val(c)
	return f, true
}

// durationText renders a wait as written: its value when constant
// ("2s"), else the expression ("cfg.RetryInterval").
func (t *reader) durationText(e ast.Expr) string {
	if d, ok := t.duration(e); ok {
		return d.String()
	}
	return types.ExprString(e)
}

// ctxState says what a context expression does to the retries.
type ctxState struct {
	ends     bool // cancellation or a deadline can end the retries
	deadline bool // it carries a timeout or deadline
}

// context reads a context argument: context.Background(), TODO() and
// WithoutCancel never end; WithTimeout and WithDeadline end with a
// deadline; a parameter, a field or WithCancel can end.
func (t *reader) context(e ast.Expr) ctxState {
	v, where := t.value(e)
	call, ok := ast.Unparen(v).(*ast.CallExpr)
	if !ok {
		if id, ok := v.(*ast.Ident); ok && id.Name == "nil" {
			return ctxState{}
		}
		return ctxState{ends: true}
	}
	fn := callee(where.info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "context" {
		return ctxState{ends: true}
	}
	switch fn.Name() {
	case "Background", "TODO", "WithoutCancel":
		return ctxState{}
	case "WithTimeout", "WithDeadline", "WithTimeoutCause", "WithDeadlineCause":
		return ctxState{ends: true, deadline: true}
	case "WithValue":
		if len(call.Args) > 0 {
			return where.context(call.Args[0])
		}
	}
	return ctxState{ends: true}
}

// funcOf returns the function an operation or predicate expression
// denotes when the package has its source: a literal, a variable holding
// one, a function or a method value. The body is nil otherwise.
func (t *reader) funcOf(e ast.Expr) (*ast.FuncType, *ast.BlockStmt, *reader) {
	v, where := t.value(e)
	switch x := ast.Unparen(v).(type) {
	case *ast.FuncLit:
		return x.Type, x.Body, where.at(x.Body, x.Body.End())
	case *ast.Ident, *ast.SelectorExpr:
		var obj types.Object
		if id, ok := x.(*ast.Ident); ok {
			obj = where.info.Uses[id]
		} else {
			sel := x.(*ast.SelectorExpr)
			if s, ok := where.info.Selections[sel]; ok {
				obj = s.Obj()
			} else {
				obj = where.info.Uses[sel.Sel]
			}
		}
		fn, _ := obj.(*types.Func)
		if fd := where.funcDecl(fn); fd != nil {
			return fd.Type, fd.Body, where.at(fd.Body, fd.Body.End())
		}
	case *ast.CallExpr:
		// A function returned by a constructor: op := c.newOp(x).
		if ret, rw := where.returned(x); ret != nil {
			return rw.funcOf(ret)
		}
	}
	return nil, nil, where
}

// funcLit returns the function literal e denotes, following it as value
// does, and the reader of its body; nil when e denotes no literal (a
// function of its own, one of another package, a parameter).
func (t *reader) funcLit(e ast.Expr) (*ast.FuncLit, *reader) {
	v, where := t.value(e)
	lit, ok := ast.Unparen(v).(*ast.FuncLit)
	if !ok {
		return nil, t
	}
	return lit, where.at(lit.Body, lit.Body.End())
}

// enclosingLoop returns the innermost for or range statement of body
// that holds pos, nil if none does. Loops of nested function literals do
// not count.
func enclosingLoop(body *ast.BlockStmt, pos token.Pos) ast.Stmt {
	var loop ast.Stmt
	if body == nil {
		return nil
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || !(n.Pos() <= pos && pos < n.End()) {
			return n == nil
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			loop = n.(ast.Stmt)
		}
		return true
	})
	return loop
}

// loopBody returns the body of a for or range statement.
func loopBody(loop ast.Stmt) *ast.BlockStmt {
	switch l := loop.(type) {
	case *ast.ForStmt:
		return l.Body
	case *ast.RangeStmt:
		return l.Body
	}
	return nil
}

// within reports whether n lies inside the body of loop.
func inLoopBody(loop ast.Stmt, n ast.Node) bool {
	b := loopBody(loop)
	return b != nil && n != nil && b.Pos() <= n.Pos() && n.End() <= b.End()
}

// shortGrowth reports whether a growing wait stays short because the
// attempts are few: the largest wait, initial×factor^(attempts-2), is at
// most maxShortWait. Without a known initial wait, at most four attempts.
func shortGrowth(initial time.Duration, known bool, factor float64, attempts int) bool {
	if attempts <= 0 {
		return false
	}
	if attempts <= 2 {
		return true
	}
	if !known {
		return attempts <= 4
	}
	largest := float64(initial) * math.Pow(factor, float64(attempts-2))
	return largest <= float64(maxShortWait)
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

// maxShortWait is the largest wait a finite schedule may reach and still
// count as bounded without a cap: the one threshold of hand-written loops
// and libraries alike.
const maxShortWait = ShortSchedule

// ShortSchedule is the longest wait a growing delay may reach without a
// cap of its own: a schedule that an attempt limit ends while its waits
// are still shorter than a typical outage (5 attempts from 125 ms wait at
// most 2 s, 9 from 10 ms at most 2.6 s) is capped by that limit, while 10
// attempts from 500 ms reach 2 minutes and need a cap.
const ShortSchedule = 30 * time.Second

// failures is the set of failures a path of an operation or predicate
// may carry: HTTP statuses, gRPC codes, and whether the failure is a
// circuit breaker's open error. A set is narrowed once a check on the
// path restricted it.
type failures struct {
	http failure.HTTPSet
	grpc failure.GRPCSet
	open int8 // +1 the path holds the breaker's open error, -1 it excludes it
	// stopped marks a path on which the operation has already told its
	// library to stop (roko's r.Break()): whatever it returns is not
	// retried.
	stopped bool
	// unread marks a path that a test of the failure the reader cannot
	// evaluate (isRetryable(err)) let through: which statuses reach it is
	// not known, so none is said to be retried.
	unread bool
}

// stoppedFailures is the set of a path after the operation told its
// library to stop: nothing on it is retried.
func stoppedFailures() failures { return failures{stopped: true} }

func anyFailure() failures {
	return failures{http: failure.AllHTTP(), grpc: failure.AllGRPC()}
}

// checksCodes reports whether a check narrowed the statuses or the codes.
func (f failures) checksCodes() bool { return f.http.Narrowed || f.grpc.Narrowed }

func (f failures) and(g failures) failures {
	out := failures{http: f.http.And(g.http), grpc: f.grpc.And(g.grpc), open: f.open, stopped: f.stopped || g.stopped, unread: f.unread || g.unread}
	if g.open != 0 {
		out.open = g.open
	}
	return out
}

func (f failures) or(g failures) failures {
	out := failures{http: f.http.Or(g.http), grpc: f.grpc.Or(g.grpc), stopped: f.stopped && g.stopped, unread: f.unread && g.unread}
	if f.open == g.open {
		out.open = f.open
	}
	return out
}

func (f failures) not() failures {
	return failures{http: f.http.Not(), grpc: f.grpc.Not(), open: -f.open, unread: f.unread}
}

// permanent lists the failures of the set that cannot succeed on retry,
// in the words of Retrier.Permanent.
func (f failures) permanent() []string {
	if f.stopped || f.unread {
		return nil
	}
	var out []string
	if f.http.Narrowed {
		out = append(out, httpPermanent(f.http.Permanent())...)
	}
	if f.grpc.Narrowed {
		for _, c := range f.grpc.Permanent() {
			out = append(out, failure.DescribeGRPC(c))
		}
	}
	if f.open > 0 {
		out = append(out, failure.DescribeBreakerOpen())
	}
	return out
}

// httpPermanent names permanent HTTP statuses in Retrier.Permanent, none
// for none.
func httpPermanent(statuses []int) []string {
	if len(statuses) == 0 {
		return nil
	}
	return []string{failure.DescribeHTTP(statuses)}
}

// caseConds spells the values of a case clause as the conditions they
// test: tag == v for a switch with a tag, the values themselves without.
func caseConds(tag ast.Expr, list []ast.Expr) []ast.Expr {
	if tag == nil {
		return list
	}
	out := make([]ast.Expr, len(list))
	for i, v := range list {
		out[i] = &ast.BinaryExpr{X: tag, OpPos: v.Pos(), Op: token.EQL, Y: v}
	}
	return out
}

// typeSwitchSubject returns the x.(type) of a type switch.
func typeSwitchSubject(s *ast.TypeSwitchStmt) ast.Expr {
	switch a := s.Assign.(type) {
	case *ast.ExprStmt:
		return a.X
	case *ast.AssignStmt:
		if len(a.Rhs) == 1 {
			return a.Rhs[0]
		}
	}
	return nil
}

// cond returns the failures for which a condition holds.
func (t *reader) cond(e ast.Expr) failures {
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LOR:
			return t.cond(x.X).or(t.cond(x.Y))
		case token.LAND:
			return t.cond(x.X).and(t.cond(x.Y))
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return t.compare(x)
		}
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return t.cond(x.X).not()
		}
	case *ast.CallExpr:
		if fn := callee(t.info, x); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is" && len(x.Args) == 2 {
			if t.isOpenSentinel(x.Args[1]) {
				f := anyFailure()
				f.open = 1
				return f
			}
		}
		if fn := callee(t.info, x); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "slices" && fn.Name() == "Contains" && len(x.Args) == 2 {
			f := failures{}
			elems, _ := t.sliceElems(x.Args[0], 0)
			for _, el := range elems {
				f = orCodes(f, t.compareValue(x.Args[1], el, token.EQL))
			}
			if f.checksCodes() {
				return f
			}
		}
		if t.unreadPredicate(x) {
			f := anyFailure()
			f.unread = true
			return f
		}
	}
	return anyFailure()
}

// orCodes joins two sets that both check codes (unlike or, a side that
// checks nothing adds nothing).
func orCodes(f, g failures) failures {
	if !f.checksCodes() {
		return g
	}
	if !g.checksCodes() {
		return f
	}
	return f.or(g)
}

// compare reads x OP K where K is a constant HTTP status or gRPC code, or
// a comparison with a breaker's open sentinel.
func (t *reader) compare(x *ast.BinaryExpr) failures {
	if t.isOpenSentinel(x.Y) || t.isOpenSentinel(x.X) {
		f := anyFailure()
		switch x.Op {
		case token.EQL:
			f.open = 1
		case token.NEQ:
			f.open = -1
		}
		return f
	}
	subject, k, op := x.X, x.Y, x.Op
	if t.constValue(subject) != nil {
		subject, k, op = x.Y, x.X, mirror(x.Op)
	}
	return t.compareNamed(subject, k, op)
}

// unreadPredicate reports whether a call is a test of the failure the
// reader does not evaluate: a function of the project (isRetryable(err)),
// not errors.Is or errors.As, which test what the failure is, not which
// statuses it carries.
func (t *reader) unreadPredicate(call *ast.CallExpr) bool {
	fn := callee(t.info, call)
	if fn == nil || fn.Pkg() == nil || fn.Signature().Results().Len() != 1 || !isBool(fn.Signature().Results().At(0).Type()) || !t.inspects(call) {
		return false
	}
	if t.funcDecl(fn) != nil {
		return true
	}
	first, _, _ := strings.Cut(fn.Pkg().Path(), "/")
	return strings.Contains(first, ".")
}

// compareNamed is compareValue for a subject written in the code: an
// integer that is no HTTP status by its name (ExitCode() == 128) is no
// test of one.
func (t *reader) compareNamed(subject, k ast.Expr, op token.Token) failures {
	if !failure.IsGRPCCode(t.info.TypeOf(subject)) && !failure.IsGRPCCode(t.info.TypeOf(k)) && !t.statusSubject(subject) {
		return anyFailure()
	}
	return t.compareValue(subject, k, op)
}

func (t *reader) compareValue(subject, k ast.Expr, op token.Token) failures {
	f := anyFailure()
	if t.constValue(subject) != nil {
		return f
	}
	v := t.constValue(k)
	if v == nil {
		return f
	}
	n, ok := constant.Int64Val(constant.ToInt(v))
	if !ok {
		return f
	}
	keep := func(c int) bool { return holds(int64(c), op, n) }
	if failure.IsGRPCCode(t.info.TypeOf(k)) || failure.IsGRPCCode(t.info.TypeOf(subject)) {
		if n < 0 || n >= failure.GRPCCodes {
			return f
		}
		f.grpc = f.grpc.Restrict(keep)
		return f
	}
	if n < 100 || n > 599 {
		return f
	}
	f.http = f.http.Restrict(keep)
	return f
}

// statusSubject reports whether a compared integer may hold an HTTP
// status: one named for it (resp.StatusCode, code), a variable set where
// such a one is read, or one whose name the reader cannot see; never an
// exit code (ExitCode() == 128).
func (t *reader) statusSubject(e ast.Expr) bool {
	status, named := failure.StatusNamed(e)
	if status || !named {
		return !named || status
	}
	// s := resp.StatusCode: named where it was read.
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if x, where := t.value(id); x != nil && x != ast.Expr(id) {
			if _, ok := ast.Unparen(x).(*ast.Ident); !ok {
				return where.statusSubject(x)
			}
		}
	}
	return false
}

func holds(c int64, op token.Token, k int64) bool {
	switch op {
	case token.EQL:
		return c == k
	case token.NEQ:
		return c != k
	case token.LSS:
		return c < k
	case token.LEQ:
		return c <= k
	case token.GTR:
		return c > k
	case token.GEQ:
		return c >= k
	}
	return true
}

func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.LEQ:
		return token.GEQ
	case token.GTR:
		return token.LSS
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// isOpenSentinel reports whether e names a breaker's open error.
func (t *reader) isOpenSentinel(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return failure.BreakerOpen(x.Name)
	case *ast.SelectorExpr:
		return failure.BreakerOpen(x.Sel.Name)
	}
	return false
}

// retryPath visits every return statement of a function body with the
// failures its path may carry, read from the if and switch conditions
// that lead to it and the early returns before it. Function literals
// inside are not entered.
func (t *reader) retryPath(body *ast.BlockStmt, visit func(ret *ast.ReturnStmt, f failures, guarded []ast.Expr)) {
	t.block(body.List, anyFailure(), nil, visit)
}

func (t *reader) block(list []ast.Stmt, f failures, guards []ast.Expr, visit func(*ast.ReturnStmt, failures, []ast.Expr)) {
	for _, s := range list {
		t.stmt(s, f, guards, visit)
		// An if or a case that always leaves excludes its condition from
		// what follows, which is then decided by that condition too.
		switch s := s.(type) {
		case *ast.IfStmt:
			if s.Else == nil && terminates(s.Body) {
				f = f.and(t.cond(s.Cond).not())
				guards = append(append([]ast.Expr(nil), guards...), s.Cond)
				break
			}
			if t.halt != nil && t.mentionsHalt(s) {
				// Only the failures of branches that go on without
				// stopping the retries pass on.
				f = t.passing(s, f)
				guards = append(append([]ast.Expr(nil), guards...), s.Cond)
			}
		case *ast.SwitchStmt:
			for _, c := range t.cases(s) {
				if c.clause.List != nil && (terminates(&ast.BlockStmt{List: c.clause.Body}) || t.halts(&ast.BlockStmt{List: c.clause.Body})) {
					f = f.and(c.set.not())
					guards = append(append([]ast.Expr(nil), guards...), c.conds...)
				}
			}
		case *ast.ExprStmt:
			if t.halts(s) {
				f = f.and(stoppedFailures())
			}
		}
	}
}

// switchCase is one clause of a switch with what its values accept.
type switchCase struct {
	clause *ast.CaseClause
	set    failures
	conds  []ast.Expr
}

func (t *reader) cases(s *ast.SwitchStmt) []switchCase {
	var out []switchCase
	for _, cl := range s.Body.List {
		cc := cl.(*ast.CaseClause)
		var cf failures
		for i, v := range cc.List {
			var one failures
			if s.Tag != nil {
				one = t.compareNamed(s.Tag, v, token.EQL)
			} else {
				one = t.cond(v)
			}
			if i == 0 {
				cf = one
			} else {
				cf = cf.or(one)
			}
		}
		out = append(out, switchCase{clause: cc, set: cf, conds: caseConds(s.Tag, cc.List)})
	}
	return out
}

func (t *reader) stmt(s ast.Stmt, f failures, guards []ast.Expr, visit func(*ast.ReturnStmt, failures, []ast.Expr)) {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		visit(s, f, guards)
	case *ast.BlockStmt:
		t.block(s.List, f, guards, visit)
	case *ast.IfStmt:
		c := t.cond(s.Cond)
		g := append(append([]ast.Expr(nil), guards...), s.Cond)
		t.block(s.Body.List, f.and(c), g, visit)
		if s.Else != nil {
			t.stmt(s.Else, f.and(c.not()), g, visit)
		}
	case *ast.SwitchStmt:
		cs := t.cases(s)
		var def *switchCase
		for i, c := range cs {
			if c.clause.List == nil {
				def = &cs[i]
				continue
			}
			g := append(append([]ast.Expr(nil), guards...), c.conds...)
			t.block(c.clause.Body, f.and(c.set), g, visit)
		}
		if def != nil {
			df := f
			g := append([]ast.Expr(nil), guards...)
			for _, c := range cs {
				if c.clause.List != nil {
					df = df.and(c.set.not())
					g = append(g, c.conds...)
				}
			}
			t.block(def.clause.Body, df, g, visit)
		}
	case *ast.TypeSwitchStmt:
		g := guards
		if ta := typeSwitchSubject(s); ta != nil {
			g = append(append([]ast.Expr(nil), guards...), ta)
		}
		for _, cl := range s.Body.List {
			t.block(cl.(*ast.CaseClause).Body, f, g, visit)
		}
	case *ast.ForStmt:
		t.block(s.Body.List, f, guards, visit)
	case *ast.RangeStmt:
		t.block(s.Body.List, f, guards, visit)
	case *ast.SelectStmt:
		for _, cl := range s.Body.List {
			t.block(cl.(*ast.CommClause).Body, f, guards, visit)
		}
	case *ast.LabeledStmt:
		t.stmt(s.Stmt, f, guards, visit)
	}
}

// passing returns the failures of f that go on past s on a path that
// neither left nor told the library to stop (t.halt); a set marked
// stopped when none does.
func (t *reader) passing(s ast.Stmt, f failures) failures {
	if f.stopped {
		return f
	}
	switch s := s.(type) {
	case *ast.ExprStmt:
		if t.halts(s) {
			return f.and(stoppedFailures())
		}
	case *ast.ReturnStmt, *ast.BranchStmt:
		return f.and(stoppedFailures())
	case *ast.BlockStmt:
		for _, x := range s.List {
			f = t.passing(x, f)
		}
		if terminates(s) {
			return f.and(stoppedFailures())
		}
	case *ast.IfStmt:
		c := t.cond(s.Cond)
		in, out := t.passing(s.Body, f.and(c)), f.and(c.not())
		if s.Else != nil {
			out = t.passing(s.Else, out)
		}
		switch {
		case in.stopped:
			return out
		case out.stopped:
			return in
		}
		return in.or(out)
	case *ast.LabeledStmt:
		return t.passing(s.Stmt, f)
	}
	return f
}

// mentionsHalt reports whether s calls a function of t.halt, outside
// function literals.
func (t *reader) mentionsHalt(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok {
			if _, ok := isCall(t.info, c, t.halt.path, t.halt.stop...); ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// halts reports whether a statement always tells the library to stop
// retrying (t.halt): it is such a call, a block holding one, or an if
// whose branches both are.
func (t *reader) halts(s ast.Stmt) bool {
	if t.halt == nil || s == nil {
		return false
	}
	switch s := s.(type) {
	case *ast.ExprStmt:
		_, ok := isCall(t.info, s.X, t.halt.path, t.halt.stop...)
		return ok
	case *ast.BlockStmt:
		for _, x := range s.List {
			if t.halts(x) {
				return true
			}
		}
	case *ast.IfStmt:
		return s.Else != nil && t.halts(s.Body) && t.halts(s.Else)
	case *ast.LabeledStmt:
		return t.halts(s.Stmt)
	}
	return false
}

// terminates reports whether a block always leaves: its last statement
// returns, branches, panics or exits.
func terminates(b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			name := types.ExprString(call.Fun)
			return name == "panic" || strings.HasSuffix(name, ".Fatal") || strings.HasSuffix(name, ".Fatalf") || name == "os.Exit"
		}
	case *ast.IfStmt:
		if e, ok := s.Else.(*ast.BlockStmt); ok {
			return terminates(s.Body) && terminates(e)
		}
	}
	return false
}

// inspects reports whether a condition looks at what failed beyond
// err != nil: errors.Is/As, a predicate over the error, a type assertion,
// a comparison of the error with a sentinel, or a status or code check.
func (t *reader) inspects(e ast.Expr) bool { return t.inspectsDepth(e, 2) }

func (t *reader) inspectsDepth(e ast.Expr, depth int) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.TypeAssertExpr:
			if isError(t.info.TypeOf(x.X)) {
				found = true
			}
		case *ast.BinaryExpr:
			switch x.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				if isNil(x.X) || isNil(x.Y) {
					return false
				}
				if t.isContextErr(x.X) || t.isContextErr(x.Y) {
					return false
				}
				if isError(t.info.TypeOf(x.X)) || isError(t.info.TypeOf(x.Y)) {
					found = true
				} else if f := t.compare(x); f.checksCodes() || f.open != 0 {
					found = true
				}
			}
		case *ast.CallExpr:
			if t.inspectingCall(x) {
				found = true
			}
		case *ast.Ident:
			if v, ok := t.info.Uses[x].(*types.Var); ok && depth > 0 && isBool(v.Type()) {
				if rhs, where := t.assigned(v); rhs != nil && where.inspectsDepth(rhs, depth-1) {
					found = true
				} else if t.verdictOfCall(v) {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// verdictOfCall reports a bool variable given by the same call as an
// error, retry, err := f(): the operation's own word on whether its
// failure may be retried.
func (t *reader) verdictOfCall(v *types.Var) bool {
	body := t.declaringBody(v.Pos())
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found || len(as.Rhs) != 1 || len(as.Lhs) < 2 {
			return !found
		}
		tuple, ok := t.info.TypeOf(as.Rhs[0]).(*types.Tuple)
		if !ok || tuple.Len() != len(as.Lhs) {
			return true
		}
		for i, l := range as.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && t.info.ObjectOf(id) == v {
				for j := 0; j < tuple.Len(); j++ {
					if j != i && isError(tuple.At(j).Type()) {
						found = true
					}
				}
			}
		}
		return true
	})
	return found
}

// inspectingCall reports a call that looks at an error: errors.Is/As, a
// bool-valued function or method given the error (isRetryable(err),
// os.IsTimeout(err), ne.Timeout()), or a test of its text.
func (t *reader) inspectingCall(call *ast.CallExpr) bool {
	fn := callee(t.info, call)
	if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && (fn.Name() == "Is" || fn.Name() == "As") {
		// errors.Is(err, context.Canceled) only notices the caller gave
		// up; every real failure is still retried.
		return len(call.Args) != 2 || !t.isContextErr(call.Args[1])
	}
	sig, ok := types.Unalias(t.info.TypeOf(call.Fun)).(*types.Signature)
	if !ok || sig.Results().Len() == 0 || !isBool(sig.Results().At(0).Type()) {
		return false
	}
	for _, a := range call.Args {
		if isError(t.info.TypeOf(a)) || mentionsErrorText(t.info, a) || isFailureValue(t.info.TypeOf(a), a) {
			return true
		}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := t.info.Selections[sel]; ok && s.Kind() == types.MethodVal {
			recv := t.info.TypeOf(sel.X)
			return isError(recv) || types.Implements(recv, errorType) || implementsPtr(recv)
		}
	}
	return false
}

// isContextErr reports context.Canceled, context.DeadlineExceeded or a
// ctx.Err() call.
func (t *reader) isContextErr(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if v, ok := t.info.Uses[x.Sel].(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "context" {
			return true
		}
	case *ast.CallExpr:
		if fn := callee(t.info, x); fn != nil && fn.Name() == "Err" && fn.Pkg() != nil && fn.Pkg().Path() == "context" {
			return true
		}
	}
	return false
}

var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

func implementsPtr(t types.Type) bool {
	if t == nil {
		return false
	}
	if _, ok := t.(*types.Pointer); ok {
		return false
	}
	return types.Implements(types.NewPointer(t), errorType)
}

// isFailureValue reports an argument that describes a failure: an HTTP
// response, a gRPC code or status, or a status-code integer
// (resp.StatusCode, code): shouldRetry(resp), retryable(resp.StatusCode).
func isFailureValue(t types.Type, e ast.Expr) bool {
	if t == nil {
		return false
	}
	if failure.IsGRPCCode(t) {
		return true
	}
	if p, ok := t.(*types.Pointer); ok {
		if n, ok := types.Unalias(p.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil {
			path, name := n.Obj().Pkg().Path(), n.Obj().Name()
			if path == "net/http" && name == "Response" || strings.HasSuffix(path, "grpc/status") && name == "Status" {
				return true
			}
		}
	}
	if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
		text := strings.ToLower(types.ExprString(e))
		return strings.Contains(text, "status") || strings.Contains(text, "code")
	}
	return false
}

// mentionsErrorText reports an err.Error() inside e.
func mentionsErrorText(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" && isError(info.TypeOf(sel.X)) {
				found = true
			}
		}
		return !found
	})
	return found
}

func isError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

func isNil(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "nil"
}

// verdict is what an operation or predicate given to a library does with
// failures.
type verdict struct {
	// marks is how the operation tells the library which failures not to
	// retry, nil when the library reads no operation.
	marks      *OpMarks
	known      bool // its source was read
	classified bool
	permanent  []string
	retries    bool // some path asks for a retry (go-retry's RetryableError)
}

func (v *verdict) addPermanent(f failures) {
	for _, p := range f.permanent() {
		if !slicesContains(v.permanent, p) {
			v.permanent = append(v.permanent, p)
		}
	}
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// guardsInspect reports whether a path's conditions, or the returned
// expression, look at the failure.
func (t *reader) guardsInspect(guards []ast.Expr, ret ast.Expr) bool {
	for _, g := range guards {
		if g != nil && t.inspects(g) {
			return true
		}
	}
	return ret != nil && t.inspects(ret)
}

// predicate reads a retry predicate func(err error) bool: classified
// when a path that decides looks at the error, and the permanent
// failures of the paths that return true.
func (t *reader) predicate(e ast.Expr) verdict {
	_, body, in := t.funcOf(e)
	if body == nil {
		return verdict{classified: true}
	}
	v := verdict{known: true}
	in.retryPath(body, func(ret *ast.ReturnStmt, f failures, guards []ast.Expr) {
		if len(ret.Results) == 0 {
			return
		}
		r := ret.Results[len(ret.Results)-1]
		if c := in.constValue(r); c != nil && c.Kind() == constant.Bool {
			if in.guardsInspect(guards, nil) {
				v.classified = true
			}
			if constant.BoolVal(c) {
				v.addPermanent(f)
			}
			return
		}
		if in.guardsInspect(guards, r) {
			v.classified = true
		}
		v.addPermanent(f.and(in.cond(r)))
	})
	return v
}

// opKind says how an operation tells its library not to retry.
type opKind struct {
	path string
	// stop names the functions that mark a failure permanent
	// (backoff.Permanent, retry.Unrecoverable).
	stop []string
	// retry names the functions that mark a failure retryable
	// (go-retry's RetryableError); none means every failure is retried.
	retry []string
	// halts reports that the stop functions are called as statements
	// before the failure is returned, not wrapped around it: roko's
	// r.Break(); return err.
	halts bool
}

// OpMarks is how an operation given to a library tells it which failures
// not to retry, as plain data: a function of the package that wraps what
// a library call runs carries it to each of its callers, whose function
// literal is then read as the library would read it.
type OpMarks struct {
	Path  string   // the library's import path
	Stop  []string // functions that mark a failure permanent
	Retry []string // functions that mark a failure retryable; none: all are
	Halts bool     // Stop is called as a statement before the return
}

func (k opKind) marks() *OpMarks {
	return &OpMarks{Path: k.path, Stop: k.stop, Retry: k.retry, Halts: k.halts}
}

// ReadOperation reads a function value given as the operation of a
// library whose operations mark failures as m says, in the function body
// enclosing: whether it tells failures apart, and the permanent failures
// it lets the library retry. known is false when its source is not read.
func ReadOperation(info *types.Info, op ast.Expr, enclosing *ast.BlockStmt, m OpMarks) (known, classified bool, permanent []string) {
	t := &reader{info: info, body: enclosing, use: op.Pos()}
	v := t.operation(op, opKind{path: m.Path, stop: m.Stop, retry: m.Retry, halts: m.Halts})
	return v.known, v.classified, v.permanent
}

// operation reads an operation given to a library.
func (t *reader) operation(e ast.Expr, k opKind) verdict {
	v := t.readOperation(e, k)
	if len(k.stop) > 0 || len(k.retry) > 0 {
		v.marks = k.marks()
	}
	return v
}

func (t *reader) readOperation(e ast.Expr, k opKind) verdict {
	e = t.undecorated(e, 3)
	_, body, in := t.funcOf(e)
	if body == nil {
		if pkg := t.foreignFunc(e); pkg != nil && !t.mayKnow(pkg, k.path) {
			// A function of a package that does not know the library
			// cannot mark a failure permanent, nor retryable.
			return verdict{known: true, retries: len(k.retry) == 0}
		}
		return verdict{classified: true, retries: true}
	}
	v := verdict{known: true}
	if len(k.stop) > 0 && (in.stopsOnInspection(body, k, 2) || in.stopInsideInspection(body, k)) {
		v.classified = true
	}
	if k.halts && in.handsOverStop(body, k) {
		v.classified = true
	}
	if len(k.retry) > 0 {
		v.retries = in.callsAny(body, k.path, k.retry, 2)
	} else {
		v.retries = true
	}
	paths := in
	if k.halts {
		h := *in
		h.halt = &k
		paths = &h
	}
	var judge func(in *reader, r ast.Expr, f failures, guards []ast.Expr, depth int)
	judge = func(in *reader, r ast.Expr, f failures, guards []ast.Expr, depth int) {
		if f.stopped {
			// The operation told the library to stop on this path
			// (r.Break()): where it looked at the failure first, it
			// tells failures apart.
			if in.guardsInspect(guards, nil) {
				v.classified = true
			}
			return
		}
		if isNil(r) {
			if in.guardsInspect(guards, nil) {
				// A failure it looked at and reports as success
				// (if !isErrVolumeInUse(err) { return nil }) is not
				// retried: the operation tells failures apart.
				v.classified = true
			}
			return
		}
		if fd, hin := in.errorHelper(r); fd != nil && depth > 0 {
			// A helper of the package that makes the failure returned
			// (return r, classify(ctx, err)) decides per path: the
			// failures it returns unmarked are retried.
			hin.retryPath(fd.Body, func(ret *ast.ReturnStmt, g failures, hguards []ast.Expr) {
				if len(ret.Results) > 0 {
					judge(hin, ret.Results[len(ret.Results)-1], f.and(g), hguards, depth-1)
				}
			})
			return
		}
		if len(k.stop) > 0 && in.marks(r, k.path, k.stop) {
			return
		}
		retried := len(k.retry) == 0 || in.marks(r, k.path, k.retry)
		if len(k.retry) > 0 && in.guardsInspect(guards, nil) {
			v.classified = true
		}
		if retried {
			v.addPermanent(f)
		}
	}
	paths.retryPath(body, func(ret *ast.ReturnStmt, f failures, guards []ast.Expr) {
		if len(ret.Results) == 0 {
			return
		}
		judge(in, ret.Results[len(ret.Results)-1], f, guards, 2)
	})
	if len(v.permanent) > 0 {
		// It checks statuses or codes, only the wrong ones: a
		// retry-permanent finding, as for a hand-written loop.
		v.classified = true
	}
	return v
}

// undecorated looks through decorators of an operation: a call such as
// safe.OperationWithRecover(op) or withTrace(op), whose one function
// argument has the signature of its result, stands for that argument (it
// recovers, logs or traces, and hands the failure through).
func (t *reader) undecorated(e ast.Expr, depth int) ast.Expr {
	for ; depth > 0; depth-- {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return e
		}
		res := t.info.TypeOf(call)
		if res == nil {
			return e
		}
		if _, ok := res.Underlying().(*types.Signature); !ok {
			return e
		}
		var op ast.Expr
		for _, arg := range call.Args {
			if at := t.info.TypeOf(arg); at != nil && types.Identical(at.Underlying(), res.Underlying()) {
				if op != nil {
					return e // two candidates: a combinator, not a decorator
				}
				op = arg
			}
		}
		if op == nil {
			return e
		}
		e = op
	}
	return e
}

// foreignFunc returns the package of the function or method an
// operation names when it belongs to another package, nil otherwise.
func (t *reader) foreignFunc(e ast.Expr) *types.Package {
	fn, where := t.namedFunc(e)
	if fn == nil || fn.Pkg() == nil || where.funcDecl(fn) != nil || t.fileOf(fn.Pos()) != nil {
		return nil
	}
	return fn.Pkg()
}

// namedFunc returns the function or method an expression names, through
// the variable it was assigned to (f := time.Sleep), with a reader of
// where it was named; nil for any other expression.
func (t *reader) namedFunc(e ast.Expr) (*types.Func, *reader) {
	x, where := t.value(e)
	var obj types.Object
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		obj = where.info.Uses[x]
	case *ast.SelectorExpr:
		if s, ok := where.info.Selections[x]; ok {
			obj = s.Obj()
		} else {
			obj = where.info.Uses[x.Sel]
		}
	}
	fn, _ := obj.(*types.Func)
	return fn, where
}

// mayKnow reports whether another package's function may mark failures
// for the library at path: not if it is in the standard library, nor if
// it is in another repository that does not import the library; perhaps
// if it is in the same repository (its export data need not show an
// import used only in function bodies).
func (t *reader) mayKnow(pkg *types.Package, path string) bool {
	if first, _, _ := strings.Cut(pkg.Path(), "/"); !strings.Contains(first, ".") {
		return false
	}
	if cur := t.currentPackage(); cur != nil && sameRepository(cur.Path(), pkg.Path()) {
		return true
	}
	for _, p := range pkg.Imports() {
		if Path(p) == path {
			return true
		}
	}
	return false
}

// currentPackage returns the package being analysed.
func (t *reader) currentPackage() *types.Package {
	for _, obj := range t.info.Defs {
		if obj != nil && obj.Pkg() != nil {
			return obj.Pkg() // Defs holds the package's own objects only
		}
	}
	return nil
}

// sameRepository compares the first three elements of two import paths
// (host/owner/repository).
func sameRepository(a, b string) bool {
	pa, pb := strings.SplitN(a, "/", 4), strings.SplitN(b, "/", 4)
	if len(pa) < 3 || len(pb) < 3 {
		return pa[0] == pb[0]
	}
	return pa[0] == pb[0] && pa[1] == pb[1] && pa[2] == pb[2]
}

// stopInsideInspection reports a permanent-failure mark (backoff.Permanent,
// retry.Unrecoverable) made inside an if or case whose condition looks at
// the failure, wherever it is then returned: if isFatal(err) { err =
// backoff.Permanent(err) }.
// handsOverStop reports whether an operation hands the library's value
// it stops with (roko's *Retrier) to a function of the project together
// with the failure (api.BreakOnNonRetryable(r, resp, err)): that function
// decides which failures stop the retries.
func (t *reader) handsOverStop(body *ast.BlockStmt, k opKind) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if fn := callee(t.info, call); fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) == k.path {
			return true
		}
		stopper, failure := false, false
		for _, arg := range call.Args {
			at := t.info.TypeOf(arg)
			if p, ok := at.(*types.Pointer); ok {
				at = p.Elem()
			}
			if n, ok := at.(*types.Named); ok && n.Obj().Pkg() != nil && Path(n.Obj().Pkg()) == k.path {
				stopper = true
			}
			failure = failure || isError(t.info.TypeOf(arg))
		}
		found = stopper && failure
		return !found
	})
	return found
}

func (t *reader) stopInsideInspection(body *ast.BlockStmt, k opKind) bool {
	found := false
	var walk func(n ast.Node, inspected bool)
	walk = func(n ast.Node, inspected bool) {
		ast.Inspect(n, func(c ast.Node) bool {
			if found {
				return false
			}
			switch c := c.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IfStmt:
				in := inspected || t.inspects(c.Cond)
				if c.Init != nil {
					walk(c.Init, inspected)
				}
				walk(c.Body, in)
				if c.Else != nil {
					walk(c.Else, in)
				}
				return false
			case *ast.SwitchStmt:
				for _, cl := range c.Body.List {
					cc := cl.(*ast.CaseClause)
					in := inspected
					for _, cond := range caseConds(c.Tag, cc.List) {
						in = in || t.inspects(cond)
					}
					for _, st := range cc.Body {
						walk(st, in)
					}
				}
				return false
			case *ast.TypeSwitchStmt:
				in := inspected
				if x := typeSwitchSubject(c); x != nil {
					in = in || t.inspects(x)
				}
				walk(c.Body, in)
				return false
			case *ast.CallExpr:
				if _, ok := isCall(t.info, c, k.path, k.stop...); ok && inspected {
					found = true
				}
			}
			return true
		})
	}
	walk(body, false)
	return found
}

// stopsOnInspection reports whether a function returns a permanent
// failure (backoff.Permanent, retry.Unrecoverable) on a path whose
// conditions look at what failed, itself or through a helper of the
// package it returns from. Marking every failure of a step permanent
// behind err != nil (an encoding error, a bad request built locally)
// does not classify the failures that are retried.
func (t *reader) stopsOnInspection(body *ast.BlockStmt, k opKind, depth int) bool {
	found := false
	t.retryPath(body, func(ret *ast.ReturnStmt, _ failures, guards []ast.Expr) {
		if found || len(ret.Results) == 0 {
			return
		}
		r := ret.Results[len(ret.Results)-1]
		x, where := t.value(r)
		if _, ok := isCall(where.info, x, k.path, k.stop...); ok {
			found = t.guardsInspect(guards, nil)
			return
		}
		if call, ok := ast.Unparen(r).(*ast.CallExpr); ok && depth > 0 {
			if fd := t.funcDecl(callee(t.info, call)); fd != nil && fd.Body != body {
				found = t.at(fd.Body, fd.Body.End()).stopsOnInspection(fd.Body, k, depth-1)
			}
		}
	})
	return found
}

// errorHelper returns the declaration of the package's function that
// makes a returned error, directly or through a variable assigned it
// (return r, classify(ctx, err)), with a reader of its body; nil when e is
// no call of such a function or the function takes no error.
func (t *reader) errorHelper(e ast.Expr) (*ast.FuncDecl, *reader) {
	x, where := t.value(e)
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	fd := where.funcDecl(callee(where.info, call))
	if fd == nil || fd.Body == nil {
		return nil, nil
	}
	for _, arg := range call.Args {
		// The failure handed over: an error variable or a call that
		// returns one (classify(c.conn.Done(ctx, id))), not a nil.
		if t := where.info.TypeOf(arg); isError(t) {
			return fd, where.at(fd.Body, fd.Body.End())
		}
	}
	return nil, nil
}

// marks reports whether a returned error is built by one of the named
// functions of path, directly, through a variable, or through a helper
// of the package that returns it.
func (t *reader) marks(e ast.Expr, path string, names []string) bool {
	x, where := t.value(e)
	if _, ok := isCall(where.info, x, path, names...); ok {
		return true
	}
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		if fd := t.funcDecl(callee(t.info, call)); fd != nil {
			return t.callsAny(fd.Body, path, names, 0)
		}
	}
	return false
}

// callsAny reports whether body calls one of the named functions of
// path, itself or through helpers of the package up to depth levels.
func (t *reader) callsAny(body *ast.BlockStmt, path string, names []string, depth int) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if _, ok := isCall(t.info, call, path, names...); ok {
			found = true
			return false
		}
		if depth > 0 {
			if fd := t.funcDecl(callee(t.info, call)); fd != nil && fd.Body != body && t.callsAny(fd.Body, path, names, depth-1) {
				found = true
			}
		}
		return true
	})
	return found
}

// schedule is what a library's configuration says about the waits and
// the bound of its retries.
type schedule struct {
	delay    Delay
	at       ast.Expr // what configures the wait
	attempts int      // the first included; 0 no limit
	deadline bool
	ctx      ctxState
	waits    bool
	unknown  bool // configured where the finder cannot see
	never    bool // the configuration makes no retry at all
	// initial and factor describe a growing wait, for shortGrowth.
	initial      time.Duration
	initialKnown bool
	factor       float64
}

// unknownSchedule is the schedule of a back-off the finder cannot read.
func unknownSchedule(at ast.Expr) schedule {
	return schedule{delay: Delay{Unknown: true}, at: at, waits: true, unknown: true}
}

// limit lowers the attempt limit to n attempts (n > 0).
func (s *schedule) limit(n int) {
	if s.attempts == 0 || n < s.attempts {
		s.attempts = n
	}
}

// retrier turns a schedule and the verdict on the operation into a
// Retrier.
func (s schedule) retrier(lib string, call *ast.CallExpr, op ast.Expr, v verdict) *Retrier {
	d := s.delay
	if d.Grows && !d.Capped && !d.Unknown && shortGrowth(s.initial, s.initialKnown, s.factor, s.attempts) {
		d.Capped = true
	}
	at := s.at
	if at == nil {
		at = call.Fun
	}
	return &Retrier{
		Library:      lib,
		Call:         call,
		Op:           op,
		Attempts:     s.attempts,
		Deadline:     s.deadline || s.ctx.deadline,
		Context:      s.ctx.ends,
		Waits:        s.waits,
		Delay:        d,
		DelayAt:      at,
		Classified:   v.classified,
		Permanent:    v.permanent,
		Marks:        v.marks,
		BoundUnknown: s.unknown,
		Fixes:        fixes[lib],
	}
}

// fixes holds, per library, the fix of each rule in the library's own
// terms.
var fixes = map[string]map[string]string{
	cenkaltiV4Path: cenkaltiV4Fixes,
	cenkaltiV5Path: cenkaltiV5Fixes,
	cenkaltiV6Path: cenkaltiV5Fixes,
	cenkaltiV7Path: cenkaltiV5Fixes,
	retryGoPath:    retryGoFixes,
	sethvargoPath:  sethvargoFixes,
	dskitPath:      dskitFixes,
	gaxPath:        gaxFixes,
}

// round finds what repeats a back-off's wait at pos: the innermost loop
// of the body holding it; or, for a wait in a function literal without a
// loop, the loop of the outer function around the literal, or the
// library retry the literal is given to as its operation (loop nil).
// inRound reports whether a back-off built at origin is built anew on
// every round.
// pacedCall reads a back-off method called inside a hand-written loop
// (b.Wait(), b.NextBackOff(), b.Duration()): the receiver as written, the
// value it was made from and where that is read, the loop the call paces,
// and whether the value is made anew every round.
func (t *reader) pacedCall(call *ast.CallExpr) (recv, origin ast.Expr, where *reader, loop ast.Stmt, fresh, ok bool) {
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !isSel {
		return nil, nil, nil, nil, false, false
	}
	origin, where = t.value(sel.X)
	loop, fresh, ok = t.round(call.Pos(), origin)
	return sel.X, origin, where, loop, fresh, ok
}

func (t *reader) round(pos token.Pos, origin ast.Expr) (loop ast.Stmt, inRound, ok bool) {
	if loop = enclosingLoop(t.body, pos); loop != nil {
		return loop, inLoopBody(loop, origin), true
	}
	lit := t.funcLitOf(t.body)
	if lit == nil {
		return nil, false, false
	}
	built := origin != nil && t.body.Pos() <= origin.Pos() && origin.End() <= t.body.End()
	outer := t.declaringBody(lit.Pos())
	if outer == nil {
		return nil, false, false
	}
	if loop = enclosingLoop(outer, lit.Pos()); loop != nil {
		return loop, built, true
	}
	if loop = t.calledInLoop(outer, lit); loop != nil {
		return loop, built, true
	}
	if built && t.retriedOp(outer, lit) {
		return nil, true, true
	}
	return nil, false, false
}

// opInRetry marks the wait of a back-off built inside an operation that a
// library retries: only its wait is this Retrier's to judge; the bound,
// the context and the classification are the library call's.
func opInRetry(r *Retrier) {
	r.BoundUnknown, r.Context, r.Classified = true, true, true
}

// retryCalls are the functions of the libraries read here that run an
// operation with retries.
var retryCalls = map[string][]string{
	cenkaltiV4Path: {"Retry", "RetryNotify", "RetryNotifyWithTimer", "RetryWithData", "RetryNotifyWithData", "RetryNotifyWithTimerAndData"},
	cenkaltiV5Path: {"Retry"},
	cenkaltiV6Path: {"Retry"},
	cenkaltiV7Path: {"Retry"},
	retryGoPath:    {"Do", "DoWithData"},
	sethvargoPath:  {"Do", "DoValue", "Constant", "Exponential", "Fibonacci"},
	gaxPath:        {"Invoke"},
}

// calledInLoop returns the loop of body in which a function literal,
// held in a variable, is called.
func (t *reader) calledInLoop(body *ast.BlockStmt, lit *ast.FuncLit) ast.Stmt {
	var loop ast.Stmt
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || loop != nil {
			return loop == nil
		}
		if _, isID := ast.Unparen(call.Fun).(*ast.Ident); !isID {
			return true
		}
		at := &reader{info: t.info, body: body, use: call.Pos()}
		if x, _ := at.value(call.Fun); x == ast.Expr(lit) {
			loop = enclosingLoop(body, call.Pos())
		}
		return true
	})
	return loop
}

// assignedTo returns the variable a call's result is assigned to in the
// body (x := call, x = call, var x = call), nil if none.
func (t *reader) assignedTo(call *ast.CallExpr) types.Object {
	var obj types.Object
	ast.Inspect(t.body, func(n ast.Node) bool {
		if obj != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, r := range n.Rhs {
				if ast.Unparen(r) == ast.Expr(call) && i < len(n.Lhs) && len(n.Lhs) == len(n.Rhs) {
					obj = exprObject(t.info, n.Lhs[i])
				}
			}
		case *ast.ValueSpec:
			for i, v := range n.Values {
				if ast.Unparen(v) == ast.Expr(call) && i < len(n.Names) {
					obj = t.info.Defs[n.Names[i]]
				}
			}
		}
		return true
	})
	return obj
}

// funcLitOf returns the function literal whose body is body.
func (t *reader) funcLitOf(body *ast.BlockStmt) *ast.FuncLit {
	if body == nil {
		return nil
	}
	f := t.fileOf(body.Pos())
	if f == nil {
		return nil
	}
	var lit *ast.FuncLit
	ast.Inspect(f, func(n ast.Node) bool {
		if lit != nil || n == nil || !(n.Pos() <= body.Pos() && body.End() <= n.End()) {
			return false
		}
		if l, ok := n.(*ast.FuncLit); ok && l.Body == body {
			lit = l
		}
		return true
	})
	return lit
}

// retriedOp reports whether a function literal is the operation of a
// known library's retry call in body, given directly or through a
// variable.
func (t *reader) retriedOp(body *ast.BlockStmt, lit *ast.FuncLit) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		fn := callee(t.info, call)
		if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() != nil || !slicesContains(retryCalls[Path(fn.Pkg())], fn.Name()) {
			return true
		}
		at := &reader{info: t.info, body: body, use: call.Pos()}
		for _, a := range call.Args {
			if x, _ := at.value(a); x == ast.Expr(lit) {
				found = true
			}
		}
		return true
	})
	return found
}

// resetEachRound returns the back-off of a b.Reset() that a loop makes on
// every round before it waits, as a statement of its body outside any
// condition and ahead of the wait: the back-off then starts over every
// time and never grows. A Reset after the wait — at the end of the body,
// reached once an attempt succeeded — is the library's intended use. nil
// if none.
func (t *reader) resetEachRound(loop ast.Stmt, b ast.Expr, path string, wait token.Pos) ast.Expr {
	body := loopBody(loop)
	if body == nil {
		return nil
	}
	obj := exprObject(t.info, b)
	for _, s := range body.List {
		es, ok := s.(*ast.ExprStmt)
		if !ok || es.Pos() > wait {
			continue
		}
		call, ok := isCall(t.info, es.X, path, "Reset")
		if !ok {
			continue
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && obj != nil && exprObject(t.info, sel.X) == obj {
			return sel.X
		}
	}
	return nil
}
