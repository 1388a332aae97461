package retryloop

import (
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
)

// Result lists the retry loops of a package.
type Result struct{}

var Analyzer = &analysis.Analyzer{
	Name:       "retryloop",
	Doc:        "find retry loops",
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	ResultType: reflect.TypeOf((*Result)(nil)),
	Run:        func(pass *analysis.Pass) (any, error) { return &Result{}, nil },
}
