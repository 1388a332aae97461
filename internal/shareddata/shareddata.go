// Package shareddata finds the test data kept outside the repository: the
// official SARIF schema and the corpus of real manifests live in a
// "shared" folder beside the repository (or above it). A clone of the
// repository alone does not have it, so a test that needs it skips with a
// one-line reason; CI, which has it, sets RETRYLINT_REQUIRE_SHARED=1 so
// that such a test fails instead of skipping.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// RequireEnv, when set to a non-empty value, turns a skip for missing
// shared data into a failure.
const RequireEnv = "RETRYLINT_REQUIRE_SHARED"

// DirEnv names the shared folder explicitly.
const DirEnv = "RETRYLINT_SHARED"

// startDir is the working directory the process started in: for a test,
// its package directory.
var startDir, _ = os.Getwd()

// Find returns the path of rel inside the shared folder: $RETRYLINT_SHARED,
// else the nearest "shared" folder holding rel in the directory the
// process started in or a directory above it.
func Find(rel string) (string, bool) {
	if dir := os.Getenv(DirEnv); dir != "" {
		p := filepath.Join(dir, rel)
		_, err := os.Stat(p)
		return p, err == nil
	}
	// A test may change its working directory to a copy of a fixture;
	// the shared folder is found from where the test binary started,
	// its package directory.
	dir := startDir
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return "", false
		}
	}
	for {
		p := filepath.Join(dir, "shared", rel)
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", false
		}
		dir = up
	}
}

// Path returns the path of rel inside the shared folder, or skips tb (fails
// it under RETRYLINT_REQUIRE_SHARED) when the folder or rel is absent.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	p, ok := Find(rel)
	if ok {
		return p
	}
	if os.Getenv(RequireEnv) != "" {
		tb.Fatalf("shared test data %s not found beside the repository (%s is set)", rel, RequireEnv)
	}
	tb.Skipf("needs shared/%s beside the repository, absent in a clone alone", rel)
	return ""
}
