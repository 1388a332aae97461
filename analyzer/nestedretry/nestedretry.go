package nestedretry

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/internal/diag"
	"github.com/retrylint/retrylint/analyzer/retryloop"
	"github.com/retrylint/retrylint/docs"
)

// Rule is the stable name of this check.
const Rule = "nested-retry"

// Analyzer reports retry layers whose operation reaches another retry layer.
var Analyzer = &analysis.Analyzer{
	Name:     "nestedretry",
	Doc:      docs.AnalyzerDoc(Rule),
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/rules/nested-retry.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	for _, n := range res.Nested {
		diag.Report(pass, Rule, n.Pos, n.Pos,
			n.Outer.Name+" retries "+n.Via+", which retries too ("+n.Inner.At+"): attempts multiply, "+n.Product()+" per call against a dependency that is already failing; keep one retry layer, the outermost, and make the inner call single-shot")
	}
	return nil, nil
}
