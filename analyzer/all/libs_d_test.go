package all_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// libsD are the client packages written against failsafe-go's
// retrypolicy, eapache/go-resiliency's retrier, jpillora/backoff,
// lestrrat-go/backoff v2, Rican7/retry and the Temporal Go SDK's retry
// policies, in which every finding the libraries' configurations deserve
// carries a want comment.
var libsD = []string{"libsd/orders", "libsd/billing", "libsd/feeds", "libsd/mailer", "libsd/jobs", "libsd/flows"}

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
	if testing.Short() {
		t.Skip("compiles the real libraries and their dependencies")
	}
	dir := t.TempDir()
	module := filepath.Join(analysistest.TestData(), "reallibs-d")
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(module, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, pkg := range libsD {
		if err := os.CopyFS(filepath.Join(dir, pkg), os.DirFS(filepath.Join(analysistest.TestData(), "src", pkg))); err != nil {
			t.Fatal(err)
		}
	}
	if reason := realLibrariesMissing(dir); reason != "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("real libraries: %s", reason)
		}
		t.Skipf("real libraries unavailable: %s", reason)
	}
	analysistest.Run(t, dir, every, "./libsd/...")
}
