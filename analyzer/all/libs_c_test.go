package all_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// libsC are the client packages written against go-resty v2, resty v3,
// go-redis v9, sarama and Cloud Storage, in which every finding the
// libraries' configurations deserve carries a want comment.
var libsC = []string{"libsc/restyv2", "libsc/restyv3", "libsc/rediscache", "libsc/kafkapub", "libsc/gcsobjects"}

// TestLibrariesC runs every code rule over code that retries through the
// libraries, with the library stand-ins of testdata/src.
func TestLibrariesC(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), every, libsC...)
}

// TestLibrariesCReal runs the same packages, with the same want comments,
// against the real libraries of testdata/reallibs-c's go.mod, fetched
// through the module proxy: a stand-in that drifted from its library
// changes a finding. Without the proxy it is skipped, unless CI is set.
func TestLibrariesCReal(t *testing.T) {
	runReal(t, "reallibs-c", libsC, "./libsc/...")
}
