package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
)

// receiverContext finds a context.Context the method enclosing pos holds
// in its receiver: a field s.ctx, or one a field further down (s.opts.ctx).
// It returns the field and how the code reaches it.
func (a *checker) receiverContext(pos token.Pos) (*types.Var, string) {
	recv := a.receiver(pos)
	if recv == nil {
		return nil, ""
	}
	return contextField(a.pass.Pkg, recv.Type(), recv.Name(), 0)
}

// receiver is the named receiver of the method enclosing pos, or nil.
func (a *checker) receiver(pos token.Pos) *types.Var {
	decl := a.enclosingDecl(pos)
	if decl == nil || decl.Recv == nil || len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 {
		return nil
	}
	name := decl.Recv.List[0].Names[0]
	recv, ok := a.info().Defs[name].(*types.Var)
	if !ok || name.Name == "_" {
		return nil
	}
	return recv
}

// contextField searches the fields of a struct type, breadth first, for a
// context.Context that code of package pkg can reach: an unexported field
// of another package's struct is out of its reach, and a fix naming it
// would not compile.
func contextField(pkg *types.Package, t types.Type, via string, depth int) (*types.Var, string) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 1 {
		return nil, ""
	}
	var best *types.Var
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); isContext(f.Type()) && reachable(pkg, f) && (best == nil || f.Name() == "ctx") {
			best = f
		}
	}
	if best != nil {
		return best, via + "." + best.Name()
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !reachable(pkg, f) {
			continue
		}
		if _, isNamed := types.Unalias(f.Type()).(*types.Named); !isNamed {
			if _, isPtr := f.Type().(*types.Pointer); !isPtr {
				continue
			}
		}
		if v, expr := contextField(pkg, f.Type(), via+"."+f.Name(), depth+1); v != nil {
			return v, expr
		}
	}
	return nil, ""
}

// contextExpr is how code at pos names the context v: the receiver's
// field path for a field, nothing for a variable (its name says it).
func (a *checker) contextExpr(v *types.Var, pos token.Pos) string {
	if v == nil || !v.IsField() {
		return ""
	}
	if f, expr := a.receiverContext(pos); f == v {
		return expr
	}
	return ""
}

// enclosingDecl returns the function declaration holding pos.
func (a *checker) enclosingDecl(pos token.Pos) *ast.FuncDecl {
	f := a.fileOf(pos)
	if f == nil {
		return nil
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
			return fd
		}
	}
	return nil
}

// reachable reports whether code of package pkg can name the field f.
func reachable(pkg *types.Package, f *types.Var) bool {
	return f.Exported() || f.Pkg() == pkg
}
