package all_test

import (
	"os"
	"path/filepath"
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
	if testing.Short() {
		t.Skip("compiles the real libraries and their dependencies")
	}
	dir := t.TempDir()
	copyTree(t, filepath.Join(analysistest.TestData(), "reallibs-c"), dir)
	for _, pkg := range libsC {
		if err := os.CopyFS(filepath.Join(dir, pkg), os.DirFS(filepath.Join(analysistest.TestData(), "src", pkg))); err != nil {
			t.Fatal(err)
		}
	}
	if reason := realLibrariesMissing(dir); reason != "" {
		skipOutsideCI(t, "real libraries unavailable: "+reason)
	}
	analysistest.Run(t, dir, every, "./libsc/...")
}
