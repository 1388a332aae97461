package fixedsleep_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/fixedsleep"
)

func TestFixedSleep(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), fixedsleep.Analyzer, "payments", "retrier", "callers")
}
