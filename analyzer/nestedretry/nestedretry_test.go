package nestedretry_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/nestedretry"
	"github.com/retrylint/retrylint/analyzer/retryloop"
)

func TestNestedRetry(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), nestedretry.Analyzer, "orders")
}

// TestSummaries checks the facts the packages that orders imports export
// about their functions: that is all orders knows of them.
func TestSummaries(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retryloop.Analyzer, "store", "wrap")
}
