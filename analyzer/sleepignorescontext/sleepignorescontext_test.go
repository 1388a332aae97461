package sleepignorescontext_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/sleepignorescontext"
)

func TestSleepIgnoresContext(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), sleepignorescontext.Analyzer, "worker")
}
