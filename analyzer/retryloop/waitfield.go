package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzer/internal/retrylib"
)

// FieldParam says that a constructor stores its duration parameter Param
// (1-based) in the field Field of the value it returns:
// New(d time.Duration) *Backoff { return &Backoff{wait: d} }.
type FieldParam struct {
	Field string
	Param int
}

// waitField returns the field of the method's receiver that every wait
// of its retry loop waits as it is (time.Sleep(b.wait)), or "": a loop
// with another wait, or one that grows, has none.
func (a *checker) waitField(decl *ast.FuncDecl, l *Loop) string {
	if decl.Recv == nil || len(decl.Recv.List) == 0 || len(decl.Recv.List[0].Names) == 0 || len(l.Waits) == 0 {
		return ""
	}
	recv := a.info().Defs[decl.Recv.List[0].Names[0]]
	found := ""
	for _, w := range l.Waits {
		sel, ok := ast.Unparen(w.Delay).(*ast.SelectorExpr)
		if !ok || !w.Source.Constant() || !isDuration(a.typeOf(sel)) {
			return ""
		}
		id, ok := ast.Unparen(sel.X).(*ast.Ident)
		if !ok || recv == nil || a.info().Uses[id] != recv {
			return ""
		}
		if found != "" && found != sel.Sel.Name {
			return ""
		}
		found = sel.Sel.Name
	}
	return found
}

// fieldParams returns the duration parameters a constructor of the
// package stores in fields of the value it returns: keyed in a composite
// literal of the result's type (&Backoff{wait: d}) or assigned to a field
// of a variable of that type (b.wait = d).
func (a *checker) fieldParams(decl *ast.FuncDecl) []FieldParam {
	if out, ok := a.setsFields[decl]; ok {
		return out
	}
	if a.setsFields == nil {
		a.setsFields = map[*ast.FuncDecl][]FieldParam{}
	}
	out := a.readFieldParams(decl)
	a.setsFields[decl] = out
	return out
}

func (a *checker) readFieldParams(decl *ast.FuncDecl) []FieldParam {
	named := resultNamed(a.funcObj(decl))
	if named == nil || decl.Body == nil {
		return nil
	}
	params := fieldObjs(a, decl.Type.Params)
	paramOf := func(e ast.Expr) int {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return 0
		}
		for i, p := range params {
			if p != nil && p == a.info().Uses[id] && isDuration(p.Type()) {
				return i + 1
			}
		}
		return 0
	}
	var out []FieldParam
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CompositeLit:
			if !types.Identical(derefType(a.typeOf(n)), named) {
				return true
			}
			for _, elt := range n.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					if key, ok := kv.Key.(*ast.Ident); ok {
						if i := paramOf(kv.Value); i > 0 {
							out = append(out, FieldParam{Field: key.Name, Param: i})
						}
					}
				}
			}
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, l := range n.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if !ok || !types.Identical(derefType(a.typeOf(sel.X)), named) {
					continue
				}
				if p := paramOf(n.Rhs[i]); p > 0 {
					out = append(out, FieldParam{Field: sel.Sel.Name, Param: p})
				}
			}
		}
		return true
	})
	return out
}

// resultNamed is the named type (or what a pointer points to) a function
// returns first, nil when none.
func resultNamed(fn *types.Func) *types.Named {
	if fn == nil {
		return nil
	}
	sig := fn.Signature()
	if sig.Results().Len() == 0 {
		return nil
	}
	n, _ := types.Unalias(derefType(sig.Results().At(0).Type())).(*types.Named)
	return n
}

func derefType(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// constructorFields returns what a constructor stores in fields: read
// from its body in this package, from its fact in another.
func (a *checker) constructorFields(fn *types.Func) []FieldParam {
	if decl := a.decls[fn.Origin()]; decl != nil {
		return a.fieldParams(decl)
	}
	if s, ok := a.importSummary(fn); ok {
		return s.SetsFields
	}
	return nil
}

// fieldWaits finds the calls of constructors that give a constant to the
// field a method of the value they return waits between its attempts
// (backoff.New(time.Second), whose Retry sleeps b.wait).
func (a *checker) fieldWaits(call *ast.CallExpr, fn *types.Func) []ConstantWait {
	if fn == nil || retrylib.IsLibrary(fn) {
		return nil
	}
	named := resultNamed(fn)
	if named == nil {
		return nil
	}
	var out []ConstantWait
	for _, fp := range a.constructorFields(fn) {
		if fp.Param > len(call.Args) {
			continue
		}
		arg := call.Args[fp.Param-1]
		tv := a.info().Types[arg]
		if tv.Value == nil || tv.Value.Kind() != constant.Int || constant.Sign(tv.Value) <= 0 || !isDuration(tv.Type) {
			continue
		}
		ms := types.NewMethodSet(types.NewPointer(named))
		for i := 0; i < ms.Len(); i++ {
			m, ok := ms.At(i).Obj().(*types.Func)
			if !ok {
				continue
			}
			if r := a.retryOf(m); r != nil && r.WaitField == fp.Field {
				out = append(out, ConstantWait{Call: call, Arg: arg, Value: a.constText(arg), At: r.At})
				break
			}
		}
	}
	return out
}

// FieldFromParam reports whether a field is set, by a function of the
// package, from a duration parameter: a retrier whose wait is that field
// waits what its constructor's callers choose.
func (r *Result) FieldFromParam(field *types.Var) bool { return r.paramFields[field] }

// paramFields collects the fields the package's functions set from a
// duration parameter.
func (a *checker) paramFields() map[*types.Var]bool {
	out := map[*types.Var]bool{}
	for fn, decl := range a.decls {
		named := resultNamed(fn)
		if named == nil {
			continue
		}
		st, ok := named.Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for _, fp := range a.fieldParams(decl) {
			for i := 0; i < st.NumFields(); i++ {
				if st.Field(i).Name() == fp.Field {
					out[st.Field(i)] = true
				}
			}
		}
	}
	return out
}
