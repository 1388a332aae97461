package retryloop_test

import (
	"fmt"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/retryconfig"
	"github.com/retrylint/retrylint/analyzer/retryloop"
)

// describe reports each retry loop the model finds, in a compact form the
// testdata's want comments spell out: form, bound, classification, waits.
var describe = &analysis.Analyzer{
	Name:     "describe",
	Doc:      "test helper: describe the retry loops found",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
		for _, l := range res.Loops {
			var waits []string
			for _, w := range l.Waits {
				waits = append(waits, fmt.Sprintf("%s(%s)", w.Kind, source(w.Source)))
			}
			bound := string(l.Bound)
			if bound == "" {
				bound = "none"
			}
			ctx := "-"
			if l.Context != nil {
				ctx = l.Context.Name()
			}
			var ops []string
			for _, op := range l.Ops {
				ops = append(ops, types.ExprString(op.Fun))
			}
			pass.Reportf(l.Pos, "%s op=%s bound=%s classified=%v waits=[%s] ctx=%s permanent=[%s]",
				l.Form, strings.Join(ops, ","), bound, l.Classified, strings.Join(waits, " "), ctx, strings.Join(l.Permanent, "; "))
		}
		return nil, nil
	},
}

func source(d retryloop.Delay) string {
	var parts []string
	if d.Constant() {
		parts = append(parts, "const")
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{d.Grows, "grows"}, {d.Random, "random"}, {d.Capped, "capped"}, {d.Unknown, "unknown"}} {
		if f.on {
			parts = append(parts, f.name)
		}
	}
	return strings.Join(parts, "+")
}

func TestModel(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), describe, "forms")
}

func TestIncludeTests(t *testing.T) {
	// Without the tests setting the _test.go file's loop is not described;
	// the want comment in it would then be unmatched. With it, it is.
	setFlag(t, "tests", "true")
	analysistest.Run(t, analysistest.TestData(), describe, "withtests")
}

// setFlag sets a flag of the settings analyzer for one test, as go vet
// -retryconfig.NAME=VALUE does.
func setFlag(t *testing.T, name, value string) {
	t.Helper()
	f := retryconfig.Analyzer.Flags.Lookup(name)
	old := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Value.Set(old) })
}

// TestSummaries checks the facts the analyzer exports for the helpers of
// a package: what callers in other packages know of them.
func TestSummaries(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retryloop.Analyzer, "summaries")
}
