package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
	"time"
)

// Delay says where the duration of a wait comes from.
type Delay struct {
	Grows   bool // changes with the attempt (d *= 2, base << n, base * n)
	Random  bool // something random enters it
	Capped  bool // clamped by min, an if, or a finite schedule
	Unknown bool // comes from code the analysis cannot see (a library, an interface)
	// Value is the constant delay as written or evaluated ("1s",
	// "retryDelay"), when the delay does not change.
	Value string

	self bool // refers back to the variable being resolved
}

// Constant reports whether the delay is the same on every attempt.
func (d Delay) Constant() bool { return !d.Grows && !d.Random && !d.Unknown }

func (d Delay) or(e Delay) Delay {
	return Delay{
		Grows:   d.Grows || e.Grows,
		Random:  d.Random || e.Random,
		Capped:  d.Capped || e.Capped,
		Unknown: d.Unknown || e.Unknown,
		self:    d.self || e.self,
	}
}

const maxDelayDepth = 16

// delayCtx is the scope in which a delay expression is resolved: a loop of
// a function, or the body of a helper called from it with its parameters
// bound to the caller's arguments.
type delayCtx struct {
	fc         *funcCtx
	start, end token.Pos
	counters   map[types.Object]bool
	env        map[types.Object]Delay
	visiting   map[types.Object]bool
	depth      int
}

func (dc *delayCtx) inRegion(p token.Pos) bool { return dc.start <= p && p < dc.end }

func (w *walker) delay(e ast.Expr) Delay {
	if e == nil {
		return Delay{Unknown: true}
	}
	dc := &delayCtx{fc: w.fc, start: w.lc.start, end: w.lc.end, counters: w.lc.counters, visiting: map[types.Object]bool{}}
	d := w.a.delayOf(dc, e)
	d.self = false
	if d.Constant() {
		d.Value = w.a.constText(e)
	}
	return d
}

// constText renders a constant delay: its value as a duration when known,
// else the expression.
func (a *checker) constText(e ast.Expr) string {
	if tv := a.info().Types[e]; tv.Value != nil && tv.Value.Kind() == constant.Int && isDuration(tv.Type) {
		if v, ok := constant.Int64Val(tv.Value); ok {
			return time.Duration(v).String()
		}
	}
	return types.ExprString(e)
}

func (a *checker) delayOf(dc *delayCtx, e ast.Expr) Delay {
	if dc.depth > maxDelayDepth {
		return Delay{Unknown: true}
	}
	dc.depth++
	defer func() { dc.depth-- }()
	if tv, ok := a.info().Types[e]; ok && tv.Value != nil {
		return Delay{}
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return Delay{}
	case *ast.Ident:
		obj := a.info().ObjectOf(e)
		if obj == nil {
			return Delay{Unknown: true}
		}
		if _, ok := obj.(*types.Const); ok {
			return Delay{}
		}
		return a.varDelay(dc, obj)
	case *ast.SelectorExpr:
		if v, ok := a.info().ObjectOf(e.Sel).(*types.Var); ok {
			return a.varDelay(dc, v)
		}
		if _, ok := a.info().ObjectOf(e.Sel).(*types.Const); ok {
			return Delay{}
		}
		return Delay{Unknown: true}
	case *ast.BinaryExpr:
		x, y := a.delayOf(dc, e.X), a.delayOf(dc, e.Y)
		d := x.or(y)
		if (x.self || y.self) && (e.Op == token.MUL || e.Op == token.SHL || e.Op == token.ADD) {
			d.Grows = true
		}
		return d
	case *ast.UnaryExpr:
		return a.delayOf(dc, e.X)
	case *ast.StarExpr:
		return a.delayOf(dc, e.X)
	case *ast.CallExpr:
		return a.callDelay(dc, e)
	case *ast.IndexExpr:
		// A schedule table indexed by the attempt grows, and ends.
		d := a.delayOf(dc, e.Index)
		d.Capped = true
		return d
	}
	return Delay{Unknown: true}
}

// varDelay resolves a variable or field through its assignments: one never
// changed in the loop is constant; one multiplied or shifted in it grows.
func (a *checker) varDelay(dc *delayCtx, obj types.Object) Delay {
	if d, ok := dc.env[obj]; ok {
		// A parameter the helper grows in place (backoff += backoff/4)
		// makes the caller's variable grow when the caller passes it back
		// in: backoff = w.backoffIfUnavailable(backoff, err).
		if a.growsInPlace(dc, obj) {
			d.Grows = d.Grows || d.self
			d.Capped = d.Capped || a.capGuard(dc, obj)
		}
		return d
	}
	if dc.counters[obj] {
		return Delay{Grows: true}
	}
	if dc.visiting[obj] {
		return Delay{self: true}
	}
	dc.visiting[obj] = true
	defer delete(dc.visiting, obj)

	var inside, outside []assignment
	for _, as := range dc.fc.assigns[obj] {
		if dc.inRegion(as.pos) {
			inside = append(inside, as)
		} else {
			outside = append(outside, as)
		}
	}
	if len(inside) == 0 {
		// Loop-invariant: constant per attempt, even if it was drawn at
		// random once before the loop.
		var d Delay
		for _, as := range outside {
			if as.rhs != nil && a.delayOf(dc, as.rhs).Random {
				d.Random = true
			}
		}
		return d
	}
	// A variable declared inside the loop starts afresh on every attempt:
	// wait := base; wait += jitter does not grow from one attempt to the next.
	fresh := false
	for _, as := range inside {
		if as.tok == token.DEFINE {
			fresh = true
		}
	}
	if !fresh && a.ratchets(dc, obj, inside) {
		// if backoff < time.Second { backoff = time.Second }: raised in
		// steps as the failures go on, up to the largest step.
		return Delay{Grows: true, Capped: true}
	}
	var d Delay
	for _, as := range inside {
		switch as.tok {
		case token.INC, token.ADD_ASSIGN, token.MUL_ASSIGN, token.SHL_ASSIGN:
			d.Grows = d.Grows || !fresh
			if as.rhs != nil {
				r := a.delayOf(dc, as.rhs)
				d.Random = d.Random || r.Random
				d.Unknown = d.Unknown || r.Unknown
			}
		case token.DEFINE, token.ASSIGN:
			if as.rhs == nil && as.tok == token.DEFINE && a.zeroDecl(obj, as.pos) {
				continue // var wait time.Duration: zero until set
			}
			if as.rhs == nil {
				d.Unknown = true
				continue
			}
			if call, ok := ast.Unparen(as.rhs).(*ast.CallExpr); ok && isTuple(a.typeOf(call)) && !a.returnsDurationFirst(call) {
				d.Unknown = true
				continue
			}
			d = d.or(a.delayOf(dc, as.rhs))
		case token.RANGE:
			d.Unknown = true
		default:
			d.Unknown = true
		}
	}
	if a.capGuard(dc, obj) {
		d.Capped = true
	}
	d.self = false
	return d
}

// growsInPlace reports whether the region sets obj from itself so that it
// grows: d *= 2, d += d/4, d = d + d/4, d = time.Duration(float64(d) * 1.5).
func (a *checker) growsInPlace(dc *delayCtx, obj types.Object) bool {
	for _, as := range dc.fc.assigns[obj] {
		if !dc.inRegion(as.pos) {
			continue
		}
		switch as.tok {
		case token.MUL_ASSIGN, token.SHL_ASSIGN, token.ADD_ASSIGN:
			return true
		case token.ASSIGN:
			if as.rhs != nil && a.mentions(as.rhs, obj) && growthOp(as.rhs) {
				return true
			}
		}
	}
	return false
}

// growthOp reports whether an expression multiplies, shifts or adds.
func growthOp(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.MUL || b.Op == token.SHL || b.Op == token.ADD) {
			found = true
		}
		return !found
	})
	return found
}

func isTuple(t types.Type) bool {
	_, ok := t.(*types.Tuple)
	return ok
}

func (a *checker) returnsDurationFirst(call *ast.CallExpr) bool {
	t, ok := a.typeOf(call).(*types.Tuple)
	return ok && t.Len() > 0 && isDuration(t.At(0).Type())
}

// capGuard reports whether, inside the region, an if compares the variable
// with a limit and then sets it or leaves: if d > max { d = max }.
func (a *checker) capGuard(dc *delayCtx, obj types.Object) bool {
	for _, s := range dc.fc.ifs {
		if !dc.inRegion(s.Pos()) || !a.compares(s.Cond, obj) && !a.comparesThroughInit(s, obj) {
			continue
		}
		acts := false
		ast.Inspect(s.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if a.refersTo(l, obj) {
						acts = true
					}
				}
			case *ast.ReturnStmt, *ast.BranchStmt:
				acts = true
			}
			return !acts
		})
		if acts {
			return true
		}
	}
	return false
}

// ratchets reports whether every assignment of obj in the region sets it
// to a constant under an if that orders obj (if d < 500*time.Millisecond {
// d = 500 * time.Millisecond }): a wait raised step by step, never set
// back within the loop.
func (a *checker) ratchets(dc *delayCtx, obj types.Object, inside []assignment) bool {
	if len(inside) == 0 {
		return false
	}
	for _, as := range inside {
		if as.tok != token.ASSIGN || as.rhs == nil || a.info().Types[as.rhs].Value == nil {
			return false
		}
		guarded := false
		for _, s := range dc.fc.ifs {
			if dc.inRegion(s.Pos()) && s.Body.Pos() <= as.pos && as.pos < s.Body.End() && a.compares(s.Cond, obj) {
				guarded = true
			}
		}
		if !guarded {
			return false
		}
	}
	return true
}

// comparesThroughInit reports whether an if orders a value its init
// computed from obj: if d := time.Since(start) + delay; d >= limit.
func (a *checker) comparesThroughInit(s *ast.IfStmt, obj types.Object) bool {
	as, ok := s.Init.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	for i, l := range as.Lhs {
		if v := objOfExpr(a, l); v != nil && a.mentions(as.Rhs[i], obj) && a.compares(s.Cond, v) {
			return true
		}
	}
	return false
}

// compares reports whether cond orders obj against something.
func (a *checker) compares(cond ast.Expr, obj types.Object) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok {
			switch b.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
				if obj == nil || a.mentions(b.X, obj) || a.mentions(b.Y, obj) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func (a *checker) refersTo(e ast.Expr, obj types.Object) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return a.info().ObjectOf(e) == obj
	case *ast.SelectorExpr:
		return a.info().ObjectOf(e.Sel) == obj
	}
	return false
}

func (a *checker) mentions(e ast.Node, obj types.Object) bool {
	return anyNode(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		return ok && a.info().ObjectOf(id) == obj
	})
}

// anyNode reports whether pred holds for n or a node below it, stopping
// at the first that it holds for.
func anyNode(n ast.Node, pred func(ast.Node) bool) bool {
	found := false
	ast.Inspect(n, func(c ast.Node) bool {
		if found || c == nil {
			return false
		}
		found = pred(c)
		return !found
	})
	return found
}

func (a *checker) callDelay(dc *delayCtx, call *ast.CallExpr) Delay {
	args := func() Delay {
		var d Delay
		for _, arg := range call.Args {
			d = d.or(a.delayOf(dc, arg))
		}
		return d
	}
	if tv, ok := a.info().Types[call.Fun]; ok && tv.IsType() {
		return args() // a conversion: time.Duration(n)
	}
	if a.isMin(call) {
		d := args()
		d.Capped = true
		return d
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, ok := a.info().Uses[id].(*types.Builtin); ok {
			return args()
		}
	}
	if a.isRandom(call) {
		d := args()
		d.Random = true
		return d
	}
	fn := a.callee(call)
	if fn == nil {
		return Delay{Unknown: true}
	}
	switch {
	case funcPath(fn) == "math":
		return args()
	case isPkgFunc(fn, "time", "Duration"):
		return args()
	case recvNamed(fn) != nil && isDuration(recvNamed(fn)) && (fn.Name() == "Truncate" || fn.Name() == "Round"):
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return a.delayOf(dc, sel.X).or(args())
		}
		return args()
	case strings.HasPrefix(funcPath(fn), "github.com/cenkalti/backoff"):
		return Delay{Unknown: true}
	}
	if decl := a.decls[fn.Origin()]; decl != nil {
		return a.helperDelay(dc, fn.Origin(), decl, call)
	}
	if s := a.summarize(fn); s.fact != nil && s.fact.Delay != nil {
		return a.factDelay(dc, s.fact.Delay, call)
	}
	return Delay{Unknown: true}
}

// helperDelay resolves the duration a same-package function returns, with
// its parameters bound to the delays of the arguments.
func (a *checker) helperDelay(dc *delayCtx, fn *types.Func, decl *ast.FuncDecl, call *ast.CallExpr) Delay {
	sig := fn.Type().(*types.Signature)
	env := make(map[types.Object]Delay)
	for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
		env[sig.Params().At(i)] = a.delayOf(dc, call.Args[i])
	}
	// Params of the declaration are distinct objects from those of an
	// instantiated signature; bind by position.
	for i, obj := range fieldObjs(a, decl.Type.Params) {
		if obj != nil && i < len(call.Args) {
			env[obj] = a.delayOf(dc, call.Args[i])
		}
	}
	return a.helperDelayIn(fn, decl, env, dc.depth+1)
}

// helperDelayIn resolves the duration a same-package function returns, its
// parameters bound to the delays of env.
func (a *checker) helperDelayIn(fn *types.Func, decl *ast.FuncDecl, env map[types.Object]Delay, depth int) Delay {
	sig := fn.Type().(*types.Signature)
	fc := a.helperCtx(decl)
	inner := &delayCtx{
		fc: fc, start: decl.Body.Pos(), end: decl.Body.End(),
		counters: map[types.Object]bool{}, env: env,
		visiting: map[types.Object]bool{}, depth: depth,
	}
	res := durationResult(sig)
	var d Delay
	returns := 0
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if res < len(n.Results) {
				d = d.or(a.delayOf(inner, n.Results[res]))
				returns++
			}
		}
		return true
	})
	if returns == 0 {
		d.Unknown = true
	}
	if a.summarize(fn).random {
		d.Random = true
	}
	if a.helperCaps(fc, decl.Body) {
		d.Capped = true
	}
	// A local multiplied in a loop whose rounds a growing parameter
	// counts (for b < max && retries > 0 { b *= 2; retries-- }) grows
	// with that parameter.
	if grows, capped := a.growsInParamLoop(fc, decl, env); grows {
		d.Grows = true
		d.Capped = d.Capped || capped
	}
	// A method that keeps its state in fields (b.cur *= 2) grows from call
	// to call.
	for obj, list := range fc.assigns {
		if v, ok := obj.(*types.Var); ok && v.IsField() && isDuration(v.Type()) {
			for _, as := range list {
				if as.tok == token.MUL_ASSIGN || as.tok == token.SHL_ASSIGN || as.tok == token.ADD_ASSIGN ||
					as.tok == token.ASSIGN && as.rhs != nil && a.mentions(as.rhs, v) {
					d.Grows = true
				}
			}
		}
	}
	d.self = false
	return d
}

// growsInParamLoop reports whether the body multiplies a duration inside a
// loop whose condition reads a parameter env marks as growing, and whether
// the rounds are clamped first (power := min(round, limit)).
func (a *checker) growsInParamLoop(fc *funcCtx, decl *ast.FuncDecl, env map[types.Object]Delay) (grows, capped bool) {
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		loop, ok := n.(*ast.ForStmt)
		if !ok || grows || loop.Cond == nil {
			return !grows
		}
		counts, clamped := false, false
		ast.Inspect(loop.Cond, func(m ast.Node) bool {
			if id, ok := m.(*ast.Ident); ok {
				obj := a.info().ObjectOf(id)
				if d, ok := env[obj]; ok && d.Grows {
					counts = true
				} else if derives, mins := a.derivesFromGrowing(fc, obj, env); derives {
					counts, clamped = true, mins
				}
			}
			return !counts
		})
		if !counts {
			return true
		}
		ast.Inspect(loop.Body, func(m ast.Node) bool {
			if as, ok := m.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && isDuration(a.typeOf(as.Lhs[0])) &&
				(as.Tok == token.MUL_ASSIGN || as.Tok == token.SHL_ASSIGN || as.Tok == token.ADD_ASSIGN) {
				grows, capped = true, clamped
			}
			return !grows
		})
		return !grows
	})
	return grows, capped
}

// derivesFromGrowing reports whether obj is a local of the helper set from
// a parameter env marks as growing (power := round counts the rounds round
// counts), and whether every such setting clamps it with min.
func (a *checker) derivesFromGrowing(fc *funcCtx, obj types.Object, env map[types.Object]Delay) (derives, clamped bool) {
	if _, isParam := env[obj]; isParam || obj == nil {
		return false, false
	}
	clamped = true
	for _, as := range fc.assigns[obj] {
		if as.rhs == nil {
			continue
		}
		for p, d := range env {
			if d.Grows && a.mentions(as.rhs, p) {
				derives = true
				clamped = clamped && a.isMin(as.rhs)
			}
		}
	}
	return derives, derives && clamped
}

// isMin reports whether e is a call of the builtin min or math.Min.
func (a *checker) isMin(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := a.info().Uses[id].(*types.Builtin); ok {
			return b.Name() == "min"
		}
	}
	return isPkgFunc(a.callee(call), "math", "Min")
}

// helperCaps reports whether a helper clamps what it computes: an if that
// orders a duration against a limit and then sets it or returns, or that
// sets a value it found too large (if n > maxExp { n = maxExp }).
func (a *checker) helperCaps(fc *funcCtx, body *ast.BlockStmt) bool {
	for _, s := range fc.ifs {
		if s.Pos() < body.Pos() || s.End() > body.End() || !setsOrLeaves(s.Body) {
			continue
		}
		found := false
		ast.Inspect(s.Cond, func(n ast.Node) bool {
			b, ok := n.(*ast.BinaryExpr)
			if !ok || found {
				return !found
			}
			switch b.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
			default:
				return true
			}
			for _, side := range []ast.Expr{b.X, b.Y} {
				if t := a.typeOf(side); t != nil && (isDuration(t) || isFloat(t)) && a.info().Types[side].Value == nil {
					found = true
				}
			}
			big := b.X
			if b.Op == token.LSS || b.Op == token.LEQ {
				big = b.Y
			}
			if obj := objOfExpr(a, big); obj != nil && assigns(a, s.Body, obj) {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

func isFloat(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

func objOfExpr(a *checker, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return a.info().ObjectOf(e)
	case *ast.SelectorExpr:
		return a.info().ObjectOf(e.Sel)
	}
	return nil
}

func assigns(a *checker, b *ast.BlockStmt, obj types.Object) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, l := range as.Lhs {
				if a.refersTo(l, obj) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func setsOrLeaves(b *ast.BlockStmt) bool {
	for _, s := range b.List {
		switch s.(type) {
		case *ast.AssignStmt, *ast.ReturnStmt:
			return true
		}
	}
	return false
}

func durationResult(sig *types.Signature) int {
	for i := 0; i < sig.Results().Len(); i++ {
		if isDuration(sig.Results().At(i).Type()) {
			return i
		}
	}
	return 0
}

func (a *checker) helperCtx(decl *ast.FuncDecl) *funcCtx {
	if a.helpers == nil {
		a.helpers = make(map[*ast.FuncDecl]*funcCtx)
	}
	if fc, ok := a.helpers[decl]; ok {
		return fc
	}
	fc := a.newFuncCtx(decl, decl.Body)
	a.helpers[decl] = fc
	return fc
}

// zeroDecl reports whether the declaration of obj at pos is a var
// statement without a value: the variable starts at zero.
func (a *checker) zeroDecl(obj types.Object, pos token.Pos) bool {
	return obj.Pos() == pos
}
