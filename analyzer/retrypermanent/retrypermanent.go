package retrypermanent

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/retryloop"
)

// Rule is the stable name of this check.
const Rule = "retry-permanent"

// Analyzer reports retry-permanent findings.
var Analyzer = &analysis.Analyzer{
	Name:     "retrypermanent",
	Doc:      "placeholder",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) { return nil, nil }
