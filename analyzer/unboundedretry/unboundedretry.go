package unboundedretry

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/internal/diag"
	"github.com/retrylint/retrylint/analyzer/retryloop"
	"github.com/retrylint/retrylint/docs"
)

// Rule is the stable name of this check.
const Rule = "unbounded-retry"

// Analyzer reports retry loops with no attempt limit, deadline or context exit.
var Analyzer = &analysis.Analyzer{
	Name:     "unboundedretry",
	Doc:      docs.AnalyzerDoc(Rule),
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/rules/unbounded-retry.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	for _, l := range res.Loops {
		if l.Bound != retryloop.BoundNone {
			continue
		}
		diag.Report(pass, Rule, l.Pos, l.Pos,
			l.Subject()+" has no attempt limit, deadline or context exit; against a dependency that stays down it retries forever; "+l.LibraryFix(Rule, "stop after a maximum number of attempts or when ctx.Done() is closed"))
	}
	return nil, nil
}
