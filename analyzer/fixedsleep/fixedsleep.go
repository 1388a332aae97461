package fixedsleep

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/internal/diag"
	"github.com/retrylint/retrylint/analyzer/retryloop"
	"github.com/retrylint/retrylint/docs"
)

// Rule is the stable name of this check.
const Rule = "fixed-sleep"

// Analyzer reports retry loops that wait a constant interval between attempts.
var Analyzer = &analysis.Analyzer{
	Name:     "fixedsleep",
	Doc:      docs.AnalyzerDoc(Rule),
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/rules/fixed-sleep.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	for _, lw := range res.Waits() {
		w := lw.Wait
		if w.Fresh {
			diag.Report(pass, Rule, w.Node.Pos(), w.Node.End(),
				"back-off "+types.ExprString(w.Delay)+" is created anew on every attempt, so it never grows and waits its first interval each time; clients that fail together retry together in lock-step; create it once, before the retry loop")
			continue
		}
		if w.Delay == nil || !w.Source.Constant() {
			continue
		}
		if tv := pass.TypesInfo.Types[w.Delay]; tv.Value != nil && constant.Sign(tv.Value) == 0 {
			continue // t.Reset(0): no pause at all, the next attempt at once
		}
		at := lw.Loop.At(w)
		diag.Report(pass, Rule, at.Pos(), at.End(),
			lw.Loop.Subject()+" waits a constant "+w.Source.Value+" between attempts; clients that fail together retry together in lock-step; "+lw.Loop.LibraryFix(Rule, "back off exponentially with random jitter and a cap"))
	}
	for _, cw := range res.ConstantWaits {
		diag.Report(pass, Rule, cw.Call.Pos(), cw.Call.End(),
			types.ExprString(cw.Call.Fun)+" is given a constant "+cw.Value+" to wait between its attempts (its loop at "+cw.At+"); clients that fail together retry together in lock-step; give it a back-off that grows exponentially with random jitter and a cap")
	}
	return nil, nil
}
