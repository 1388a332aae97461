// Package action tests the GitHub Action's script, action/run.sh, with a
// fake gh (testdata/gh) and fake event files, on the repository's own
// examples.
package action

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// binary is the retrylint binary built by TestMain.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "retrylint-action-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binary = filepath.Join(dir, "retrylint")
	if out, err := exec.Command("go", "build", "-o", binary, "../cmd/retrylint").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building retrylint: %v\n%s", err, out)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runner is one simulated job: the fake gh's state and the runner's files.
type runner struct {
	t         *testing.T
	ghState   string
	temp      string
	retrylint string // the binary the step runs
}

func newRunner(t *testing.T) *runner {
	return &runner{t: t, ghState: t.TempDir(), temp: t.TempDir(), retrylint: binary}
}

// step is what one run of the script did.
type step struct {
	stdout, stderr string
	code           int
	outputs        map[string]string
}

// run runs action/run.sh from the repository root for event with the
// inputs, as the composite action's step does.
func (r *runner) run(event string, inputs map[string]string) step {
	r.t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		r.t.Fatal(err)
	}
	outputFile := filepath.Join(r.t.TempDir(), "output")
	cmd := exec.Command(filepath.Join(root, "action", "run.sh"))
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"RETRYLINT="+r.retrylint,
		"GH="+filepath.Join(root, "action", "testdata", "gh"),
		"GH_TOKEN=token",
		"FAKE_GH_STATE="+r.ghState,
		"GITHUB_EVENT_NAME="+event,
		"GITHUB_EVENT_PATH="+filepath.Join(root, "action", "testdata", event+".json"),
		"GITHUB_REPOSITORY=acme/payments",
		"GITHUB_SERVER_URL=https://github.com",
		"GITHUB_OUTPUT="+outputFile,
		"RUNNER_TEMP="+r.temp,
	)
	for k, v := range inputs {
		cmd.Env = append(cmd.Env, "INPUT_"+strings.ToUpper(strings.ReplaceAll(k, "-", "_"))+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		r.t.Fatal(err)
	}
	s := step{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode(), outputs: map[string]string{}}
	if b, err := os.ReadFile(outputFile); err == nil {
		for line := range strings.Lines(string(b)) {
			k, v, _ := strings.Cut(strings.TrimSpace(line), "=")
			s.outputs[k] = v
		}
	}
	return s
}

// comments are the comments on the fake pull request, by id.
func (r *runner) comments() map[string]string {
	r.t.Helper()
	out := map[string]string{}
	entries, _ := os.ReadDir(filepath.Join(r.ghState, "comments"))
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(r.ghState, "comments", e.Name()))
		if err != nil {
			r.t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// calls are the fake gh's calls, one a line.
func (r *runner) calls() []string {
	b, _ := os.ReadFile(filepath.Join(r.ghState, "calls"))
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

const marker = "<!-- retrylint-report:default -->\n"

// TestPostsThenUpdatesOneComment is the pull request's life: the first
// push posts the report, a later push updates the same comment, and a
// comment of someone else stays as it was.
func TestPostsThenUpdatesOneComment(t *testing.T) {
	r := newRunner(t)
	if err := os.MkdirAll(filepath.Join(r.ghState, "comments"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := "Looks good, but see the retry loop.\n<!-- retrylint-report:default -->\n"
	if err := os.WriteFile(filepath.Join(r.ghState, "comments", "1000"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}

	first := r.run("pull_request", map[string]string{"code": "./examples/payment"})
	if first.code != 0 || first.outputs["exit-code"] != "1" {
		t.Fatalf("first run: exit %d, exit-code output %q; stderr:\n%s", first.code, first.outputs["exit-code"], first.stderr)
	}
	if !strings.Contains(first.stdout, "::error file=examples/payment/payment.go,line=63,col=2,") {
		t.Errorf("no annotation on the payment client in the log:\n%s", first.stdout)
	}
	if !strings.Contains(first.stdout, "posted the report comment on pull request #42") {
		t.Errorf("stdout does not say it posted:\n%s", first.stdout)
	}
	comments := r.comments()
	if len(comments) != 2 || comments["1000"] != other {
		t.Fatalf("after the first run: %d comments, the other one %q", len(comments), comments["1000"])
	}
	posted := comments["1001"]
	if !strings.HasPrefix(posted, marker) || !strings.Contains(posted, "**❌ Fails:** 7 errors") ||
		!strings.Contains(posted, "https://github.com/acme/payments/blob/0123456789abcdef0123456789abcdef01234567/examples/payment/payment.go#L63") {
		t.Errorf("the posted comment:\n%s", posted)
	}
	if first.outputs["report"] == "" {
		t.Error("no report output")
	}

	second := r.run("pull_request", map[string]string{"code": "./examples/payment/fixed"})
	if second.code != 0 || second.outputs["exit-code"] != "0" {
		t.Fatalf("second run: exit %d, exit-code output %q; stderr:\n%s", second.code, second.outputs["exit-code"], second.stderr)
	}
	comments = r.comments()
	if len(comments) != 2 || comments["1000"] != other {
		t.Fatalf("after the second run: %d comments, want the same 2; the other one %q", len(comments), comments["1000"])
	}
	if updated := comments["1001"]; !strings.HasPrefix(updated, marker) || !strings.Contains(updated, "**✅ Passes:** no findings") {
		t.Errorf("the updated comment:\n%s", updated)
	}
	calls := r.calls()
	posts := slices.IndexFunc(calls, func(c string) bool { return strings.HasPrefix(c, "api --method POST ") })
	patch := slices.IndexFunc(calls, func(c string) bool {
		return c == "api --method PATCH repos/acme/payments/issues/comments/1001 -F body=@"+second.outputs["report"]
	})
	if posts < 0 || patch < posts || strings.Count(strings.Join(calls, "\n"), "--method POST") != 1 {
		t.Errorf("gh calls, want one POST then one PATCH of comment 1001:\n%s", strings.Join(calls, "\n"))
	}
}

// TestCommentKeys keeps the comments of two jobs apart.
func TestCommentKeys(t *testing.T) {
	r := newRunner(t)
	r.run("pull_request", map[string]string{"code": "./examples/payment"})
	r.run("pull_request", map[string]string{"code": "", "topology": "examples/topology/incident1", "comment-key": "infra"})
	r.run("pull_request", map[string]string{"code": "", "topology": "examples/topology/incident1", "comment-key": "infra"})
	comments := r.comments()
	if len(comments) != 2 {
		t.Fatalf("%d comments, want one per key", len(comments))
	}
	if !strings.HasPrefix(comments["1002"], "<!-- retrylint-report:infra -->\n") || !strings.Contains(comments["1002"], "mapping-job") {
		t.Errorf("the infra comment:\n%s", comments["1002"])
	}
}

// TestPushPostsNothing runs on a push: annotations, no comment.
func TestPushPostsNothing(t *testing.T) {
	r := newRunner(t)
	s := r.run("push", map[string]string{"code": "./examples/payment"})
	if s.code != 0 || s.outputs["exit-code"] != "1" || !strings.Contains(s.stdout, "::error file=") {
		t.Errorf("exit %d, exit-code %q, stdout:\n%s", s.code, s.outputs["exit-code"], s.stdout)
	}
	if _, err := os.Stat(filepath.Join(r.ghState, "calls")); err == nil {
		t.Errorf("gh called on a push: %v", r.calls())
	}
}

// TestFailedRunPostsNothing gives a path that does not exist: exit-code
// 2, the error in the log, and no comment with a half report.
func TestFailedRunPostsNothing(t *testing.T) {
	r := newRunner(t)
	s := r.run("pull_request", map[string]string{"code": "", "topology": "no/such/dir"})
	if s.code != 0 || s.outputs["exit-code"] != "2" || !strings.Contains(s.stdout, "::error title=retrylint::the run failed") {
		t.Errorf("exit %d, exit-code %q, stdout:\n%s\nstderr:\n%s", s.code, s.outputs["exit-code"], s.stdout, s.stderr)
	}
	if !strings.Contains(s.stderr, "no/such/dir") {
		t.Errorf("stderr does not name the path:\n%s", s.stderr)
	}
	if len(r.comments()) != 0 {
		t.Error("a failed run posted a comment")
	}
}

// TestSARIFForCodeScanning writes the SARIF report and names it in the
// step's outputs, whatever the gate says.
func TestSARIFForCodeScanning(t *testing.T) {
	r := newRunner(t)
	s := r.run("push", map[string]string{"code": "./examples/payment", "upload-sarif": "true", "format": "codeclimate"})
	if s.outputs["exit-code"] != "1" || !strings.Contains(s.stdout, `"check_name": "unclassified-retry"`) {
		t.Errorf("exit-code %q, stdout:\n%s", s.outputs["exit-code"], s.stdout)
	}
	b, err := os.ReadFile(s.outputs["sarif"])
	if err != nil {
		t.Fatalf("the sarif output: %v", err)
	}
	if !strings.Contains(string(b), `"version": "2.1.0"`) || !strings.Contains(string(b), `"ruleId": "fixed-sleep"`) {
		t.Errorf("not the SARIF report:\n%.400s", b)
	}
}

// TestReadOnlyTokenWarns is a pull request from a fork: its token cannot
// comment, so the step warns and the gate is retrylint's alone.
func TestReadOnlyTokenWarns(t *testing.T) {
	r := newRunner(t)
	t.Setenv("FAKE_GH_READ_ONLY", "1")
	s := r.run("pull_request", map[string]string{"code": "./examples/payment"})
	if s.code != 0 || s.outputs["exit-code"] != "1" {
		t.Fatalf("exit %d, exit-code %q; stderr:\n%s", s.code, s.outputs["exit-code"], s.stderr)
	}
	if !strings.Contains(s.stdout, "::warning title=retrylint::could not post the report comment on pull request #42") {
		t.Errorf("no warning in the log:\n%s", s.stdout)
	}
	if len(r.comments()) != 0 {
		t.Error("a comment was posted with a read-only token")
	}
}
