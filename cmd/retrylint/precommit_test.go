package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// hook is an entry of .pre-commit-hooks.yaml.
type hook struct {
	ID            string   `yaml:"id"`
	Entry         string   `yaml:"entry"`
	Language      string   `yaml:"language"`
	Files         string   `yaml:"files"`
	Types         []string `yaml:"types"`
	PassFilenames *bool    `yaml:"pass_filenames"`
	Args          []string `yaml:"args"`
}

func hooks(t *testing.T) map[string]hook {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(reportRoot, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var list []hook
	if err := yaml.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	out := make(map[string]hook)
	for _, h := range list {
		if h.Language != "golang" {
			t.Errorf("%s: language %q, want golang", h.ID, h.Language)
		}
		out[h.ID] = h
	}
	return out
}

// runHook runs a hook in dir as pre-commit does: the entry split as a
// shell would (shlex), then the hook's args, then the files, with the
// installed retrylint on PATH.
func runHook(t *testing.T, h hook, dir string, files ...string) result {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 splits the entry as pre-commit does")
	}
	args := append([]string{"-c", "import shlex, subprocess, sys; sys.exit(subprocess.call(shlex.split(sys.argv[1]) + sys.argv[2:]))", h.Entry}, h.Args...)
	if h.PassFilenames == nil || *h.PassFilenames {
		args = append(args, files...)
	}
	cmd := exec.Command("python3", args...)
	cmd.Dir = dir
	cmd.Env = append(e2eEnv(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return result{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
}

// TestPreCommitCodeHook checks the packages of the changed files, each
// once, and only those.
func TestPreCommitCodeHook(t *testing.T) {
	h := hooks(t)["retrylint-code"]
	if len(h.Types) != 1 || h.Types[0] != "go" {
		t.Errorf("retrylint-code runs on %v, want Go files", h.Types)
	}
	dir := asProjectRoot(t, e2eDir(t))
	bad := runHook(t, h, dir, "bad/bad.go", "bad/bad_test.go", "clean/clean.go")
	lines := strings.Split(strings.TrimSpace(bad.stdout), "\n")
	seen := make(map[string]bool)
	for _, l := range lines {
		if !strings.HasPrefix(l, "bad/bad.go:") || seen[l] {
			t.Errorf("a finding outside bad/bad.go, or twice: %s", l)
		}
		seen[l] = true
	}
	if bad.code != 1 || len(lines) == 0 {
		t.Errorf("bad and clean: exit %d, want 1 with findings in bad/bad.go\nstdout:\n%s\nstderr:\n%s", bad.code, bad.stdout, bad.stderr)
	}
	if clean := runHook(t, h, dir, "clean/clean.go"); clean.code != 0 || clean.stdout != "" {
		t.Errorf("clean: exit %d, want 0 and nothing\n%s%s", clean.code, clean.stdout, clean.stderr)
	}
	h.Args = []string{"--tests"}
	if tests := runHook(t, h, dir, "bad/bad_test.go"); tests.code != 1 || !strings.Contains(tests.stdout, "bad/bad_test.go:") {
		t.Errorf("args --tests: exit %d, want the finding in bad_test.go\n%s%s", tests.code, tests.stdout, tests.stderr)
	}
}

// TestPreCommitTopologyHook runs on manifests over the paths of args.
func TestPreCommitTopologyHook(t *testing.T) {
	h := hooks(t)["retrylint-topology"]
	for _, f := range []string{"job.yaml", "main.tf", "workflow.yml", "trigger.json"} {
		if !regexpMatch(t, h.Files, f) {
			t.Errorf("retrylint-topology does not run when %s changes", f)
		}
	}
	if regexpMatch(t, h.Files, "main.go") {
		t.Error("retrylint-topology runs when a Go file changes")
	}
	examples := filepath.Join(reportRoot, "examples", "topology")
	if r := runHook(t, h, filepath.Join(examples, "incident1"), "mapping-job.yaml"); r.code != 1 || !strings.Contains(r.stdout, "job-max-retries") {
		t.Errorf("incident1: exit %d, want 1 with job-max-retries\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runHook(t, h, filepath.Join(examples, "incident1-fixed"), "mapping-job.yaml"); r.code != 0 {
		t.Errorf("incident1-fixed: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// regexpMatch reports whether pre-commit's files pattern (a Python
// regular expression searched in the path) matches name.
func regexpMatch(t *testing.T, pattern, name string) bool {
	t.Helper()
	re, err := regexp.Compile(pattern)
	if err != nil {
		t.Fatalf("files %q: %v", pattern, err)
	}
	return re.MatchString(name)
}

// TestPreCommitCodeHookNestedModules is a repository with a Go module
// nested in another, as a monorepo has: the hook checks each changed
// file's package in the module that holds it, runs once per module, and
// fails on the findings of either.
func TestPreCommitCodeHookNestedModules(t *testing.T) {
	h := hooks(t)["retrylint-code"]
	dir := t.TempDir()
	bad, err := os.ReadFile(filepath.Join(e2eDir(t), "bad", "bad.go"))
	if err != nil {
		t.Fatal(err)
	}
	clean, err := os.ReadFile(filepath.Join(e2eDir(t), "clean", "clean.go"))
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{
		"go.mod":                          []byte("module example.com/root\n\ngo 1.22\n"),
		"bad/bad.go":                      bad,
		"services/api/go.mod":             []byte("module example.com/api\n\ngo 1.22\n"),
		"services/api/client/client.go":   bad,
		"services/api/health/health.go":   clean,
		"services/api/cmd/serve/serve.go": clean,
	} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	line := lineOf(t, filepath.Join(dir, "bad", "bad.go"), "time.Sleep(time.Second)")

	both := runHook(t, h, dir, "bad/bad.go", "services/api/client/client.go", "services/api/health/health.go")
	if both.code != 1 {
		t.Errorf("both modules: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", both.code, both.stdout, both.stderr)
	}
	for _, want := range []string{
		fmt.Sprintf("bad/bad.go:%d:", line),
		fmt.Sprintf("client/client.go:%d:", line),
	} {
		if !strings.Contains(both.stdout, want) {
			t.Errorf("both modules: no finding at %s\nstdout:\n%s\nstderr:\n%s", want, both.stdout, both.stderr)
		}
	}
	if strings.Contains(both.stdout, "health") {
		t.Errorf("both modules: a finding in the clean package\n%s", both.stdout)
	}

	nested := runHook(t, h, dir, "services/api/client/client.go")
	if nested.code != 1 || !strings.Contains(nested.stdout, fmt.Sprintf("client/client.go:%d:", line)) || strings.Contains(nested.stdout, "bad/bad.go") {
		t.Errorf("the nested module alone: exit %d, want 1 with its finding only\nstdout:\n%s\nstderr:\n%s", nested.code, nested.stdout, nested.stderr)
	}
	if r := runHook(t, h, dir, "services/api/health/health.go", "services/api/cmd/serve/serve.go"); r.code != 0 || r.stdout != "" {
		t.Errorf("clean packages of the nested module: exit %d, want 0 and nothing\n%s%s", r.code, r.stdout, r.stderr)
	}
}
