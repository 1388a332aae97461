package all_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestLibrariesB runs every code rule over client code written against
// go-retryablehttp, k8s wait and client-go retry, the AWS SDK retryers and
// gRPC service configs (stand-ins under testdata/src at the libraries'
// pinned versions): the rules fire on the libraries' configuration, with
// their documented defaults, and stay silent on the correct uses.
func TestLibrariesB(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), every, "libsb/...")
}
