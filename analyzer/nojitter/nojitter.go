package nojitter

import (
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/internal/diag"
	"github.com/retrylint/retrylint/analyzer/retryloop"
	"github.com/retrylint/retrylint/docs"
)

// Rule is the stable name of this check.
const Rule = "no-jitter"

// Analyzer reports retry backoff that grows with the attempt but has no jitter.
var Analyzer = &analysis.Analyzer{
	Name:     "nojitter",
	Doc:      docs.AnalyzerDoc(Rule),
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/rules/no-jitter.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	for _, lw := range res.Waits() {
		w := lw.Wait
		s := w.Source
		if !s.Grows || s.Random || s.Unknown {
			continue
		}
		at := lw.Loop.At(w)
		diag.Report(pass, Rule, at.Pos(), at.End(),
			"retry wait ("+types.ExprString(w.Delay)+") grows with the attempt but nothing random enters it; clients that failed together back off on the same schedule and still retry together; "+lw.Loop.LibraryFix(Rule, "add jitter, e.g. full jitter rand.N(d)"))
	}
	return nil, nil
}
