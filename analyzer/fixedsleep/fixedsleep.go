package fixedsleep

import (
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/internal/diag"
	"github.com/retrylint/retrylint/analyzer/retryloop"
	"github.com/retrylint/retrylint/docs"
)

// Rule is the stable name of this check.
const Rule = "fixed-sleep"

// Analyzer reports retry loops that wait a constant interval between attempts.
var Analyzer = &analysis.Analyzer{
	Name:     "fixedsleep",
	Doc:      docs.AnalyzerDoc(Rule),
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/rules/fixed-sleep.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	for _, lw := range res.Waits() {
		w := lw.Wait
		if w.Fresh {
			diag.Report(pass, Rule, w.Node.Pos(), w.Node.End(),
				"back-off "+types.ExprString(w.Delay)+" is created anew on every attempt, so it never grows and waits its first interval each time; clients that fail together retry together in lock-step; create it once, before the retry loop")
			continue
		}
		if w.Delay == nil || !w.Source.Constant() {
			continue
		}
		if tv := pass.TypesInfo.Types[w.Delay]; tv.Value != nil && constant.Sign(tv.Value) == 0 {
			continue // t.Reset(0): no pause at all, the next attempt at once
		}
		if callersChoose(pass, lw.Loop, w) || constructorChooses(pass, res, lw.Loop, w) {
			continue // reported where a caller gives it a constant
		}
		at := lw.Loop.At(w)
		diag.Report(pass, Rule, at.Pos(), at.End(),
			lw.Loop.Subject()+" waits a constant "+w.Source.Value+" between attempts; clients that fail together retry together in lock-step; "+lw.Loop.LibraryFix(Rule, "back off exponentially with random jitter and a cap"))
	}
	for _, cw := range res.ConstantWaits {
		diag.Report(pass, Rule, cw.Arg.Pos(), cw.Arg.End(),
			types.ExprString(cw.Call.Fun)+" is given a constant "+cw.Value+" to wait between its attempts (its loop at "+cw.At+"); clients that fail together retry together in lock-step; give it a back-off that grows exponentially with random jitter and a cap")
	}
	return nil, nil
}

// callersChoose reports whether the wait w of loop l is, as given, a
// duration parameter of an exported function — a retrier whose callers
// choose the wait, as a library's do. Its loop does not decide the wait:
// the callers that give it a constant are reported at their argument, in
// whichever package they are, and a retrier of the package's own is
// reported at its loop.
func callersChoose(pass *analysis.Pass, l *retryloop.Loop, w *retryloop.Wait) bool {
	fd, ok := l.Func.(*ast.FuncDecl)
	if !ok || !exported(fd) {
		return false
	}
	id, ok := ast.Unparen(w.Delay).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := pass.TypesInfo.Uses[id].(*types.Var)
	return ok && fd.Type.Params.Pos() <= v.Pos() && v.Pos() < fd.Type.Params.End() && isDuration(v.Type())
}

// constructorChooses reports whether the wait w of loop l is, as it is,
// a field of the receiver of an exported method that a function of the
// package sets from a duration parameter (New(d) { return &B{wait: d} }):
// the constructor's callers choose the wait, and the ones that give it a
// constant are reported at their argument.
func constructorChooses(pass *analysis.Pass, res *retryloop.Result, l *retryloop.Loop, w *retryloop.Wait) bool {
	fd, ok := l.Func.(*ast.FuncDecl)
	if !ok || fd.Recv == nil || !exported(fd) {
		return false
	}
	sel, ok := ast.Unparen(w.Delay).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	field, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
	return ok && field.IsField() && res.FieldFromParam(field)
}

// exported reports whether a function is part of its package's API: an
// exported function, or an exported method of an exported type.
func exported(fd *ast.FuncDecl) bool {
	if !fd.Name.IsExported() {
		return false
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return true
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}

// isDuration reports whether t is time.Duration.
func isDuration(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}
