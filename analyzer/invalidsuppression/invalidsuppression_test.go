package invalidsuppression_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/invalidsuppression"
)

func TestInvalidSuppression(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), invalidsuppression.Analyzer, "directives")
}
