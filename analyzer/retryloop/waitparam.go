package retryloop

import (
	"go/ast"
	"go/constant"

	"github.com/retrylint/retrylint/analyzer/internal/retrylib"
)

// waitParam returns the 1-based index of the duration parameter of decl
// that every wait of its retry loop waits as it is given, or 0: a loop
// with a wait of another delay, or one that grows, has none.
func (a *checker) waitParam(decl *ast.FuncDecl, l *Loop) int {
	if len(l.Waits) == 0 {
		return 0
	}
	params := fieldObjs(a, decl.Type.Params)
	found := 0
	for _, w := range l.Waits {
		id, ok := ast.Unparen(w.Delay).(*ast.Ident)
		if !ok || !w.Source.Constant() {
			return 0
		}
		i := -1
		for j, p := range params {
			if p != nil && p == a.info().Uses[id] && isDuration(p.Type()) {
				i = j
			}
		}
		if i < 0 || found != 0 && found != i+1 {
			return 0
		}
		found = i + 1
	}
	return found
}

// constantWaits finds the calls of the package that give a retrier's
// wait parameter a constant, outside the retrier itself. A poll runner's
// call counts only where it is a retry loop (its condition goes round on
// a failure): one that only waits for a state polls, it does not retry.
func (a *checker) constantWaits(loops []*Loop) []ConstantWait {
	retryCalls := map[ast.Node]bool{}
	for _, l := range loops {
		if l.Form == FormRunner {
			retryCalls[l.Node] = true
		}
	}
	var out []ConstantWait
	for _, f := range a.pass.Files {
		if !a.wantFile(f.Pos()) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := a.callee(call)
			if retrylib.IsLibrary(fn) {
				return true // the library's own schedule is read where it is called
			}
			out = append(out, a.fieldWaits(call, fn)...)
			r := a.retryOf(fn)
			if r == nil || r.WaitParam == 0 || r.WaitParam > len(call.Args) {
				return true
			}
			if a.funcObj(a.declOf(call)) == fn.Origin() {
				return true // the retrier calling itself
			}
			if r.Poll && !retryCalls[call] {
				return true
			}
			arg := call.Args[r.WaitParam-1]
			tv := a.info().Types[arg]
			if tv.Value == nil || tv.Value.Kind() != constant.Int || constant.Sign(tv.Value) <= 0 || !isDuration(tv.Type) {
				return true
			}
			out = append(out, ConstantWait{Call: call, Arg: arg, Value: a.constText(arg), At: r.At})
			return true
		})
	}
	return out
}
