package all_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// TestLibrariesBReal runs the same client code against the real libraries,
// at the versions the stand-ins copy (testdata/reallibs-b/go.mod), with
// the same want comments: a stand-in that drifted from its library changes
// the findings. It needs the module proxy; without it the test is skipped,
// except in CI.
func TestLibrariesBReal(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads the real libraries")
	}
	dir := t.TempDir()
	copyTree(t, filepath.Join(analysistest.TestData(), "reallibs-b"), dir)
	copyTree(t, filepath.Join(analysistest.TestData(), "src", "libsb"), dir)
	if out, err := exec.Command("go", "env", "GOPROXY").Output(); err == nil && strings.TrimSpace(string(out)) == "off" {
		skipOutsideCI(t, "GOPROXY is off")
	}
	download := exec.Command("go", "mod", "download")
	download.Dir = dir
	if out, err := download.CombinedOutput(); err != nil {
		skipOutsideCI(t, "cannot download the real libraries: "+strings.TrimSpace(string(out)))
	}
	analysistest.Run(t, dir, every, "./...")
}

func skipOutsideCI(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// copyTree copies the regular files under from into to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
