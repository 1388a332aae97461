package nojitter_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/nojitter"
)

func TestNoJitter(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), nojitter.Analyzer, "backoff", "remote")
}
