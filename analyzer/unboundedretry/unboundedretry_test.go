package unboundedretry_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/unboundedretry"
)

func TestUnboundedRetry(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedretry.Analyzer, "reconnect", "labelled")
}
