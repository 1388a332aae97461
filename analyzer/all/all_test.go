package all_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/all"
	"github.com/retrylint/retrylint/analyzer/retryconfig"
	"github.com/retrylint/retrylint/analyzer/retryloop"
)

// every runs all the code rules in one pass, as retrylint code does, so
// that one testdata module can hold the want comments of every rule.
var every = &analysis.Analyzer{
	Name:     "every",
	Doc:      "test helper: every code rule at once",
	Requires: []*analysis.Analyzer{retryloop.Analyzer, retryconfig.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, a := range all.Analyzers() {
			if _, err := a.Run(pass); err != nil {
				return nil, err
			}
		}
		return nil, nil
	},
}

// TestServices runs every code rule over two modules of realistic service
// code — payment, HTTP, gRPC, database, queue and Kubernetes clients,
// daemons, pollers, CLIs and batch jobs, written independently of each
// other — in which every expected finding carries a want comment and every
// other line must stay silent. More than half of their functions are
// correct code that no rule may flag.
func TestServices(t *testing.T) {
	for _, a := range all.Analyzers() {
		if len(a.Requires) != 1 || a.Requires[0] != retryloop.Analyzer && a.Requires[0] != retryconfig.Analyzer {
			t.Fatalf("%s requires more than the retry-loop model or the settings; the combined pass must require it too", a.Name)
		}
	}
	for _, module := range []string{"services", "platform"} {
		t.Run(module, func(t *testing.T) {
			analysistest.Run(t, filepath.Join(analysistest.TestData(), module), every, "./...")
		})
	}
}
