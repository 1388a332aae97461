// Command noopfactsvet is a go vet tool whose one analyzer does nothing but
// declares a fact type. go vet then type-checks every dependency from
// source, the standard library included, to carry facts: the floor of any
// vet tool whose analyzers pass facts between packages, as retrylint's do.
package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

type nothing struct{}

func (*nothing) AFact() {}

var noop = &analysis.Analyzer{
	Name:      "noopfacts",
	Doc:       "does nothing, with a fact type",
	FactTypes: []analysis.Fact{new(nothing)},
	Run:       func(*analysis.Pass) (any, error) { return nil, nil },
}

func main() { unitchecker.Main(noop) }
