package all_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// libsA are the client packages written against cenkalti/backoff v4 and
// v5, retry-go, go-retry, dskit's backoff and gax-go, in which every
// finding the libraries' configurations deserve carries a want comment.
var libsA = []string{"libsa/payments", "libsa/inventory", "libsa/notify", "libsa/storage", "libsa/ingest", "libsa/gcs"}

// TestLibrariesA runs every code rule over code that retries through the
// libraries, with the library stand-ins of testdata/src.
func TestLibrariesA(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), every, libsA...)
}
