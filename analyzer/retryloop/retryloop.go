package retryloop

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/analyzer/internal/retrylib"
	"github.com/retrylint/retrylint/analyzer/retryconfig"
)

// Analyzer finds the retry loops of a package; its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "retryloop",
	Doc:        "find retry loops and record how they wait, what bounds them and how they classify failures",
	Requires:   []*analysis.Analyzer{retryconfig.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(Summary)},
	Run:        run,
}

// Result lists the retry loops of a package in source order.
type Result struct {
	Loops []*Loop
	// Nested lists the retry layers whose operation reaches another retry
	// layer, in this package or through the facts of another.
	Nested []Nesting
	// ConstantWaits lists the calls of a function that retries, waiting
	// between its attempts for a duration its caller gives, that give it
	// a constant: every call site picks its own lock-step interval.
	ConstantWaits []ConstantWait
	// paramFields are the fields a function of the package sets from a
	// duration parameter (see FieldFromParam).
	paramFields map[*types.Var]bool
}

// ConstantWait is a call that gives a retrier a constant wait.
type ConstantWait struct {
	Call *ast.CallExpr
	// Arg is the argument that sets the wait; Value is it as written.
	Arg   ast.Expr
	Value string
	// At is where the retrier's loop is, file:line.
	At string
}

// Waits returns every wait between attempts once, with the innermost loop
// it belongs to first: a wait of nested retry loops is one wait.
func (r *Result) Waits() []LoopWait {
	seen := make(map[ast.Node]bool)
	var out []LoopWait
	for _, l := range r.Loops {
		for _, w := range l.Waits {
			if !seen[w.Node] {
				seen[w.Node] = true
				out = append(out, LoopWait{l, w})
			}
		}
	}
	return out
}

// LoopWait is a wait and the retry loop it paces.
type LoopWait struct {
	Loop *Loop
	Wait *Wait
}

// Form is the syntactic shape of a retry loop.
type Form string

const (
	FormCounter   Form = "for-counter"  // for init; cond; post
	FormCond      Form = "for-cond"     // for cond
	FormRange     Form = "for-range"    // for range n
	FormInfinite  Form = "for-infinite" // for { ... }
	FormErrCond   Form = "for-err"      // for err := op(); err != nil; err = op()
	FormGoto      Form = "goto"         // label: ... goto label
	FormRecursion Form = "recursion"    // a function that calls itself after failing
	FormRunner    Form = "runner"       // a call of a retry runner given a function literal
)

// BoundKind says what stops a retry loop that keeps failing.
type BoundKind string

const (
	BoundNone     BoundKind = ""
	BoundAttempts BoundKind = "attempts" // an attempt limit
	BoundDeadline BoundKind = "deadline" // a deadline or elapsed-time check
	BoundContext  BoundKind = "context"  // ctx.Done() / ctx.Err() or a stop channel
)

// Loop describes one retry loop.
type Loop struct {
	Form Form
	// Node is the loop: *ast.ForStmt, *ast.RangeStmt, *ast.LabeledStmt (goto
	// form) or *ast.CallExpr (the recursive call).
	Node ast.Node
	// Pos is where findings about the loop as a whole belong: the for
	// keyword, the label, or the recursive call.
	Pos token.Pos
	// Func is the enclosing *ast.FuncDecl or *ast.FuncLit.
	Func ast.Node
	// Ops are the operations whose failure goes round again.
	Ops []*ast.CallExpr
	// Waits are the waits between attempts.
	Waits []*Wait
	// Bound is what ends a loop that keeps failing; BoundNone if nothing does.
	Bound BoundKind
	// Classified reports whether the failure path inspects the failure:
	// the failure of every operation retried is looked at somewhere on
	// its way round.
	Classified bool
	// Unclassified is, in a loop that is not Classified, the operation
	// whose every error is retried without a look.
	Unclassified *ast.CallExpr
	// Permanent describes failures that cannot succeed yet are retried,
	// e.g. "HTTP 400, 401, 403" or "the circuit breaker's open error".
	Permanent []string
	// Context is a context.Context in scope of the loop, nil if none.
	Context *types.Var
	// ContextExpr is how the loop's code reaches Context: "ctx", or
	// "s.ctx" for a field of the method's receiver.
	ContextExpr string
	// Reconnect reports a loop whose success path goes round too (a
	// watch, stream, subscription or supervisor loop) while its failure
	// path waits before going round: it reconnects rather than gives up.
	Reconnect bool
	// Attempts is the most attempts the loop makes, the first included,
	// when a constant bounds them; 0 when unknown or unbounded.
	Attempts int
	// Library is the library call a FormLibrary loop stands for.
	Library *retrylib.Retrier
	// Retried is what the failure paths retry by status and code; nil
	// when not read (see RetriedCodes).
	Retried *RetriedCodes
	// LocalOS reports a loop that retries only errnos of the local system
	// (ETXTBSY after exec): it works round a race on this machine and is
	// no retry layer of a caller's retries.
	LocalOS bool
	// DeafRunner reports the call of a retry runner that takes no context
	// and waits between attempts with a wait no context ends (time.Sleep),
	// made where a context is in scope: cancellation cannot stop it.
	DeafRunner bool
	// answer is, for a retry runner's loop, how the bool the function
	// value returns is read (RetrySummary.Answer).
	answer int
}

// WaitKind is how a wait is written.
type WaitKind string

const (
	WaitSleep  WaitKind = "time.Sleep"
	WaitAfter  WaitKind = "time.After"
	WaitTimer  WaitKind = "timer"
	WaitTicker WaitKind = "ticker"
	WaitClock  WaitKind = "clock"  // Sleep/After method of an injected clock
	WaitHelper WaitKind = "helper" // a same-package function that waits
)

// ContextName is how the loop's code names its context: ContextExpr, or
// the variable's name.
func (l *Loop) ContextName() string {
	if l.ContextExpr != "" {
		return l.ContextExpr
	}
	if l.Context != nil {
		return l.Context.Name()
	}
	return ""
}

// At is where a finding about the wait w of loop l belongs: where its
// duration is given, the call that takes it (time.After, time.NewTimer,
// timer.Reset) when that call is inside the loop, else the wait itself (a
// ticker made before the loop is reported where it is received).
func (l *Loop) At(w *Wait) ast.Node {
	if w.rearmedBy != nil {
		return w.rearmedBy
	}
	if w.Delay == nil || w.Delay.Pos() >= w.Node.Pos() && w.Delay.End() <= w.Node.End() {
		return w.Node
	}
	scope := l.Node
	switch l.Node.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.LabeledStmt:
	default:
		scope = l.Func
	}
	if scope == nil || w.Delay.Pos() < scope.Pos() || scope.End() < w.Delay.End() {
		return w.Node
	}
	var at ast.Node = w.Node
	ast.Inspect(scope, func(n ast.Node) bool {
		if n == nil || n.Pos() > w.Delay.Pos() || n.End() < w.Delay.End() {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			for _, arg := range call.Args {
				if arg == w.Delay {
					at = call
				}
			}
		}
		return true
	})
	return at
}

// Wait is one wait between attempts.
type Wait struct {
	Kind WaitKind
	// Node is the wait: the call, or the receive expression.
	Node ast.Node
	// Stmt is the statement holding the wait.
	Stmt ast.Stmt
	// Delay is the duration expression, nil if none is known.
	Delay ast.Expr
	// Source says where the delay comes from.
	Source Delay
	// Select reports whether the wait is a case of a select statement.
	Select bool
	// ContextAware reports whether the wait ends early when the context is
	// cancelled (a select on ctx.Done(), or a helper that does so).
	ContextAware bool
	// Uncancellable reports a wait taken only where the context is nil or
	// cannot be cancelled (if ctx != nil { select ... } else { Sleep }).
	Uncancellable bool
	// Fresh reports a library back-off created anew on every attempt: it
	// waits its first interval every time and never grows.
	Fresh bool
	// Inner is, for a same-package helper that is handed the context yet
	// sleeps without it (a predicate that waits out a rate limit), the
	// time.Sleep in its body: where the fix belongs.
	Inner ast.Node
	// rearms is the timer a t.Reset(d) wait re-arms: the loop waits on
	// that timer's channel, for d, before its next attempt; rearmedBy is
	// that Reset call.
	rearms    types.Object
	rearmedBy ast.Node
	// onError is the error argument of a helper that waits only when it
	// is non-nil (b.BackOff(ctx, err)): a path on which it is nil does
	// not wait.
	onError ast.Expr
}

func run(pass *analysis.Pass) (any, error) {
	if inGoroot(pass) || dependency(pass) {
		// go vet runs the analyzer on these only for facts. The standard
		// library retries nothing a caller's loop needs to know about,
		// and other modules' packages are read by retrylint code from
		// export data: summarising them here would make go vet and
		// retrylint code disagree.
		return &Result{}, nil
	}
	// The inspector is built here rather than required from the inspect
	// pass: go vet runs this analyzer, for its facts, on every package
	// the module imports, and the packages skipped above would pay for an
	// inspector nothing reads.
	ins := inspector.New(pass.Files)
	if err := tooDeep(pass, ins); err != nil {
		return nil, err
	}
	a := newAnalysis(pass)
	res := &Result{}
	ins.Preorder([]ast.Node{(*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)}, func(n ast.Node) {
		if !a.wantFile(n.Pos()) {
			return
		}
		body := funcBody(n)
		if body == nil {
			return
		}
		res.Loops = append(res.Loops, a.function(n, body)...)
		// A function literal's library call may pace a loop of the
		// function around it, visited before it.
		res.Loops = append(res.Loops, a.libraryLoops(n, body, res.Loops)...)
	})
	slices.SortStableFunc(res.Loops, func(x, y *Loop) int { return cmp.Compare(x.Pos, y.Pos) })
	for _, l := range res.Loops {
		l.ContextExpr = a.contextExpr(l.Context, l.Pos)
	}
	a.indexLoops(res)
	// The calls of a retry runner are retry loops too; which functions are
	// runners is known once the loops of the package are.
	if calls := a.runnerLoops(res); len(calls) > 0 {
		res.Loops = append(res.Loops, calls...)
		slices.SortStableFunc(res.Loops, func(x, y *Loop) int { return cmp.Compare(x.Pos, y.Pos) })
		a.indexLoops(res)
	}
	a.leaveToCallers(res)
	res.Nested = a.nestings(res)
	res.ConstantWaits = a.constantWaits(res.Loops)
	res.paramFields = a.paramFields()
	a.exportSummaries(res)
	return res, nil
}

// maxLoopNesting bounds how deeply loops nest in one function. The analysis of a loop walks
// every path through the loops inside it, so loops nested hundreds deep take minutes; Go
// written by people does not nest loops a tenth as deep.
const maxLoopNesting = 64

// tooDeep is the error of a function whose loops nest more deeply than maxLoopNesting, at the
// first loop past it; nil when there is none. A function literal's loops count from the
// literal, as the literal is analysed on its own.
func tooDeep(pass *analysis.Pass, ins *inspector.Inspector) error {
	var err error
	ins.WithStack([]ast.Node{(*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push || err != nil {
			return err == nil
		}
		depth := 0
		for i := len(stack) - 1; i >= 0; i-- {
			switch stack[i].(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				depth++
			case *ast.FuncLit, *ast.FuncDecl:
				i = 0
			}
		}
		if depth > maxLoopNesting {
			err = fmt.Errorf("%s: loops nested more than %d deep in one function; not analysed", pass.Fset.Position(n.Pos()), maxLoopNesting)
		}
		return err == nil
	})
	return err
}

// leaveToCallers marks the loop of a blind runner that the package calls
// classified: it reads none of the errors of the function value it is
// given, and each call answers for what its attempt returns. A runner no
// call of its package gives an attempt keeps the finding at its loop.
func (a *checker) leaveToCallers(res *Result) {
	called := map[*types.Func]bool{}
	for _, l := range res.Loops {
		if call, ok := l.Node.(*ast.CallExpr); ok && l.Form == FormRunner {
			if fn := a.callee(call); fn != nil {
				called[fn.Origin()] = true
			}
		}
	}
	for _, l := range res.Loops {
		fd, ok := l.Func.(*ast.FuncDecl)
		if !ok || l.Form == FormRunner {
			continue
		}
		if loops := a.retries.byFunc[fd]; len(loops) == 0 || loops[0] != l {
			continue
		}
		if fn := a.funcObj(fd); called[fn] {
			if r := a.retryOf(fn); r != nil && r.Blind {
				l.Classified = true
			}
		}
	}
}

// inGoroot reports whether the package is one of the Go distribution's.
func inGoroot(pass *analysis.Pass) bool {
	root := build.Default.GOROOT
	if root == "" || len(pass.Files) == 0 {
		return false
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	rel, err := filepath.Rel(filepath.Join(root, "src"), name)
	return err == nil && filepath.IsLocal(rel)
}

// dependency reports whether the package belongs to a required module at
// some version, not to the module being checked.
func dependency(pass *analysis.Pass) bool {
	return pass.Module != nil && pass.Module.Version != ""
}

// wantFile reports whether the file holding pos is analysed: test files only
// with the tests setting, generated files never. A file that imports "C"
// reaches the analysis as cmd/cgo's output, marked generated, with a //line
// directive back to the original file: it is judged by the original, whose
// own header comments cgo keeps.
func (a *checker) wantFile(pos token.Pos) bool {
	const cgoHeader = "// Code generated by cmd/cgo; DO NOT EDIT."
	// pass.Files are parsed in order into one file set: find the file by
	// binary search, then check it (a scan if the order is not kept).
	files := a.pass.Files
	i := sort.Search(len(files), func(i int) bool { return files[i].FileEnd > pos })
	var f *ast.File
	if i < len(files) && files[i].FileStart <= pos {
		f = files[i]
	} else {
		f = a.fileOf(pos)
	}
	if f == nil {
		return false
	}
	name := a.pass.Fset.File(pos).Name()
	generated := ast.IsGenerated(f)
	if generated && len(f.Comments) > 0 && f.Comments[0].List[0].Text == cgoHeader {
		original := a.pass.Fset.Position(f.Package).Filename
		if original == name {
			return false // cgo's own declarations (_cgo_gotypes.go)
		}
		name, generated = original, false
		for _, cg := range f.Comments {
			if cg.Pos() >= f.Package {
				break
			}
			for _, c := range cg.List {
				if c.Text != cgoHeader && strings.HasPrefix(c.Text, "// Code generated ") && strings.HasSuffix(c.Text, " DO NOT EDIT.") {
					generated = true
				}
			}
		}
	}
	if !a.config.Tests && strings.HasSuffix(name, "_test.go") {
		return false
	}
	return !generated
}

func (a *checker) fileOf(pos token.Pos) *ast.File {
	for _, f := range a.pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// function finds the retry loops of one function body. Loops inside nested
// function literals belong to those literals.
func (a *checker) function(fn ast.Node, body *ast.BlockStmt) []*Loop {
	fc := a.newFuncCtx(fn, body)
	var loops []*Loop
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			if l := a.forLoop(fc, n); l != nil {
				loops = append(loops, l)
			}
		case *ast.RangeStmt:
			if l := a.rangeLoop(fc, n); l != nil {
				loops = append(loops, l)
			}
		case *ast.BlockStmt:
			loops = append(loops, a.gotoLoops(fc, n)...)
		}
		return true
	})
	loops = foldLabelled(loops)
	if l := a.recursion(fc); l != nil {
		loops = append(loops, l)
	}
	if l := a.resume(fc); l != nil {
		loops = append(loops, l)
	}
	return append(loops, a.requeues(fc)...)
}

// funcBody is the body of a function declaration or literal, nil for
// anything else or a declaration without one.
func funcBody(n ast.Node) *ast.BlockStmt {
	switch fn := n.(type) {
	case *ast.FuncDecl:
		return fn.Body
	case *ast.FuncLit:
		return fn.Body
	}
	return nil
}
