package unclassifiedretry

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/retryloop"
)

// Rule is the stable name of this check.
const Rule = "unclassified-retry"

// Analyzer reports unclassified-retry findings.
var Analyzer = &analysis.Analyzer{
	Name:     "unclassifiedretry",
	Doc:      "placeholder",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) { return nil, nil }
