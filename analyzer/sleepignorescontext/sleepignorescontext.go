package sleepignorescontext

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/retrylint/retrylint/analyzer/internal/diag"
	"github.com/retrylint/retrylint/analyzer/retryloop"
	"github.com/retrylint/retrylint/docs"
)

// Rule is the stable name of this check.
const Rule = "sleep-ignores-context"

// Analyzer reports retry loops that wait with time.Sleep although a context is in scope.
var Analyzer = &analysis.Analyzer{
	Name:     "sleepignorescontext",
	Doc:      docs.AnalyzerDoc(Rule),
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/rules/sleep-ignores-context.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	inner := map[token.Pos]bool{}
	for _, lw := range res.Waits() {
		l, w := lw.Loop, lw.Wait
		if l.Context == nil || w.ContextAware || w.Uncancellable {
			continue
		}
		if w.Inner != nil {
			// One finding at the sleep, however many attempts call it.
			if !inner[w.Inner.Pos()] {
				inner[w.Inner.Pos()] = true
				diag.Report(pass, Rule, w.Inner.Pos(), w.Inner.End(), fmt.Sprintf("%s sleeps with time.Sleep between attempts of the %s at %s although it is given the context; cancellation cannot stop the retry and the caller's deadline is ignored; wait there in a select on the context's Done() and a timer", helperName(w.Node), l.Subject(), shortPos(pass, l.Pos)))
			}
			continue
		}
		if w.Kind == retryloop.WaitLibrary {
			ctx := l.ContextName()
			diag.Report(pass, Rule, l.Pos, l.Pos, fmt.Sprintf("%s waits between attempts without %s although it is in scope; cancellation cannot stop the retry and the caller's deadline is ignored; %s", l.Subject(), ctx, l.LibraryFix(Rule, "give the retry the context")))
			continue
		}
		var how string
		switch {
		case w.Kind == retryloop.WaitSleep:
			how = "time.Sleep"
		case w.Kind == retryloop.WaitAfter && !w.Select:
			how = "<-time.After"
		case w.Kind == retryloop.WaitHelper:
			how = helperName(w.Node)
		case w.Kind == retryloop.WaitClock && !w.Select:
			// clk.Sleep(d) of an injected clock: a clock's Sleep takes no
			// context, so it waits out d as time.Sleep does.
			how = helperName(w.Node)
		default:
			continue
		}
		ctx := l.ContextName()
		msg := fmt.Sprintf("retry loop waits with %s although %s is in scope; cancellation cannot stop the retry and the caller's deadline is ignored; wait in a select on %s.Done() and a timer", how, ctx, ctx)
		if w.Kind == retryloop.WaitHelper {
			msg = fmt.Sprintf("retry loop waits in %s, whose wait does not end with the context, although %s is in scope; cancellation cannot stop the retry and the caller's deadline is ignored; give it %s and wait there in a select on %s.Done() and a timer", how, ctx, ctx, ctx)
		}
		var fixes []analysis.SuggestedFix
		if fix, ok := selectFix(pass, l, w); ok {
			fixes = append(fixes, fix)
		}
		diag.Report(pass, Rule, w.Node.Pos(), w.Node.End(), msg, fixes...)
	}
	for _, l := range res.Loops {
		if l.DeafRunner {
			ctx := l.ContextName()
			diag.Report(pass, Rule, l.Pos, l.Pos, fmt.Sprintf("%s takes no context and sleeps between attempts, although %s is in scope; cancellation cannot stop the retry and the caller's deadline is ignored; give the runner %s and wait there in a select on %s.Done() and a timer", l.Subject(), ctx, ctx, ctx))
		}
	}
	return nil, nil
}

// selectFix replaces a `time.Sleep(d)` statement with a timer and a select
// that returns the context's error when it is cancelled. It is offered
// only where the result compiles and leaves the function on cancellation:
// a statement of a statement list (not an if, for or switch header, not
// before a label a goto may jump to), time reachable by the name the
// sleep uses, every result's zero value writable in the file.
func selectFix(pass *analysis.Pass, l *retryloop.Loop, w *retryloop.Wait) (analysis.SuggestedFix, bool) {
	stmt, ok := w.Stmt.(*ast.ExprStmt)
	if !ok || w.Kind != retryloop.WaitSleep || stmt.X != w.Node || w.Delay == nil {
		return analysis.SuggestedFix{}, false
	}
	file := fileOf(pass, stmt.Pos())
	if file == nil {
		return analysis.SuggestedFix{}, false
	}
	path, _ := astutil.PathEnclosingInterval(file, stmt.Pos(), stmt.End())
	fn, ok := enclosingFunc(path)
	if !ok || !inStatementList(path, stmt) {
		return analysis.SuggestedFix{}, false
	}
	ctx := l.ContextName()
	ret, ok := returnStmt(pass, file, stmt.Pos(), fn, ctx, fn == l.Func)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	newTimer, ok := newTimerName(pass, stmt)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	timer := freeName(pass, stmt.Pos(), "timer")
	var buf bytes.Buffer
	if err := format.Node(&buf, pass.Fset, w.Delay); err != nil {
		return analysis.SuggestedFix{}, false
	}
	indent := strings.Repeat("\t", pass.Fset.Position(stmt.Pos()).Column-1)
	text := fmt.Sprintf("%[1]s := %[6]s(%[2]s)\n%[5]sselect {\n%[5]scase <-%[3]s.Done():\n%[5]s\t%[1]s.Stop()\n%[5]s\t%[4]s\n%[5]scase <-%[1]s.C:\n%[5]s}",
		timer, buf.String(), ctx, ret, indent, newTimer)
	return analysis.SuggestedFix{
		Message:   fmt.Sprintf("wait in a select on %s.Done() and a timer", ctx),
		TextEdits: []analysis.TextEdit{{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(text)}},
	}, true
}

// enclosingFunc is the innermost function declaration or literal around
// the statement path starts at.
func enclosingFunc(path []ast.Node) (ast.Node, bool) {
	for _, n := range path {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return n, true
		}
	}
	return nil, false
}

// inStatementList reports whether stmt is an element of a block's or a
// case's statement list, with no labelled statement after it in that
// list: a goto to such a label would jump over the timer's declaration.
func inStatementList(path []ast.Node, stmt ast.Stmt) bool {
	i := slices.Index(path, ast.Node(stmt))
	if i < 0 || i+1 == len(path) {
		return false
	}
	var list []ast.Stmt
	switch p := path[i+1].(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	case *ast.CommClause:
		list = p.Body
	}
	at := slices.Index(list, ast.Stmt(stmt))
	if at < 0 {
		return false
	}
	for _, s := range list[at+1:] {
		if _, ok := s.(*ast.LabeledStmt); ok {
			return false
		}
	}
	return true
}

// newTimerName is how the file names time.NewTimer where the sleep is: by
// the sleep's own qualifier ("time", or the name time is imported under),
// or unqualified under a dot import when NewTimer is time's there.
func newTimerName(pass *analysis.Pass, stmt *ast.ExprStmt) (string, bool) {
	call, ok := stmt.X.(*ast.CallExpr)
	if !ok {
		return "", false
	}
	switch fun := call.Fun.(type) {
	case *ast.SelectorExpr:
		id, ok := fun.X.(*ast.Ident)
		if !ok {
			return "", false
		}
		pkg, ok := pass.TypesInfo.Uses[id].(*types.PkgName)
		if !ok || pkg.Imported().Path() != "time" {
			return "", false
		}
		return id.Name + ".NewTimer", true
	case *ast.Ident:
		scope := pass.Pkg.Scope().Innermost(stmt.Pos())
		if scope == nil {
			return "", false
		}
		_, obj := scope.LookupParent("NewTimer", stmt.Pos())
		if f, ok := obj.(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == "time" {
			return "NewTimer", true
		}
	}
	return "", false
}

func fileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// returnStmt builds the statement that leaves fn when the context is
// cancelled: zero values and ctx.Err() for a function whose last result is
// an error, a bare return for one without results when fn is the function
// that holds the loop (from a function literal inside it, a bare return
// would not stop the retries).
func returnStmt(pass *analysis.Pass, file *ast.File, pos token.Pos, fn ast.Node, ctx string, holdsLoop bool) (string, bool) {
	var sig *types.Signature
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		if obj, ok := pass.TypesInfo.Defs[fn.Name].(*types.Func); ok {
			sig, _ = obj.Type().(*types.Signature)
		}
	case *ast.FuncLit:
		sig, _ = pass.TypesInfo.TypeOf(fn).(*types.Signature)
	}
	if sig == nil {
		return "", false
	}
	res := sig.Results()
	if res.Len() == 0 {
		return "return", holdsLoop
	}
	if !types.Identical(res.At(res.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return "", false
	}
	parts := make([]string, 0, res.Len())
	for i := 0; i < res.Len()-1; i++ {
		z, ok := zero(pass, file, pos, res.At(i).Type())
		if !ok {
			return "", false
		}
		parts = append(parts, z)
	}
	parts = append(parts, ctx+".Err()")
	return "return " + strings.Join(parts, ", "), true
}

// zero renders the zero value of t as it can be written in file at pos.
func zero(pass *analysis.Pass, file *ast.File, pos token.Pos, t types.Type) (string, bool) {
	if tp, ok := t.(*types.TypeParam); ok {
		// A type parameter's underlying type is its constraint: nil
		// is no value of it, *new(T) is.
		return "*new(" + tp.Obj().Name() + ")", visible(pass, pos, tp.Obj().Name(), tp.Obj())
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false", true
		case u.Info()&types.IsString != 0:
			return `""`, true
		case u.Info()&types.IsNumeric != 0:
			return "0", true
		case u.Kind() == types.UnsafePointer:
			return "nil", true
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return "nil", true
	case *types.Struct, *types.Array:
		ok := true
		name := types.TypeString(t, func(p *types.Package) string {
			if p == pass.Pkg {
				return ""
			}
			name, found := importName(file, p)
			ok = ok && found && (name == "" || visible(pass, pos, name, nil))
			return name
		})
		return name + "{}", ok
	}
	return "", false
}

// importName is the name file imports p under: "" for a dot import;
// found is false when file does not import p by a usable name.
func importName(file *ast.File, p *types.Package) (name string, found bool) {
	for _, imp := range file.Imports {
		if strings.Trim(imp.Path.Value, `"`) != p.Path() {
			continue
		}
		switch {
		case imp.Name == nil:
			return p.Name(), true
		case imp.Name.Name == ".":
			return "", true
		case imp.Name.Name != "_":
			return imp.Name.Name, true
		}
	}
	return p.Name(), false
}

// visible reports whether name, looked up at pos, is obj (a package name
// of the file when obj is nil): no local declaration hides it there.
func visible(pass *analysis.Pass, pos token.Pos, name string, obj types.Object) bool {
	scope := pass.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return false
	}
	_, found := scope.LookupParent(name, pos)
	if obj == nil {
		_, ok := found.(*types.PkgName)
		return ok
	}
	return found == obj
}

// freeName returns base, or base with a number, that names nothing in
// scope at pos and nothing declared later in the innermost scope there,
// where a second declaration of the name would not compile.
func freeName(pass *analysis.Pass, pos token.Pos, base string) string {
	scope := pass.Pkg.Scope().Innermost(pos)
	name := base
	for i := 2; ; i++ {
		if scope == nil {
			return name
		}
		if _, obj := scope.LookupParent(name, pos); obj == nil && scope.Lookup(name) == nil {
			return name
		}
		name = fmt.Sprintf("%s%d", base, i)
	}
}

// helperName is how a wait helper's call reads: d.watch, backoff.Wait.
func helperName(n ast.Node) string {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return "a helper"
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, token.NewFileSet(), call.Fun); err != nil || buf.Len() > 60 {
		return "a helper"
	}
	return buf.String()
}

// shortPos is file:line of pos, the file without its directory.
func shortPos(pass *analysis.Pass, pos token.Pos) string {
	p := pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}
