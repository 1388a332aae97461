package nocap_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/nocap"
)

func TestNoCap(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), nocap.Analyzer, "backoff", "schedule")
}
