package action

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// retryGo is a Go file of package pay whose function name retries call
// with a fixed sleep: two findings.
func retryGo(name string) string {
	return "package pay\n\nimport \"time\"\n\n// " + name + " retries call.\nfunc " + name + "() error {\n\tfor i := 0; i < 5; i++ {\n\t\tif err := call(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n\treturn nil\n}\n"
}

// gitRepo is a repository in a temporary directory with files under
// sub, committed on main, then on branch pr with more; it returns the
// repository and main's commit.
func gitRepo(t *testing.T, sub string, main, pr map[string]string) (repo, base string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo = t.TempDir()
	gitIn := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(files map[string]string) {
		for name, content := range files {
			p := filepath.Join(repo, sub, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	gitIn("init", "--quiet", "--initial-branch=main")
	write(main)
	gitIn("add", ".")
	gitIn("commit", "--quiet", "-m", "main")
	base = gitIn("rev-parse", "HEAD")
	gitIn("checkout", "--quiet", "-b", "pr")
	write(pr)
	gitIn("add", ".")
	gitIn("commit", "--quiet", "-m", "pr")
	return repo, base
}

// runScript runs action/run.sh in dir for a pull request whose base is
// base, with the inputs, as the composite action's step does with its
// working-directory; it returns the log and the exit-code output.
func runScript(t *testing.T, dir, base string, inputs map[string]string) (log, exitCode string) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	event := filepath.Join(tmp, "event.json")
	if err := os.WriteFile(event, []byte(`{"pull_request": {"number": 7, "head": {"sha": "`+strings.Repeat("1", 40)+`"}, "base": {"sha": "`+base+`"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(root, "action", "run.sh"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RETRYLINT="+binary, "GITHUB_EVENT_NAME=pull_request", "GITHUB_EVENT_PATH="+event,
		"GITHUB_REPOSITORY=acme/pay", "GITHUB_OUTPUT="+filepath.Join(tmp, "output"), "RUNNER_TEMP="+tmp,
		"GOWORK=off", "GOFLAGS=", "INPUT_COMMENT=false", "INPUT_CODE=./...")
	for k, v := range inputs {
		cmd.Env = append(cmd.Env, "INPUT_"+strings.ToUpper(strings.ReplaceAll(k, "-", "_"))+"="+v)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	var exit *exec.ExitError
	if err := cmd.Run(); err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	outputs, _ := os.ReadFile(filepath.Join(tmp, "output"))
	for line := range strings.Lines(string(outputs)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "exit-code="); ok {
			exitCode = v
		}
	}
	return out.String(), exitCode
}

// TestOnlyNewIssues: with only-new-issues on a pull request, the log
// annotates the finding the pull request adds and not main's, and the
// gate fails on it; without, both.
func TestOnlyNewIssues(t *testing.T) {
	repo, base := gitRepo(t, ".",
		map[string]string{"go.mod": "module example.com/pay\n\ngo 1.22\n", "old.go": retryGo("Old") + "\nfunc call() error { return nil }\n"},
		map[string]string{"new.go": retryGo("New")})
	log, code := runScript(t, repo, base, map[string]string{"only-new-issues": "true"})
	if code != "1" || !strings.Contains(log, "::error file=new.go,") || strings.Contains(log, "file=old.go") {
		t.Errorf("only-new-issues: exit-code %q, want 1 and new.go's findings alone:\n%s", code, log)
	}
	log, code = runScript(t, repo, base, map[string]string{"only-new-issues": "false"})
	if code != "1" || !strings.Contains(log, "::error file=new.go,") || !strings.Contains(log, "::error file=old.go,") {
		t.Errorf("only-new-issues false: exit-code %q, want 1 and both files' findings:\n%s", code, log)
	}
}

// TestOnlyNewIssuesNoneAdded: a pull request that adds no finding passes,
// though main has one.
func TestOnlyNewIssuesNoneAdded(t *testing.T) {
	repo, base := gitRepo(t, ".",
		map[string]string{"go.mod": "module example.com/pay\n\ngo 1.22\n", "old.go": retryGo("Old") + "\nfunc call() error { return nil }\n"},
		map[string]string{"README.md": "# pay\n"})
	log, code := runScript(t, repo, base, map[string]string{"only-new-issues": "true"})
	if code != "0" || strings.Contains(log, "::error") {
		t.Errorf("exit-code %q, want 0 and no annotation:\n%s", code, log)
	}
}

// TestWorkingDirectoryPaths: with working-directory services/api, the
// annotations name services/api/…, the file in the repository.
func TestWorkingDirectoryPaths(t *testing.T) {
	repo, base := gitRepo(t, "services/api",
		map[string]string{"go.mod": "module example.com/pay\n\ngo 1.22\n", "old.go": retryGo("Old") + "\nfunc call() error { return nil }\n"},
		map[string]string{"new.go": retryGo("New")})
	log, code := runScript(t, filepath.Join(repo, "services", "api"), base, map[string]string{"only-new-issues": "true"})
	if code != "1" || !strings.Contains(log, "::error file=services/api/new.go,") || strings.Contains(log, "file=new.go") || strings.Contains(log, "old.go") {
		t.Errorf("exit-code %q, want 1 and services/api/new.go's findings alone:\n%s", code, log)
	}
}
