package nocap

import (
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/internal/diag"
	"github.com/retrylint/retrylint/analyzer/retryloop"
	"github.com/retrylint/retrylint/docs"
)

// Rule is the stable name of this check.
const Rule = "no-cap"

// Analyzer reports retry backoff that grows without an upper bound.
var Analyzer = &analysis.Analyzer{
	Name:     "nocap",
	Doc:      docs.AnalyzerDoc(Rule),
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/rules/no-cap.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	for _, lw := range res.Waits() {
		w := lw.Wait
		s := w.Source
		if !s.Grows || s.Capped || s.Unknown {
			continue
		}
		at := lw.Loop.At(w)
		diag.Report(pass, Rule, at.Pos(), at.End(),
			"retry wait ("+types.ExprString(w.Delay)+") grows with the attempt without an upper bound; late attempts wait far longer than the outage lasts; "+lw.Loop.LibraryFix(Rule, "clamp it, e.g. min(d, maxDelay)"))
	}
	return nil, nil
}
