package all_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// libsA are the client packages written against cenkalti/backoff v4 and
// v5, retry-go, go-retry, dskit's backoff and gax-go, in which every
// finding the libraries' configurations deserve carries a want comment.
var libsA = []string{"libsa/agentrpc", "libsa/payments", "libsa/inventory", "libsa/notify", "libsa/storage", "libsa/ingest", "libsa/gcs", "libsa/providers"}

// TestLibrariesA runs every code rule over code that retries through the
// libraries, with the library stand-ins of testdata/src.
func TestLibrariesA(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), every, libsA...)
}

// TestLibrariesAReal runs the same packages, with the same want comments,
// against the real libraries of testdata/reallibs-a's go.mod, fetched
// through the module proxy: a stand-in that drifted from its library
// changes a finding. Without the proxy it is skipped, unless CI is set.
func TestLibrariesAReal(t *testing.T) {
	runReal(t, "reallibs-a", libsA, "./libsa/...")
}

// runReal copies the module of testdata/module and the packages pkgs into
// a temporary module and runs every rule over pattern there, against the
// real libraries its go.mod requires. Without the module proxy it is
// skipped, unless CI is set.
func runReal(t *testing.T, module string, pkgs []string, pattern string) {
	t.Helper()
	if testing.Short() {
		t.Skip("compiles the real libraries and their dependencies")
	}
	dir := t.TempDir()
	mod := filepath.Join(analysistest.TestData(), module)
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(mod, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, pkg := range pkgs {
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
	analysistest.Run(t, dir, every, pattern)
}

// realLibrariesMissing downloads the module's requirements and says why
// it could not, "" when it could.
func realLibrariesMissing(dir string) string {
	out, err := exec.Command("go", "env", "GOPROXY").Output()
	if err != nil {
		return err.Error()
	}
	if p := strings.TrimSpace(string(out)); p == "off" || p == "" {
		return "GOPROXY is off"
	}
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return strings.TrimSpace(string(out))
	}
	return ""
}
