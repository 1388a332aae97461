package unclassifiedretry_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/unclassifiedretry"
)

func TestUnclassifiedRetry(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unclassifiedretry.Analyzer, "clients")
}
