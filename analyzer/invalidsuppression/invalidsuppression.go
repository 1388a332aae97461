package invalidsuppression

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/internal/diag"
	"github.com/retrylint/retrylint/analyzer/retryconfig"
	"github.com/retrylint/retrylint/docs"
	"github.com/retrylint/retrylint/internal/suppress"
)

// Rule is the stable name of this check.
const Rule = "invalid-suppression"

// Analyzer reports suppression directives that suppress nothing, or less
// than they name.
var Analyzer = &analysis.Analyzer{
	Name:     "invalidsuppression",
	Doc:      docs.AnalyzerDoc(Rule),
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/rules/invalid-suppression.md",
	Requires: []*analysis.Analyzer{retryconfig.Analyzer},
	Run:      run,
}

// run reports every bad directive of the files the other rules read:
// not generated ones, and test files only with the tests setting.
func run(pass *analysis.Pass) (any, error) {
	cfg, _ := pass.ResultOf[retryconfig.Analyzer].(*retryconfig.Config)
	tests := cfg != nil && cfg.Tests
	for _, f := range pass.Files {
		name := pass.Fset.Position(f.FileStart).Filename
		if ast.IsGenerated(f) || !tests && strings.HasSuffix(name, "_test.go") {
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				check(pass, c)
			}
		}
	}
	return nil, nil
}

// check reports the directive of c, if it is one and is bad.
func check(pass *analysis.Pass, c *ast.Comment) {
	text, ok := diag.DirectiveText(c)
	if !ok {
		return
	}
	if msg := suppress.Check(text, suppress.Code); msg != "" {
		pass.Report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: Rule, Message: Rule + ": " + msg})
	}
}
