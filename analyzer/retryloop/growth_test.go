package retryloop_test

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/analyzer/retryloop"
)

// manyLoops is a package whose one function holds n retry loops one after
// the other: the shape of generated or table-driven client code.
func manyLoops(n int) string {
	var b strings.Builder
	b.WriteString("package p\n\nimport \"time\"\n\nfunc op(i int) error { return nil }\n\nfunc All() {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\tfor a := 0; a < 3; a++ {\n\t\tif err := op(%d); err == nil {\n\t\t\tbreak\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n", i)
	}
	b.WriteString("}\n")
	return b.String()
}

// loopPass is a type-checked package ready for retryloop's Run.
type loopPass struct {
	pass *analysis.Pass
	n    int
}

func newLoopPass(tb testing.TB, n int) loopPass {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", manyLoops(n), parser.ParseComments)
	if err != nil {
		tb.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
		Implicits: map[ast.Node]types.Object{}, Scopes: map[ast.Node]*types.Scope{}, Instances: map[*ast.Ident]types.Instance{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		tb.Skipf("type-checking needs the standard library's export data: %v", err)
	}
	files := []*ast.File{f}
	pass := &analysis.Pass{Analyzer: retryloop.Analyzer, Fset: fset, Files: files, Pkg: pkg, TypesInfo: info,
		TypesSizes: types.SizesFor("gc", "amd64"),
		ResultOf:   map[*analysis.Analyzer]any{inspect.Analyzer: inspector.New(files)},
		Report:     func(analysis.Diagnostic) {}}
	return loopPass{pass, n}
}

// runLoops runs retryloop over p and checks it found every loop.
func runLoops(tb testing.TB, p loopPass) {
	res, err := retryloop.Analyzer.Run(p.pass)
	if err != nil {
		tb.Fatal(err)
	}
	if got := len(res.(*retryloop.Result).Loops); got != p.n {
		tb.Fatalf("%d retry loops found, want %d", got, p.n)
	}
}

func benchmarkLoops(b *testing.B, n int) {
	p := newLoopPass(b, n)
	b.ReportAllocs()
	for b.Loop() {
		runLoops(b, p)
	}
}

// The time of these two is today quadratic in the loops of a function
// (each loop scans every variable the function assigns for its counters),
// though the allocations are linear.
func BenchmarkLoopsInOneFunction1500(b *testing.B) { benchmarkLoops(b, 1500) }
func BenchmarkLoopsInOneFunction6000(b *testing.B) { benchmarkLoops(b, 6000) }
