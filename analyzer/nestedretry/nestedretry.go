package nestedretry

import (
	"fmt"

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
			n.Outer.Name+" retries "+n.Via+", which retries too ("+n.Inner.At+"): attempts multiply, "+product(n)+" per call against a dependency that is already failing; keep one retry layer, the outermost, and make the inner call single-shot")
	}
	return nil, nil
}

// product says how the attempts of nested layers multiply: in the seed's
// notation when both are known, (3+1)×(4+1) = 20 attempts; else each
// layer's known count, or what sets it ("the attempts set by the argument
// maxRetries"), or that nothing here says.
func product(n retryloop.Nesting) string {
	if n.Outer.Unbounded || n.Inner.Unbounded || n.Outer.Attempts > 0 && n.Inner.Attempts > 0 {
		return n.Product()
	}
	return term(n.Outer) + " × " + term(n.Inner)
}

// term is one layer's factor of product.
func term(l retryloop.Layer) string {
	switch {
	case l.Attempts > 0:
		return fmt.Sprintf("(%d+1)", l.Attempts-1)
	case l.Limit != "":
		return "the attempts set by " + l.Limit
	case l.Name == "retry loop":
		return "the attempts of the retry loop, a number not read here,"
	}
	return "the attempts of " + l.Name + ", a number not read here,"
}
