package action

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// setup runs action/setup.sh MODE with env added to a clean environment
// and returns the step outputs it set.
func setup(t *testing.T, mode string, env ...string) map[string]string {
	t.Helper()
	outputFile := filepath.Join(t.TempDir(), "output")
	cmd := exec.Command("bash", "setup.sh", mode)
	cmd.Env = append([]string{"GITHUB_OUTPUT=" + outputFile, "HOME=" + os.Getenv("HOME")}, env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("setup.sh %s: %v\n%s", mode, err, out)
	}
	outputs := map[string]string{}
	b, _ := os.ReadFile(outputFile)
	for line := range strings.Lines(string(b)) {
		k, v, _ := strings.Cut(strings.TrimSpace(line), "=")
		outputs[k] = v
	}
	return outputs
}

// pathWithoutGo is $PATH without the directories that hold a go command.
func pathWithoutGo() string {
	var dirs []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "go")); err != nil {
			dirs = append(dirs, d)
		}
	}
	return strings.Join(dirs, string(os.PathListSeparator))
}

// TestSetupUsesTheJobsGo: the job's Go is used when there is one, so the
// steps after the action keep it; actions/setup-go runs only when the
// go-version input names a version or no go is on PATH.
func TestSetupUsesTheJobsGo(t *testing.T) {
	goDir, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	withGo := "PATH=" + filepath.Dir(goDir) + string(os.PathListSeparator) + pathWithoutGo()
	if o := setup(t, "go", withGo, "INPUT_GO_VERSION="); o["setup-go"] != "false" {
		t.Errorf("go on PATH, no go-version: setup-go %q, want false", o["setup-go"])
	}
	if o := setup(t, "go", withGo, "INPUT_GO_VERSION=1.25.3"); o["setup-go"] != "true" || o["go-version"] != "1.25.3" {
		t.Errorf("go-version 1.25.3: setup-go %q go-version %q, want true and 1.25.3", o["setup-go"], o["go-version"])
	}
	if o := setup(t, "go", "PATH="+pathWithoutGo(), "INPUT_GO_VERSION="); o["setup-go"] != "true" || o["go-version"] != "1.26" {
		t.Errorf("no go on PATH: setup-go %q go-version %q, want true and retrylint's go.mod's 1.26", o["setup-go"], o["go-version"])
	}
}

// TestBuildCacheKey keys the cached retrylint binary on the runner, the
// Go that builds it and the sources that go into it, and on nothing else.
func TestBuildCacheKey(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/tool\n\ngo 1.22\n")
	write("cmd/tool/main.go", "package main\n\nfunc main() {}\n")
	write("docs/rules/a.md", "# a\n")
	write("README.md", "# tool\n")
	key := func() string {
		return setup(t, "key", "PATH="+os.Getenv("PATH"), "GITHUB_ACTION_PATH="+dir, "RUNNER_OS=Linux", "RUNNER_ARCH=X64")["cache-key"]
	}
	first := key()
	version, _ := exec.Command("go", "env", "GOVERSION").Output()
	if !strings.HasPrefix(first, "retrylint-Linux-X64-"+strings.TrimSpace(string(version))+"-") {
		t.Errorf("cache key %q, want retrylint-Linux-X64-%s-HASH", first, strings.TrimSpace(string(version)))
	}
	if again := key(); again != first {
		t.Errorf("the same sources give %q, then %q", first, again)
	}
	write("README.md", "# tool, documented\n")
	if k := key(); k != first {
		t.Errorf("a README change moved the key from %q to %q", first, k)
	}
	for _, f := range []string{"cmd/tool/main.go", "go.mod", "docs/rules/a.md"} {
		write(f, "// changed\n")
		k := key()
		if k == first {
			t.Errorf("changing %s keeps the key %q", f, k)
		}
		first = k
	}
}

// TestActionSetsUpGoOnlyWhenAsked reads action.yml: the go-version input
// defaults to the job's Go, setup-go and the build run only when the
// set-up says so, and the build is cached under setup.sh's key.
func TestActionSetsUpGoOnlyWhenAsked(t *testing.T) {
	b, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "  go-version:\n    description:") || strings.Contains(string(b), `default: "1.26"`) {
		t.Error(`the go-version input must default to "" (the job's Go)`)
	}
	var sawSetup, sawCache, sawBuild bool
	for _, s := range actionSteps(t) {
		switch {
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			sawSetup = true
			if s.If != "steps.go.outputs.setup-go == 'true'" || s.With["go-version"] != "${{ steps.go.outputs.go-version }}" {
				t.Errorf("setup-go runs if %q with go-version %q, want it only when setup.sh go says so", s.If, s.With["go-version"])
			}
		case strings.HasPrefix(s.Uses, "actions/cache@"):
			sawCache = true
			if s.ID != "cache" || s.With["key"] != "${{ steps.key.outputs.cache-key }}" {
				t.Errorf("the cache step (id %q) has key %q, want setup.sh key's", s.ID, s.With["key"])
			}
		case strings.Contains(s.Run, "go build"):
			sawBuild = true
			if s.If != "steps.cache.outputs.cache-hit != 'true'" {
				t.Errorf("the build runs if %q, want only on a cache miss", s.If)
			}
		}
	}
	if !sawSetup || !sawCache || !sawBuild {
		t.Errorf("steps: setup-go %v, cache %v, build %v; want all three", sawSetup, sawCache, sawBuild)
	}
}
