package retrypermanent

import (
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/internal/diag"
	"github.com/retrylint/retrylint/analyzer/internal/failure"
	"github.com/retrylint/retrylint/analyzer/retryloop"
	"github.com/retrylint/retrylint/docs"
)

// Rule is the stable name of this check.
const Rule = "retry-permanent"

// Analyzer reports retry loops whose classification retries failures that cannot succeed.
var Analyzer = &analysis.Analyzer{
	Name:     "retrypermanent",
	Doc:      docs.AnalyzerDoc(Rule),
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/rules/retry-permanent.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	for _, l := range res.Loops {
		if len(l.Permanent) == 0 {
			continue
		}
		var codes []string
		open := false
		for _, p := range l.Permanent {
			if p == failure.DescribeBreakerOpen() {
				open = true
			} else {
				codes = append(codes, p)
			}
		}
		var msg string
		switch {
		case len(codes) > 0 && open:
			msg = l.Subject() + " retries " + strings.Join(codes, ", ") + " and " + failure.DescribeBreakerOpen() + ", which cannot succeed on retry; each retry adds load for nothing and defeats the breaker; give up at once on these and retry only 408, 429, 5xx or Unavailable"
		case open:
			msg = l.Subject() + " retries " + failure.DescribeBreakerOpen() + "; the breaker fails fast on purpose to shed load and the retry defeats it; treat the open error as permanent and give up at once"
		default:
			msg = l.Subject() + " retries " + strings.Join(codes, ", ") + ", which cannot succeed on retry; each retry adds load for nothing; " + l.LibraryFix(Rule, "return these at once and retry only 408, 429, 5xx or Unavailable, DeadlineExceeded, ResourceExhausted, Aborted")
		}
		diag.Report(pass, Rule, l.Pos, l.Pos, msg)
	}
	return nil, nil
}
