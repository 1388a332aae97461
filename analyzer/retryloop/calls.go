package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
	"github.com/retrylint/retrylint/analyzer/internal/retrylib"
	"github.com/retrylint/retrylint/analyzer/retryconfig"
	"github.com/retrylint/retrylint/internal/lazyre"
)

// checker holds what one pass of the analyzer knows across functions.
type checker struct {
	pass      *analysis.Pass
	config    *retryconfig.Config
	decls     map[*types.Func]*ast.FuncDecl
	summaries map[*types.Func]*summary
	helpers   map[*ast.FuncDecl]*funcCtx
	io        map[*types.Func]bool // same-package functions that do I/O
	// setsFields memoises fieldParams: the facts and the fields a
	// constructor sets both read it.
	setsFields map[*ast.FuncDecl][]FieldParam
	retries    *retryIndex
	steps      map[*types.Func]*StepSummary
	codes      map[*types.Func]*CodeSummary
	dead       map[*types.Var]bool  // contexts nobody can cancel (deadContext)
	clocks     map[*types.Func]bool // predicates that answer from the clock (deadlineCheck)
	fieldInts  map[*types.Var]fieldInt
	// fieldRetries: how calls through function-typed fields retry (fieldCallRetry).
	fieldRetries map[*types.Var]*RetrySummary
}

// fieldInt is what a package sets an unexported integer field to: the
// largest constant, when every write is one (fieldConst).
type fieldInt struct {
	max   int64
	known bool
}

func newAnalysis(pass *analysis.Pass) *checker {
	a := &checker{
		pass:      pass,
		config:    pass.ResultOf[retryconfig.Analyzer].(*retryconfig.Config),
		decls:     make(map[*types.Func]*ast.FuncDecl),
		summaries: make(map[*types.Func]*summary),
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					a.decls[fn] = fd
				}
			}
		}
	}
	return a
}

func (a *checker) info() *types.Info { return a.pass.TypesInfo }

// callee returns the function or method a call statically or dynamically
// names (interface methods included), or nil.
func (a *checker) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(a.info(), call).(*types.Func)
	return fn
}

func funcPath(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	return fn.Pkg().Path()
}

// isPkgFunc reports whether fn is the package-level function path.name.
func isPkgFunc(fn *types.Func, path string, names ...string) bool {
	if fn == nil || funcPath(fn) != path {
		return false
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return false
	}
	for _, n := range names {
		if fn.Name() == n {
			return true
		}
	}
	return false
}

// recvNamed returns the named type of a method's receiver, or nil.
func recvNamed(fn *types.Func) *types.Named {
	if fn == nil {
		return nil
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return nil
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

var errorType = types.Universe.Lookup("error").Type()

// isError reports whether t is an error: the error interface or a type
// that implements it.
func isError(t types.Type) bool {
	if t == nil {
		return false
	}
	if b, ok := t.(*types.Basic); ok && b.Kind() == types.Invalid {
		return false // a package name, or code that does not type-check
	}
	if types.Identical(t, errorType) {
		return true
	}
	if _, ok := t.Underlying().(*types.Interface); ok {
		return types.Implements(t, errorType.Underlying().(*types.Interface)) && types.Identical(t.Underlying(), errorType.Underlying())
	}
	return types.Implements(t, errorType.Underlying().(*types.Interface)) ||
		types.Implements(types.NewPointer(t), errorType.Underlying().(*types.Interface))
}

func isNamed(t types.Type, path, name string) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

func isContext(t types.Type) bool { return isNamed(t, "context", "Context") }

func isDuration(t types.Type) bool { return isNamed(t, "time", "Duration") }

func isTimeish(t types.Type) bool {
	return isNamed(t, "time", "Duration") || isNamed(t, "time", "Time")
}

func (a *checker) typeOf(e ast.Expr) types.Type { return a.info().TypeOf(e) }

// errorResult returns the index of the error result of a call, or -1.
func (a *checker) errorResult(call *ast.CallExpr) int {
	switch t := a.typeOf(call).(type) {
	case *types.Tuple:
		if t.Len() > 0 && isError(t.At(t.Len()-1).Type()) {
			return t.Len() - 1
		}
	case nil:
	default:
		if isError(t) {
			return 0
		}
	}
	return -1
}

// isErrorConstructor reports whether a call makes an error value instead of
// performing an operation that can fail.
func (a *checker) isErrorConstructor(call *ast.CallExpr) bool {
	fn := a.callee(call)
	if fn == nil {
		return false
	}
	switch {
	case isPkgFunc(fn, "errors", "New", "Join", "Unwrap"),
		isPkgFunc(fn, "fmt", "Errorf"),
		funcPath(fn) == "github.com/pkg/errors",
		funcPath(fn) == "google.golang.org/grpc/status" && (fn.Name() == "Error" || fn.Name() == "Errorf"):
		return true
	}
	// ctx.Err(), resp.Body.Close() and friends report state, they are not
	// operations to retry.
	if n := recvNamed(fn); n != nil && fn.Name() == "Err" {
		return true
	}
	if fn.Name() == "Err" && isContext(a.recvType(call)) {
		return true
	}
	return false
}

func (a *checker) recvType(call *ast.CallExpr) types.Type {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return a.typeOf(sel.X)
	}
	return nil
}

// isRandom reports whether a call draws a random number.
func (a *checker) isRandom(call *ast.CallExpr) bool {
	fn := a.callee(call)
	if fn == nil {
		return false
	}
	switch funcPath(fn) {
	case "math/rand", "math/rand/v2", "crypto/rand":
		return true
	case "k8s.io/apimachinery/pkg/util/wait":
		return fn.Name() == "Jitter"
	}
	return false
}

// isTerminal reports whether a call never returns (panic, os.Exit, log.Fatal).
func (a *checker) isTerminal(call *ast.CallExpr) bool {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := a.info().Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
			return true
		}
	}
	fn := a.callee(call)
	switch {
	case isPkgFunc(fn, "os", "Exit"),
		isPkgFunc(fn, "log", "Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln"):
		return true
	case fn != nil && funcPath(fn) == "log" && strings.HasPrefix(fn.Name(), "Fatal"):
		return true
	}
	return false
}

// isBreakerOpen reports whether an expression names a circuit-breaker-open
// error: gobreaker.ErrOpenState, hystrix.ErrCircuitOpen, or any sentinel or
// type whose name says a circuit or breaker is open.
func (a *checker) isBreakerOpen(e ast.Expr) bool {
	var name string
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		name = e.Name
	case *ast.SelectorExpr:
		name = e.Sel.Name
	case *ast.StarExpr:
		return a.isBreakerOpen(e.X)
	case *ast.UnaryExpr:
		return a.isBreakerOpen(e.X)
	case *ast.CompositeLit:
		return a.isBreakerOpen(e.Type)
	default:
		return false
	}
	return failure.BreakerOpen(name)
}

var breakerPkg = lazyre.New(`(?i)breaker|circuit|hystrix`)

// isBreakerCall reports whether a call goes through a circuit breaker (a
// method of a breaker type, a breaker package, or a same-package function
// that can return a breaker-open error), so that it can fail with the
// breaker's open error.
func (a *checker) isBreakerCall(call *ast.CallExpr) bool {
	fn := a.callee(call)
	if fn == nil {
		return false
	}
	if breakerPkg.MatchString(funcPath(fn)) && !strings.HasPrefix(funcPath(fn), a.pass.Pkg.Path()) {
		return true
	}
	if n := recvNamed(fn); n != nil && breakerPkg.MatchString(n.Obj().Name()) {
		return true
	}
	return a.summarize(fn).breaker
}

// waitCall recognises a wait written as a call statement or expression:
// time.Sleep(d), clock.Sleep(d), or a same-package helper that waits.
func (a *checker) waitCall(call *ast.CallExpr) (WaitKind, ast.Expr, bool, bool) {
	fn := a.callee(call)
	if fn == nil {
		return "", nil, false, false
	}
	if isPkgFunc(fn, "time", "Sleep") && len(call.Args) == 1 {
		return WaitSleep, call.Args[0], false, true
	}
	if aware, ok := retrylib.Waits(fn); ok {
		return WaitHelper, nil, aware, true
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil {
		return "", nil, false, false
	}
	durArg, ctxParam := -1, false
	for i := 0; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		if isDuration(t) && durArg < 0 {
			durArg = i
		}
		if isContext(t) {
			ctxParam = true
		}
	}
	var delay ast.Expr
	if durArg >= 0 && durArg < len(call.Args) {
		delay = call.Args[durArg]
	}
	if sig.Recv() != nil && funcPath(fn) != "time" && (fn.Name() == "Sleep" || fn.Name() == "Wait" && delay != nil) && delay != nil {
		if s := a.summarize(fn); s.known() && s.waits {
			return WaitHelper, delay, s.ctxAware, true
		}
		return WaitClock, delay, ctxParam, true
	}
	// A same-package helper is a wait when waiting is what it is for: its
	// name says so, or it takes only a context and a duration and returns
	// at most an error, like sleep(ctx, d).
	if s := a.summarize(fn); s.known() && s.waits && (waitName.MatchString(fn.Name()) || delay != nil && sleepShape(sig)) {
		return WaitHelper, delay, s.ctxAware, true
	}
	return "", nil, false, false
}

// sleepShape reports whether a signature is that of a wait helper: it
// takes contexts, durations, the failure and attempt counts only, and
// returns at most an error and the next duration — sleep(ctx, d),
// backoff(d, err) time.Duration.
func sleepShape(sig *types.Signature) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		if t := sig.Params().At(i).Type(); !isContext(t) && !isDuration(t) && !isError(t) && !isInteger(t) {
			return false
		}
	}
	r := sig.Results()
	for i := 0; i < r.Len(); i++ {
		if t := r.At(i).Type(); !isError(t) && !isDuration(t) {
			return false
		}
	}
	return r.Len() <= 2
}

// waitName matches helpers that wait by name when they take no duration:
// wait(ctx, attempt), backoff(ctx, n), pause(i).
var waitName = lazyre.New(`(?i)wait|sleep|backoff|pause|delay|throttle`)

// summary is what a same-package function does that matters to a retry
// loop that calls it.
type summary struct {
	decl     *ast.FuncDecl
	fact     *Summary // the exported summary of a function of another package
	waits    bool     // waits (time.Sleep, time.After, a timer) on some path
	ctxAware bool     // its wait selects on ctx.Done()
	random   bool     // draws a random number
	breaker  bool     // can return a circuit-breaker-open error
	busy     bool     // being summarised (recursion guard)
	// errGate is the 1-based index of an error parameter the function
	// waits only for: it returns at once when that error is nil
	// (b.BackOff(ctx, err)); 0 when its wait does not depend on one.
	errGate int
}

// known reports whether the function was read: its body is in this
// package, or its package exported a summary.
func (s *summary) known() bool { return s.decl != nil || s.fact != nil }

func (a *checker) summarize(fn *types.Func) *summary {
	if fn == nil {
		return &summary{}
	}
	fn = fn.Origin()
	if s, ok := a.summaries[fn]; ok {
		return s
	}
	s := &summary{decl: a.decls[fn], busy: true}
	a.summaries[fn] = s
	if s.decl != nil {
		a.summarizeBody(s, s.decl.Body, 0)
		if s.waits {
			s.errGate = a.errGate(s.decl)
		}
	} else if f, ok := a.importSummary(fn); ok {
		s.fact = f
		s.waits, s.ctxAware, s.random, s.breaker = f.Waits, f.WaitsCtx, f.Random, f.Breaker
		s.errGate = f.WaitsOnError
	}
	s.busy = false
	return s
}

func (a *checker) summarizeBody(s *summary, body ast.Node, depth int) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			fn := a.callee(n)
			switch {
			case isPkgFunc(fn, "time", "Sleep", "After", "NewTimer", "Tick"):
				s.waits = true
			case a.isRandom(n):
				s.random = true
			case fn != nil && depth < 4 && (a.decls[fn.Origin()] != nil || a.summarize(fn).fact != nil):
				callee := a.summarize(fn)
				s.waits = s.waits || callee.waits
				s.ctxAware = s.ctxAware || callee.ctxAware
				s.random = s.random || callee.random
				s.breaker = s.breaker || callee.breaker
			case fn != nil && breakerPkg.MatchString(funcPath(fn)) && funcPath(fn) != a.pass.Pkg.Path():
				s.breaker = true
			case fn != nil && recvNamed(fn) != nil && breakerPkg.MatchString(recvNamed(fn).Obj().Name()) && a.errorResult(n) >= 0:
				s.breaker = true
			}
			if fn != nil && fn.Name() == "Done" && isContext(a.recvType(n)) {
				s.ctxAware = true
			}
		case *ast.Ident:
			if obj, ok := a.info().Uses[n].(*types.Var); ok && isError(obj.Type()) && failure.BreakerOpen(n.Name) {
				s.breaker = true
			}
		case *ast.SelectorExpr:
			if obj, ok := a.info().Uses[n.Sel].(*types.Var); ok && isError(obj.Type()) && failure.BreakerOpen(n.Sel.Name) {
				s.breaker = true
			}
		}
		return true
	})
}

// errGate finds an error parameter that decides whether a function
// waits: before its first wait, the body returns when the error is nil
// (if err == nil { b.n = 0; return }). It returns the parameter's 1-based
// index, or 0.
func (a *checker) errGate(decl *ast.FuncDecl) int {
	params := fieldObjs(a, decl.Type.Params)
	for _, st := range decl.Body.List {
		if a.stmtWaits(st) {
			return 0
		}
		is, ok := st.(*ast.IfStmt)
		if !ok || is.Init != nil || is.Else != nil || len(is.Body.List) == 0 {
			continue
		}
		if _, ret := is.Body.List[len(is.Body.List)-1].(*ast.ReturnStmt); !ret {
			continue
		}
		b, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL || !isNilIdent(b.Y) {
			continue
		}
		id, ok := ast.Unparen(b.X).(*ast.Ident)
		if !ok {
			continue
		}
		for i, p := range params {
			if p != nil && p == a.info().ObjectOf(id) && isError(p.Type()) {
				return i + 1
			}
		}
	}
	return 0
}

// stmtWaits reports whether a statement waits, directly or through a
// helper of the package.
func (a *checker) stmtWaits(st ast.Stmt) bool {
	s := &summary{}
	a.summarizeBody(s, st, 0)
	return s.waits
}

// exprText renders an expression for messages.
func (a *checker) exprText(e ast.Expr) string { return types.ExprString(e) }

// ctxDone reports whether e is ctx.Done() for a context.Context.
func (a *checker) ctxDone(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Done" && isContext(a.typeOf(sel.X))
}

// posLine is the line of a position.
func (a *checker) posLine(p token.Pos) int { return a.pass.Fset.Position(p).Line }
