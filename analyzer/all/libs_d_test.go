package all_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// libsD are the client packages written against failsafe-go's
// retrypolicy, eapache/go-resiliency's retrier, jpillora/backoff,
// lestrrat-go/backoff v2, Rican7/retry, the Temporal Go SDK's retry
// policies and buildkite/roko, in which every finding the libraries' configurations deserve
// carries a want comment.
var libsD = []string{"libsd/orders", "libsd/billing", "libsd/feeds", "libsd/mailer", "libsd/jobs", "libsd/flows", "libsd/ci"}

// TestLibrariesD runs every code rule over code that retries through the
// libraries, with the library stand-ins of testdata/src.
func TestLibrariesD(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), every, libsD...)
}

// TestLibrariesDReal runs the same packages, with the same want comments,
// against the real libraries of testdata/reallibs-d's go.mod, fetched
// through the module proxy. Without the proxy it is skipped, unless CI is
// set.
func TestLibrariesDReal(t *testing.T) {
	runReal(t, "reallibs-d", libsD, "./libsd/...")
}
