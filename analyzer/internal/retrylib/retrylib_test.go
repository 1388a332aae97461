package retrylib_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/analyzer/internal/retrylib"
)

// describe reports every Retrier that retrylib finds, in a compact form
// the testdata's want comments spell out.
var describe = &analysis.Analyzer{
	Name: "describe",
	Doc:  "test helper: describe the library retriers found",
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				var body *ast.BlockStmt
				switch fn := n.(type) {
				case *ast.FuncDecl:
					body = fn.Body
				case *ast.FuncLit:
					body = fn.Body
				default:
					return true
				}
				if body != nil {
					reportCalls(pass, body)
				}
				return true
			})
		}
		return nil, nil
	},
}

// reportCalls reports the retriers of the calls of one function body,
// not those of the function literals inside it.
func reportCalls(pass *analysis.Pass, body *ast.BlockStmt) {
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
		if r := retrylib.Find(pass.TypesInfo, call, fn, body); r != nil {
			pass.Reportf(call.Pos(), "%s", text(r))
		}
		return true
	})
}

func text(r *retrylib.Retrier) string {
	var b strings.Builder
	fmt.Fprintf(&b, "attempts=%d deadline=%v ctx=%v", r.Attempts, r.Deadline, r.Context)
	if r.BoundUnknown {
		b.WriteString(" bound=?")
	}
	if !r.Waits {
		b.WriteString(" nowait")
	} else {
		fmt.Fprintf(&b, " delay=%s", shape(r.Delay))
	}
	if r.DelayAt != nil && r.DelayAt != r.Call.Fun {
		fmt.Fprintf(&b, " at=%s", types.ExprString(r.DelayAt))
	}
	fmt.Fprintf(&b, " classified=%v", r.Classified)
	if len(r.Permanent) > 0 {
		fmt.Fprintf(&b, " permanent=[%s]", strings.Join(r.Permanent, "; "))
	}
	if r.Fresh {
		fmt.Fprintf(&b, " fresh=%s", types.ExprString(r.FreshAt))
	}
	if r.Loop != nil {
		b.WriteString(" loop")
	}
	return b.String()
}

func shape(d retrylib.Delay) string {
	var parts []string
	if d.Unknown {
		return "?"
	}
	if d.Constant() {
		parts = append(parts, "const("+d.Value+")")
	}
	if d.Grows {
		parts = append(parts, "grows")
	}
	if d.Random {
		parts = append(parts, "random")
	}
	if d.Capped {
		parts = append(parts, "capped")
	}
	return strings.Join(parts, "+")
}

// testdata returns a GOPATH holding the library stand-ins of
// analyzer/all/testdata/src and the cases of testdata/src.
func testdata(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, from := range []string{filepath.Join("..", "..", "all", "testdata", "src"), filepath.Join("testdata", "src")} {
		if err := os.CopyFS(filepath.Join(dir, "src"), os.DirFS(from)); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFinders(t *testing.T) {
	analysistest.Run(t, testdata(t), describe, "cenkaltiv4", "cenkaltiv5", "retrygo", "sethvargo", "dskit", "gax", "roko")
}
