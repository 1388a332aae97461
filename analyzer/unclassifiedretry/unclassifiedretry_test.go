package unclassifiedretry_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/retryconfig"
	"github.com/retrylint/retrylint/analyzer/unclassifiedretry"
)

func TestUnclassifiedRetry(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unclassifiedretry.Analyzer, "clients", "jobs")
}

func TestConfiguredClassifier(t *testing.T) {
	if err := retryconfig.Analyzer.Flags.Set("classifiers", "configured.shouldRetry"); err != nil {
		t.Fatal(err)
	}
	defer retryconfig.Analyzer.Flags.Set("classifiers", "")
	analysistest.Run(t, analysistest.TestData(), unclassifiedretry.Analyzer, "configured")
}
