package unclassifiedretry

import (
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/internal/diag"
	"github.com/retrylint/retrylint/analyzer/retryloop"
	"github.com/retrylint/retrylint/docs"
)

// Rule is the stable name of this check.
const Rule = "unclassified-retry"

// Analyzer reports retry loops that retry every error without inspecting it.
var Analyzer = &analysis.Analyzer{
	Name:     "unclassifiedretry",
	Doc:      docs.AnalyzerDoc(Rule),
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/rules/unclassified-retry.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	for _, l := range res.Loops {
		if l.Classified {
			continue
		}
		op := "the operation"
		switch {
		case l.Unclassified != nil:
			op = types.ExprString(l.Unclassified.Fun)
		case len(l.Ops) > 0:
			op = types.ExprString(l.Ops[0].Fun)
		}
		diag.Report(pass, Rule, l.Pos, l.Pos,
			l.Subject()+" retries every error of "+op+" without inspecting it; permanent failures (400, 401, 403, invalid input) are retried too and only add load; "+l.LibraryFix(Rule, "retry only transient errors, e.g. with errors.Is/As, a status-code check or a predicate such as isRetryable(err)"))
	}
	return nil, nil
}
