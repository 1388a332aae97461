package retrypermanent_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/retrypermanent"
)

func TestRetryPermanent(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrypermanent.Analyzer, "upstream", "gateway")
}
