package sleepignorescontext_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/sleepignorescontext"
)

func TestSleepIgnoresContext(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), sleepignorescontext.Analyzer, "worker")
}

// TestMadeContexts keeps silent on contexts nobody can cancel — made in
// the function from context.Background, cancelled only on return, or out
// of reach in another package's unexported field — and reports the ones a
// caller, a deadline or another goroutine can end.
func TestMadeContexts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), sleepignorescontext.Analyzer, "madectx/...")
}

// TestFixesCompile: the fix keeps the code compiling where the sleep sits
// among other names, imports, generic results and statements, and is not
// offered where it cannot.
func TestFixesCompile(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), sleepignorescontext.Analyzer, "fixes")
}
