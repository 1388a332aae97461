package sleepignorescontext

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/retryloop"
)

// Rule is the stable name of this check.
const Rule = "sleep-ignores-context"

// Analyzer reports sleep-ignores-context findings.
var Analyzer = &analysis.Analyzer{
	Name:     "sleepignorescontext",
	Doc:      "placeholder",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) { return nil, nil }
