// Command noopvet is a go vet tool whose one analyzer does nothing: the
// floor scripts/bench-vet.sh compares go vet -vettool=retrylint against,
// the cost of go vet's driver, type checking and fact plumbing alone.
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

var noop = &analysis.Analyzer{
	Name: "noop",
	Doc:  "does nothing",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

func main() { unitchecker.Main(noop) }
