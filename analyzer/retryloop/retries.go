package retryloop

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/build"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
)

// Layer is one retry layer as nested-retry describes it.
type Layer struct {
	// Name is how the layer is named in messages: "retry loop",
	// "backoff.Retry", or the function that retries ("fetchWithRetry").
	Name string
	// At is where its retry loop is, file:line.
	At string
	// Attempts is the most attempts, the first included; 0 when unknown.
	Attempts  int
	Unbounded bool
	// Limit says, when Attempts is unknown, what sets them: "the argument
	// maxRetries" of the call, or the expression its loop counts up to,
	// "c.maxRetries"; "" when nothing does that can be read.
	Limit string
}

// Nesting is a retry layer whose operation reaches another retry layer:
// their attempts multiply.
type Nesting struct {
	// Pos is where the finding belongs: the outer loop, or the call of a
	// retry wrapper.
	Pos          token.Pos
	Outer, Inner Layer
	// Via is the call through which the outer layer reaches the inner one.
	Via string
}

// Product renders the attempts of nested layers in the seed's notation,
// (3+1)×(4+1) = 20, or says they are unbounded.
func (n Nesting) Product() string {
	if n.Outer.Unbounded || n.Inner.Unbounded {
		return "unbounded attempts"
	}
	term := func(l Layer) string {
		if l.Attempts == 0 {
			return "(n+1)"
		}
		return fmt.Sprintf("(%d+1)", l.Attempts-1)
	}
	s := term(n.Outer) + "×" + term(n.Inner)
	if n.Outer.Attempts > 0 && n.Inner.Attempts > 0 {
		s += fmt.Sprintf(" = %d attempts", n.Outer.Attempts*n.Inner.Attempts)
	} else {
		s += " attempts"
	}
	return s
}

// retryIndex holds, per function of the package, its retry loops.
type retryIndex struct {
	byFunc map[ast.Node][]*Loop
	memo   map[*types.Func]*RetrySummary
	busy   map[*types.Func]bool
}

// within returns the loops of a function that start in [start, end); the
// loops of a function are in source order.
func (ix *retryIndex) within(fn ast.Node, start, end token.Pos) []*Loop {
	loops := ix.byFunc[fn]
	i, _ := slices.BinarySearchFunc(loops, start, func(l *Loop, p token.Pos) int { return cmp.Compare(l.Pos, p) })
	j, _ := slices.BinarySearchFunc(loops, end, func(l *Loop, p token.Pos) int { return cmp.Compare(l.Pos, p) })
	return loops[i:j]
}

func (a *checker) indexLoops(res *Result) {
	a.retries = &retryIndex{byFunc: map[ast.Node][]*Loop{}, memo: map[*types.Func]*RetrySummary{}, busy: map[*types.Func]bool{}}
	for _, l := range res.Loops {
		if l.Library != nil && l.Library.Configures {
			continue // sets up retries that run in other calls
		}
		a.retries.byFunc[l.Func] = append(a.retries.byFunc[l.Func], l)
	}
}

// layerOf describes a loop as a retry layer.
func (a *checker) layerOf(l *Loop) Layer {
	ly := Layer{Name: l.Subject(), At: a.position(l.Pos), Attempts: l.Attempts, Unbounded: l.Bound == BoundNone, Limit: a.loopLimit(l)}
	if in := a.innerOf(l); in != nil {
		ly.Attempts, ly.Unbounded = multiply(ly, *in)
		ly.Limit = ""
	}
	return ly
}

func multiply(x, y Layer) (int, bool) {
	if x.Unbounded || y.Unbounded {
		return 0, true
	}
	if x.Attempts == 0 || y.Attempts == 0 {
		return 0, false
	}
	return x.Attempts * y.Attempts, false
}

// retrySummary says how fn retries, or nil if it does not.
func (a *checker) retrySummary(fn *types.Func, _ *Result) *RetrySummary {
	return a.retryOf(fn)
}

// retryOf says how a call of fn retries: a retry loop of its own body, a
// call outside any loop to a function that retries, or the fact of a
// function of another package.
func (a *checker) retryOf(fn *types.Func) *RetrySummary {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	ix := a.retries
	if r, ok := ix.memo[fn]; ok {
		return r
	}
	decl := a.decls[fn]
	if decl == nil && isInterfaceMethod(fn) {
		if f := a.summarize(fn).fact; f != nil && f.Retry != nil {
			ix.memo[fn] = f.Retry // what the interface's own package found behind it
			return f.Retry
		}
		if ix.busy[fn] {
			return nil
		}
		ix.busy[fn] = true
		r := a.implRetry(fn)
		delete(ix.busy, fn)
		ix.memo[fn] = r
		return r
	}
	if decl == nil {
		s := a.summarize(fn)
		if s.fact != nil {
			ix.memo[fn] = s.fact.Retry
			return s.fact.Retry
		}
		ix.memo[fn] = nil
		return nil
	}
	if ix.busy[fn] {
		return nil
	}
	ix.busy[fn] = true
	defer delete(ix.busy, fn)
	var r *RetrySummary
	var loops []*Loop
	for _, l := range ix.byFunc[decl] {
		if !l.LocalOS {
			loops = append(loops, l) // a race on this machine is no retry layer
		}
	}
	if len(loops) > 0 {
		l := loops[0]
		ly := a.layerOf(l)
		r = &RetrySummary{Attempts: ly.Attempts, Unbounded: ly.Unbounded, At: ly.At, Param: a.wrappedParam(decl, l)}
		r.WaitParam = a.waitParam(decl, l)
		r.WaitField = a.waitField(decl, l)
		r.Limit, r.LimitArg = a.ownLimit(decl, l, r)
		if r.Param >= 0 {
			r.Deaf = l.Context == nil && (deafWaits(l) || a.deafRunnerCall(l))
			r.Answer = l.answer
			if !boolResult(fieldObjs(a, decl.Type.Params)[r.Param]) {
				r.Answer = 0 // the answer was of a runner this one hands an adapter
			}
			if r.Attempts == 0 && !r.Unbounded {
				r.LimitParam = a.limitParam(decl, l)
			}
			r.PredicateParam = a.predicateParam(decl, l)
			r.Blind = r.Answer == 0 && r.PredicateParam == 0 && a.blindRunner(decl, l, r.Param)
			if l.Library != nil && l.Library.Marks != nil && l.Library.Op != nil && a.wrappedParam(decl, l) == r.Param {
				if id, ok := ast.Unparen(l.Library.Op).(*ast.Ident); ok && a.info().Uses[id] == fieldObjs(a, decl.Type.Params)[r.Param] {
					r.Marks = l.Library.Marks
				}
			}
		}
		if l.Bound == BoundContext && r.Attempts == 0 && r.LimitParam == 0 && l.Context != nil {
			for i, p := range fieldObjs(a, decl.Type.Params) {
				if p != nil && p == l.Context {
					r.CtxParam = i + 1
				}
			}
		}
	} else if p := a.pollRunner(decl); p != nil {
		r = p
	} else {
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
				return false
			case *ast.CallExpr:
				inner, retries := a.retryAt(n)
				if inner == nil {
					inner = a.fieldCallRetry(n)
					retries = inner != nil
				}
				switch {
				case r != nil || inner == nil:
				case inner.Param < 0:
					c := *inner
					r = &c
				case retries:
					// Do(fn) { return run(fn, tries) }: a runner too, of
					// the function value it hands on.
					if i := funcParamIndex(a, decl, n.Args[inner.Param:inner.Param+1]); i >= 0 {
						c := *inner
						c.Param = i
						c.LimitParam = forwardedParam(a, decl, n, inner.LimitParam)
						c.PredicateParam = forwardedParam(a, decl, n, inner.PredicateParam)
						r = &c
					}
				}
			}
			return r == nil
		})
	}
	ix.memo[fn] = r
	return r
}

// deafRunnerCall reports whether a loop is the call of a runner that
// sleeps without a context (Retry(f) { return run(5, adapter(f)) }).
func (a *checker) deafRunnerCall(l *Loop) bool {
	call, ok := l.Node.(*ast.CallExpr)
	if l.Form != FormRunner || !ok {
		return false
	}
	r, _ := a.retryAt(call)
	return r != nil && r.Deaf
}

// implRetry says how a call of an interface method retries: as the
// implementations the interface's own package and the one being analysed
// declare, when every one of them retries (a client behind the RPCClient
// interface its package declares and implements); the first in name order
// answers. An interface with an implementation that does not retry (a
// local lock beside a distributed one, a plain store beside a retrying
// one) says nothing of the call. Decorators holding the interface are
// passed over, and interfaces of the standard library are not followed.
func (a *checker) implRetry(m *types.Func) *RetrySummary {
	n := recvNamed(m)
	if n == nil || m.Pkg() == nil || a.inGorootPos(n.Obj().Pos()) {
		return nil
	}
	iface, ok := n.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var first *RetrySummary
	for _, pkg := range []*types.Package{m.Pkg(), a.pass.Pkg} {
		for _, name := range pkg.Scope().Names() {
			tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
				continue
			}
			if named, ok := tn.Type().(*types.Named); !ok || named.TypeParams().Len() > 0 {
				continue // a generic type implements nothing until instantiated
			}
			if wraps(tn.Type(), n) {
				continue // a decorator: its retry is the caller's own layer
			}
			for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
				if !types.Implements(t, iface) {
					continue
				}
				obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
				impl, ok := obj.(*types.Func)
				if !ok || isInterfaceMethod(impl) {
					break
				}
				r := a.retryOf(impl)
				if r == nil || r.Param >= 0 {
					return nil // one implementation does not retry
				}
				if first == nil {
					first = r
				}
				break
			}
		}
		if pkg == a.pass.Pkg {
			break
		}
	}
	return first
}

// wraps reports whether a type holds a value of the interface it
// implements (Identity{stub IdentityClient}): a decorator, whose methods
// call the interface again.
func wraps(t types.Type, iface *types.Named) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		ft := st.Field(i).Type()
		if p, ok := ft.(*types.Pointer); ok {
			ft = p.Elem()
		}
		if types.Identical(ft, iface) {
			return true
		}
	}
	return false
}

// inGorootPos reports whether a declaration stands in the Go
// distribution's source tree.
func (a *checker) inGorootPos(pos token.Pos) bool {
	root := build.Default.GOROOT
	if root == "" || !pos.IsValid() {
		return false
	}
	rel, err := filepath.Rel(filepath.Join(root, "src"), a.pass.Fset.Position(pos).Filename)
	return err == nil && filepath.IsLocal(rel)
}

// blindRunner reports whether a runner's loop goes round on every error
// of the function value it was given (parameter param) without reading
// any: the loop is unclassified, and the operation it leaves unread is
// the run of that value.
func (a *checker) blindRunner(decl *ast.FuncDecl, l *Loop, param int) bool {
	if l.Classified || l.Library != nil {
		return false
	}
	op := l.Unclassified
	if op == nil && len(l.Ops) > 0 {
		op = l.Ops[0]
	}
	return op != nil && funcParamIndex(a, decl, append([]ast.Expr{op.Fun}, op.Args...)) == param
}

// wrappedParam returns the parameter holding the function value a loop
// retries — the loop's operation calls it, or the library is given it —
// or -1.
func (a *checker) wrappedParam(decl *ast.FuncDecl, l *Loop) int {
	params := fieldObjs(a, decl.Type.Params)
	index := func(e ast.Expr) int {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return -1
		}
		obj := a.info().ObjectOf(id)
		for i, p := range params {
			if p != nil && p == obj {
				if _, ok := p.Type().Underlying().(*types.Signature); ok {
					return i
				}
			}
		}
		return -1
	}
	if l.Library != nil && l.Library.Op != nil {
		if i := index(l.Library.Op); i >= 0 {
			return i
		}
	}
	for _, op := range l.Ops {
		if i := index(op.Fun); i >= 0 {
			return i
		}
	}
	// again, err = r.invoke(try, tries, fn): the operation is handed the
	// function value and runs it.
	for _, op := range l.Ops {
		if i := funcParamIndex(a, decl, op.Args); i >= 0 {
			return i
		}
	}
	return -1
}

// innerOf returns the first retry layer that the operation of a loop
// reaches: a retry loop nested in it, a library retrier in its body or in
// the operation given to the library, or a call to a function that
// retries.
func (a *checker) innerOf(l *Loop) *Layer {
	n, _ := a.nestedIn(l)
	if n == nil {
		return nil
	}
	return &n.Inner
}

// nestedIn finds the inner layer of a loop, and the call it goes through.
// A hand-written loop reaches what its operations do: a library retrier
// or another retry loop whose failure is the operation's, or a function
// that retries. A library call or a retry wrapper reaches whatever the
// operation given to it does.
func (a *checker) nestedIn(l *Loop) (*Nesting, bool) {
	if l.Form == FormRunner {
		// A runner's call reaches what its attempt does: a retry loop
		// in the literal, or the operations it retries.
		call := l.Node.(*ast.CallExpr)
		if r, _ := a.retryAt(call); r != nil && r.Param >= 0 && r.Param < len(call.Args) {
			if lit, ok := ast.Unparen(call.Args[r.Param]).(*ast.FuncLit); ok {
				if inner := a.retries.byFunc[lit]; len(inner) > 0 {
					return &Nesting{Pos: l.Pos, Inner: a.layerOf(inner[0]), Via: inner[0].Subject()}, true
				}
			}
		}
		return a.nestedInOps(l)
	}
	if l.Library == nil && l.Ops != nil {
		return a.nestedInOps(l)
	}
	var lit *ast.FuncLit
	switch {
	case l.Library != nil:
		lit, _ = ast.Unparen(l.Library.Op).(*ast.FuncLit)
	default:
		lit, _ = l.Node.(*ast.FuncLit)
	}
	if lit == nil {
		return nil, false
	}
	if inner := a.retries.byFunc[lit]; len(inner) > 0 {
		return &Nesting{Pos: l.Pos, Inner: a.layerOf(inner[0]), Via: inner[0].Subject()}, true
	}
	var found *Nesting
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.CallExpr:
			if found == nil {
				found = a.retryingCall(l, n)
			}
		}
		return found == nil
	})
	return found, found != nil
}

// nestedInOps finds the inner layer of a hand-written loop among the
// operations it retries.
func (a *checker) nestedInOps(l *Loop) (*Nesting, bool) {
	within := a.retries.within(l.Func, l.Node.Pos(), l.Node.End())
	for _, op := range l.Ops {
		for _, inner := range within {
			if inner == l {
				continue
			}
			if inner.Library != nil && inner.Library.Call == op || inner.Library == nil && containsCall(inner.Ops, op) && inner.Node != l.Node {
				return &Nesting{Pos: l.Pos, Inner: a.layerOf(inner), Via: inner.Subject()}, true
			}
		}
		if n := a.retryingCall(l, op); n != nil {
			return n, true
		}
	}
	return nil, false
}

// retryingCall is the nesting of a call to a function that retries.
func (a *checker) retryingCall(l *Loop, call *ast.CallExpr) *Nesting {
	fn := a.callee(call)
	r := a.retryOf(fn)
	if r != nil && r.Poll {
		return nil // a poll runs what it is given; the attempt says whether it retries
	}
	if r == nil {
		r = a.fieldCallRetry(call)
		fn = nil
	}
	if r == nil || fn != nil && fn.Origin() == a.funcObj(l.Func) {
		return nil
	}
	name := types.ExprString(call.Fun)
	return &Nesting{Pos: l.Pos, Inner: a.layerAt(name, r, call), Via: name}
}

func (a *checker) funcObj(fn ast.Node) *types.Func {
	if fd, ok := fn.(*ast.FuncDecl); ok {
		f, _ := a.info().Defs[fd.Name].(*types.Func)
		return f
	}
	return nil
}

// nestings lists every retry layer of the package whose operation reaches
// another one, and every call of a retry wrapper whose function value
// does.
func (a *checker) nestings(res *Result) []Nesting {
	var out []Nesting
	runners := map[ast.Node]bool{}
	for _, l := range res.Loops {
		if l.Form == FormRunner {
			runners[l.Node] = true
		}
		if n, ok := a.nestedIn(l); ok {
			n.Outer = Layer{Name: l.Subject(), At: a.position(l.Pos), Attempts: l.Attempts, Unbounded: l.Bound == BoundNone, Limit: a.loopLimit(l)}
			if l.Form == FormRunner {
				if r, _ := a.retryAt(l.Node.(*ast.CallExpr)); r != nil {
					n.Outer.At, n.Outer.Unbounded = r.At, r.Unbounded
					n.Outer.Limit = a.layerAt(n.Outer.Name, r, l.Node.(*ast.CallExpr)).Limit
				}
			}
			out = append(out, *n)
		}
	}
	for _, f := range a.pass.Files {
		if !a.wantFile(f.Pos()) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || runners[call] {
				return true
			}
			fn := a.callee(call)
			r := a.retryOf(fn)
			if r == nil || r.Param < 0 || r.Param >= len(call.Args) {
				return true
			}
			lit, ok := ast.Unparen(call.Args[r.Param]).(*ast.FuncLit)
			if !ok {
				return true
			}
			pseudo := &Loop{Node: lit, Pos: call.Pos(), Func: lit, Library: nil}
			inner, ok := a.nestedIn(pseudo)
			if !ok {
				return true
			}
			inner.Outer = a.layerAt(types.ExprString(call.Fun), r, call)
			out = append(out, *inner)
			return true
		})
	}
	return out
}

// loopAttempts is the constant attempt bound of a for loop: for i := 0;
// i < 3; i++ makes 3 attempts, for range 5 makes 5. 0 when unknown.
func (a *checker) loopAttempts(fc *funcCtx, l *Loop) int {
	switch s := l.Node.(type) {
	case *ast.RangeStmt:
		if n, ok := a.intConst(fc, s.X, s.Pos()); ok && n > 0 {
			return int(n)
		}
	case *ast.ForStmt:
		if s.Cond != nil {
			if n := a.condAttempts(fc, s, s.Cond); n > 0 {
				return n
			}
		}
		return a.bodyAttempts(fc, s, l.Ops)
	}
	return 0
}

// counterTest reads a comparison of a variable with a constant, the
// variable on the left: i < N, N > i (as i < N).
func (a *checker) counterTest(fc *funcCtx, s *ast.ForStmt, cond ast.Expr) (v types.Object, op token.Token, limit int64, ok bool) {
	b, isBin := ast.Unparen(cond).(*ast.BinaryExpr)
	if !isBin {
		return nil, 0, 0, false
	}
	x, op, y := b.X, b.Op, b.Y
	if _, isConst := a.intConst(fc, x, s.Pos()); isConst {
		x, y, op = y, x, mirror(op)
	}
	id, isIdent := ast.Unparen(x).(*ast.Ident)
	if !isIdent {
		return nil, 0, 0, false
	}
	v = a.info().ObjectOf(id)
	limit, ok = a.intConst(fc, y, s.Pos())
	return v, op, limit, ok && v != nil
}

// condAttempts reads i < N, i <= N, N > i and i > 0 counting down.
func (a *checker) condAttempts(fc *funcCtx, s *ast.ForStmt, cond ast.Expr) int {
	v, op, limit, ok := a.counterTest(fc, s, cond)
	if !ok {
		return 0
	}
	start, ok := a.initialValue(fc, s, v)
	if !ok {
		return 0
	}
	var n int64
	switch op {
	case token.LSS:
		n = limit - start
	case token.LEQ:
		n = limit - start + 1
	case token.GTR:
		n = start - limit
	case token.GEQ:
		n = start - limit + 1
	}
	if n <= 0 || n > 1<<20 {
		return 0
	}
	return int(n)
}

// initialValue is the constant a loop variable starts from: the for
// statement's init, or its one assignment before the loop.
func (a *checker) initialValue(fc *funcCtx, s *ast.ForStmt, v types.Object) (int64, bool) {
	var rhs ast.Expr
	for _, as := range fc.assigns[v] {
		if as.pos >= s.Body.Pos() {
			continue
		}
		if as.tok != token.DEFINE && as.tok != token.ASSIGN {
			continue
		}
		if rhs != nil && as.pos < s.Pos() && (s.Init == nil || as.pos < s.Init.Pos()) {
			continue
		}
		rhs = as.rhs
	}
	if rhs == nil {
		if vs, ok := v.(*types.Var); ok && !vs.IsField() {
			// var attempt int: starts at zero.
			for _, as := range fc.assigns[v] {
				if as.rhs == nil && as.tok == token.DEFINE {
					return 0, true
				}
			}
		}
		return 0, false
	}
	return a.intConst(fc, rhs, s.Pos())
}

// intConst evaluates a constant integer, or a local variable set once to
// one before pos.
func (a *checker) intConst(fc *funcCtx, e ast.Expr, pos token.Pos) (int64, bool) {
	if tv, ok := a.info().Types[e]; ok && tv.Value != nil {
		if v, ok := constant.Int64Val(constant.ToInt(tv.Value)); ok {
			return v, true
		}
		return 0, false
	}
	if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
		if v, ok := a.info().ObjectOf(sel.Sel).(*types.Var); ok && v.IsField() {
			return a.fieldConst(v)
		}
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return 0, false
	}
	obj := a.info().ObjectOf(id)
	list := fc.assigns[obj]
	if obj == nil || len(list) != 1 || list[0].rhs == nil || list[0].pos >= pos {
		return 0, false
	}
	if tv, ok := a.info().Types[list[0].rhs]; ok && tv.Value != nil {
		if v, ok := constant.Int64Val(constant.ToInt(tv.Value)); ok {
			return v, true
		}
	}
	return 0, false
}

// fieldConst returns the largest value an unexported integer field of
// the package is ever given, when every write is a constant (a retryer
// built with numRetries: defaultNumRetries): an attempt limit read from
// it is at most that. Only the package can write such a field; a write
// that is no constant, an increment or an address taken makes it unknown.
func (a *checker) fieldConst(v *types.Var) (int64, bool) {
	if v.Exported() || v.Pkg() != a.pass.Pkg || !isInteger(v.Type()) {
		return 0, false
	}
	if fi, ok := a.fieldInts[v]; ok {
		return fi.max, fi.known
	}
	fi := fieldInt{known: true}
	values, known := a.fieldWrites(v)
	for i, e := range values {
		tv, ok := a.info().Types[e]
		n, exact := int64(0), false
		if ok && tv.Value != nil {
			n, exact = constant.Int64Val(constant.ToInt(tv.Value))
		}
		if !exact {
			known = false
			break
		}
		if i == 0 || n > fi.max {
			fi.max = n
		}
	}
	fi.known = known && len(values) > 0
	if a.fieldInts == nil {
		a.fieldInts = map[*types.Var]fieldInt{}
	}
	a.fieldInts[v] = fi
	return fi.max, fi.known
}

// fieldWrites returns every value the package gives a field of its own:
// assignments, keyed and positional composite literals. known is false
// when it is also written another way (an increment, an address taken, a
// tuple assignment), so that the values are not all it can hold.
func (a *checker) fieldWrites(v *types.Var) (values []ast.Expr, known bool) {
	known = true
	isField := func(e ast.Expr) bool {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			return a.info().ObjectOf(x.Sel) == v
		case *ast.Ident:
			return a.info().ObjectOf(x) == v
		}
		return false
	}
	for _, f := range a.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if isField(n.Key) {
					values = append(values, n.Value)
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if isField(l) {
						if n.Tok != token.ASSIGN && n.Tok != token.DEFINE || len(n.Lhs) != len(n.Rhs) {
							known = false
						} else {
							values = append(values, n.Rhs[i])
						}
					}
				}
			case *ast.CompositeLit:
				if st, ok := structOf(a.info().TypeOf(n)); ok && len(n.Elts) > 0 {
					if _, keyed := n.Elts[0].(*ast.KeyValueExpr); !keyed {
						for i := 0; i < st.NumFields() && i < len(n.Elts); i++ {
							if st.Field(i) == v {
								values = append(values, n.Elts[i])
							}
						}
					}
				}
			case *ast.IncDecStmt:
				if isField(n.X) {
					known = false
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND && isField(n.X) {
					known = false
				}
			}
			return known
		})
	}
	return values, known
}

// typeparams returns the struct a composite literal builds, through a
// pointer or a named type.
func structOf(t types.Type) (*types.Struct, bool) {
	if t == nil {
		return nil, false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// bodyAttempts reads an attempt limit tested inside the body of a loop
// without one in its condition: for { err := op(); ...; if n >= 3 { return
// err }; n++ } makes 4 attempts. The counter must start from a constant,
// go up by one in one place, in the block of the test, and the test must
// leave the loop.
func (a *checker) bodyAttempts(fc *funcCtx, s *ast.ForStmt, ops []*ast.CallExpr) int {
	if len(ops) == 0 {
		return 0
	}
	first := ops[0].Pos()
	for _, op := range ops {
		if op.Pos() < first {
			first = op.Pos()
		}
	}
	best := 0
	ast.Inspect(s.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		block, ok := n.(*ast.BlockStmt)
		if !ok {
			return true
		}
		for _, st := range block.List {
			is, ok := st.(*ast.IfStmt)
			if !ok || is.Init != nil || is.Else != nil || !leavesLoop(is.Body) {
				continue
			}
			if n := a.testedLimit(fc, s, block, is, first); n > 0 && (best == 0 || n < best) {
				best = n
			}
		}
		return true
	})
	return best
}

// testedLimit is the number of attempts an `if v >= N { leave }` in block
// allows, or 0.
func (a *checker) testedLimit(fc *funcCtx, s *ast.ForStmt, block *ast.BlockStmt, is *ast.IfStmt, firstOp token.Pos) int {
	v, op, limit, ok := a.counterTest(fc, s, is.Cond)
	if !ok {
		return 0
	}
	before := int64(0)
	switch inc := a.singleIncrement(s.Body, v); {
	case inc != nil && containsStmt(block, inc):
		if inc.Pos() < is.Pos() {
			before = 1
		}
	case inc == nil && s.Post != nil && a.singleIncrement(&ast.BlockStmt{List: []ast.Stmt{s.Post}}, v) != nil && a.singleIncrement(s.Body, v) == nil && !a.assignedIn(s.Body, v):
		// for n := 0; ; n++: counted after every round.
	default:
		return 0
	}
	start, ok := a.initialValue(fc, s, v)
	if !ok {
		return 0
	}
	var rounds int64
	switch op {
	case token.GEQ:
		rounds = limit - start - before
	case token.GTR:
		rounds = limit + 1 - start - before
	case token.EQL:
		rounds = limit - start - before
		if rounds < 0 {
			return 0
		}
	default:
		return 0
	}
	rounds = max(rounds, 0)
	attempts := rounds
	if firstOp < is.Pos() {
		attempts++
	}
	if attempts <= 0 || attempts > 1<<20 {
		return 0
	}
	return int(attempts)
}

// singleIncrement returns the one statement of body that changes v, when
// it is v++ or v += 1; nil otherwise.
func (a *checker) singleIncrement(body *ast.BlockStmt, v types.Object) ast.Stmt {
	var inc ast.Stmt
	count := 0
	isV := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && a.info().ObjectOf(id) == v
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IncDecStmt:
			if isV(n.X) {
				count++
				if n.Tok == token.INC {
					inc = n
				}
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if isV(l) {
					count++
					if n.Tok == token.ADD_ASSIGN && len(n.Rhs) == 1 {
						if c, ok := a.info().Types[n.Rhs[0]]; ok && c.Value != nil && c.Value.String() == "1" {
							inc = n
						}
					}
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && isV(n.X) {
				count += 2 // its address escapes: not a counter to read
			}
		}
		return true
	})
	if count != 1 {
		return nil
	}
	return inc
}

// assignedIn reports whether body changes v at all.
func (a *checker) assignedIn(body *ast.BlockStmt, v types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && a.info().ObjectOf(id) == v {
				found = true
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && a.info().ObjectOf(id) == v {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// containsStmt reports whether st is one of block's statements.
func containsStmt(block *ast.BlockStmt, st ast.Stmt) bool {
	for _, x := range block.List {
		if x == st {
			return true
		}
	}
	return false
}

// leavesLoop reports whether a block ends by leaving the loop: a return,
// or a break without a label.
func leavesLoop(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch st := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return st.Tok == token.BREAK && st.Label == nil
	}
	return false
}

// boolResult reports whether a parameter is a function with a bool
// among its results: only such a value can answer whether to go again.
func boolResult(p types.Object) bool {
	if p == nil {
		return false
	}
	sig, ok := p.Type().Underlying().(*types.Signature)
	if !ok {
		return false
	}
	for i := 0; i < sig.Results().Len(); i++ {
		if isBool(sig.Results().At(i).Type()) {
			return true
		}
	}
	return false
}
