package main

import (
	"errors"
	"go/ast"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/analyzer/all"
	"github.com/retrylint/retrylint/model"
)

// noisyHelper stands for a helper analyzer such as retryloop: a
// requirement of the rules whose own diagnostics are never reported.
var noisyHelper = &analysis.Analyzer{
	Name:     "noisyhelper",
	Doc:      "reports every function, to show that helpers are not reported",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		for n := range insp.PreorderSeq((*ast.FuncDecl)(nil)) {
			pass.Reportf(n.Pos(), "noisyhelper: a function")
		}
		return nil, nil
	},
}

// sleepRule stands for a rule analyzer that follows the analyzers'
// contract: Category is the rule, the message starts with "rule: ". It
// reports every call of time.Sleep, with a suggested fix.
var sleepRule = &analysis.Analyzer{
	Name:     "sleeprule",
	Doc:      "reports every time.Sleep",
	Requires: []*analysis.Analyzer{inspect.Analyzer, noisyHelper},
	Run: func(pass *analysis.Pass) (any, error) {
		insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		for n := range insp.PreorderSeq((*ast.CallExpr)(nil)) {
			call := n.(*ast.CallExpr)
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Sleep" {
				continue
			}
			pass.Report(analysis.Diagnostic{
				Pos:            call.Pos(),
				End:            call.End(),
				Category:       "fixed-sleep",
				Message:        "fixed-sleep: retry loop waits a constant time",
				SuggestedFixes: []analysis.SuggestedFix{{Message: "use jittered backoff"}},
			})
		}
		return nil, nil
	},
}

var testRules = []all.Rule{{Name: "fixed-sleep", Analyzer: sleepRule}}

// e2eDir is the testdata module shared by these tests and the end-to-end
// tests.
func e2eDir(t testing.TB) string {
	dir, err := filepath.Abs(filepath.Join("testdata", "e2e"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// lineOf returns the 1-based line of the first line of file that contains
// substr.
func lineOf(t testing.TB, file, substr string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, substr) {
			return i + 1
		}
	}
	t.Fatalf("%s: no line contains %q", file, substr)
	return 0
}

func TestCheckCodeFinding(t *testing.T) {
	dir := e2eDir(t)
	res, err := checkCode(codeConfig{Dir: dir, Patterns: []string{"./bad"}}, testRules)
	if err != nil {
		t.Fatal(err)
	}
	line := lineOf(t, filepath.Join(dir, "bad", "bad.go"), "time.Sleep(time.Second)")
	want := model.Finding{
		Rule:      "fixed-sleep",
		Severity:  model.Error,
		Message:   "retry loop waits a constant time",
		File:      "bad/bad.go",
		Line:      line,
		Column:    3,
		EndLine:   line,
		EndColumn: 26,
		Fix:       "use jittered backoff",
		Function:  "Fetch",
		Loop:      "for i := _ ; i < _ ; i ++",
	}
	if !slices.Equal(res.Findings, []model.Finding{want}) {
		t.Errorf("findings:\n got %+v\nwant %+v", res.Findings, []model.Finding{want})
	}
	if res.Version != 1 || res.Tool.Name != "retrylint" || res.Tool.Version == "" {
		t.Errorf("result header = %d %+v, want version 1 and the tool", res.Version, res.Tool)
	}
}

func TestCheckCodeTests(t *testing.T) {
	dir := e2eDir(t)
	inTest := func(findings []model.Finding) (n int) {
		for _, f := range findings {
			if f.File == "bad/bad_test.go" {
				n++
			}
		}
		return n
	}
	for _, tests := range []bool{false, true} {
		res, err := checkCode(codeConfig{Dir: dir, Patterns: []string{"./bad"}, Tests: tests}, testRules)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if tests {
			want = 1
		}
		if got := inTest(res.Findings); got != want {
			t.Errorf("Tests=%v: %d findings in bad_test.go, want %d: %+v", tests, got, want, res.Findings)
		}
		// bad.go belongs to the package and to its test variant: one finding.
		if got := len(res.Findings) - inTest(res.Findings); got != 1 {
			t.Errorf("Tests=%v: %d findings in bad.go, want 1: %+v", tests, got, res.Findings)
		}
	}
}

func TestCheckCodeTypeError(t *testing.T) {
	dir := e2eDir(t)
	_, err := checkCode(codeConfig{Dir: dir, Patterns: []string{"./bad", "./broken"}}, testRules)
	var inErr *inputError
	if !errors.As(err, &inErr) {
		t.Fatalf("checkCode: %v, want an *inputError", err)
	}
	line := lineOf(t, filepath.Join(dir, "broken", "broken.go"), `"not an int"`)
	want := "broken/broken.go:" + strconv.Itoa(line) + ":9: cannot use"
	// The type error, then the line that names the package (bad loads).
	if len(inErr.lines) != 2 || !strings.HasPrefix(inErr.lines[0], want) ||
		!strings.HasPrefix(inErr.lines[1], "retrylint: example.com/e2e/broken did not type-check") {
		t.Errorf("errors = %q, want one starting %q and one naming example.com/e2e/broken alone", inErr.lines, want)
	}
}

func TestCheckCodeNoPackages(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/empty\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	_, err := checkCode(codeConfig{Dir: dir, Patterns: []string{"./..."}}, testRules)
	if err == nil || !strings.Contains(err.Error(), "matched no packages") {
		t.Errorf("checkCode on an empty module: %v, want a no-packages error", err)
	}
}

func TestRelPos(t *testing.T) {
	root := filepath.FromSlash("/work/m")
	for _, tc := range []struct{ pos, want string }{
		{filepath.FromSlash("/work/m/a/b.go:3:4"), "a/b.go:3:4"},
		{filepath.FromSlash("/work/m/a/b.go:3"), "a/b.go:3"},
		{filepath.FromSlash("/work/m/a/b.go"), "a/b.go"},
		{filepath.FromSlash("/elsewhere/c.go:1:2"), "/elsewhere/c.go:1:2"},
	} {
		if got := relPos(root, tc.pos); got != tc.want {
			t.Errorf("relPos(%q, %q) = %q, want %q", root, tc.pos, got, tc.want)
		}
	}
}
