package action

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// countingRetrylint is a stand-in for retrylint that logs each call to
// the returned file, one a line, and runs the real binary.
func countingRetrylint(t *testing.T) (bin, calls string) {
	t.Helper()
	dir := t.TempDir()
	bin, calls = filepath.Join(dir, "retrylint"), filepath.Join(dir, "calls")
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >>'" + calls + "'\nexec '" + binary + "' \"$@\"\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, calls
}

// TestOneAnalysisWritesEveryReport is a pull request with every report
// asked for: the annotations in the log, SARIF for code scanning and the
// Markdown comment all come from one run of retrylint.
func TestOneAnalysisWritesEveryReport(t *testing.T) {
	r := newRunner(t)
	bin, calls := countingRetrylint(t)
	r.retrylint = bin
	s := r.run("pull_request", map[string]string{"code": "./examples/payment", "upload-sarif": "true"})
	if s.code != 0 || s.outputs["exit-code"] != "1" {
		t.Fatalf("exit %d, exit-code %q; stderr:\n%s", s.code, s.outputs["exit-code"], s.stderr)
	}
	b, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	if runs := strings.Split(strings.TrimSpace(string(b)), "\n"); len(runs) != 1 {
		t.Errorf("retrylint ran %d times, want once:\n%s", len(runs), b)
	}
	if !strings.Contains(s.stdout, "::error file=examples/payment/payment.go,line=63,col=2,") {
		t.Errorf("no annotation in the log:\n%s", s.stdout)
	}
	sarif, err := os.ReadFile(s.outputs["sarif"])
	if err != nil || !strings.Contains(string(sarif), `"ruleId": "fixed-sleep"`) {
		t.Errorf("the sarif output %q: %v\n%.300s", s.outputs["sarif"], err, sarif)
	}
	comments := r.comments()
	var comment string
	for _, c := range comments {
		comment = c
	}
	if len(comments) != 1 || !strings.Contains(comment, "**❌ Fails:** 7 errors") ||
		!strings.Contains(comment, "https://github.com/acme/payments/blob/0123456789abcdef0123456789abcdef01234567/examples/payment/payment.go#L63") {
		t.Errorf("%d comments, want one from the same run:\n%s", len(comments), comment)
	}
}

// TestSARIFCategoryFollowsCommentKey keeps the code-scanning analyses of
// two jobs apart, as their comments are: the default key keeps the
// category "retrylint".
func TestSARIFCategoryFollowsCommentKey(t *testing.T) {
	r := newRunner(t)
	for key, want := range map[string]string{"default": "retrylint", "infra": "retrylint/infra"} {
		s := r.run("push", map[string]string{"code": "", "topology": "examples/topology/incident1", "upload-sarif": "true", "comment-key": key})
		if got := s.outputs["sarif-category"]; got != want {
			t.Errorf("comment-key %s: sarif-category %q, want %q", key, got, want)
		}
	}
	steps := actionSteps(t)
	for _, st := range steps {
		if strings.Contains(st.Uses, "upload-sarif") && st.With["category"] != "${{ steps.run.outputs.sarif-category }}" {
			t.Errorf("upload-sarif's category is %q, want the run step's sarif-category", st.With["category"])
		}
	}
}

// ymlStep is a step of action.yml with the comment after its uses:.
type ymlStep struct {
	ID          string            `yaml:"id"`
	If          string            `yaml:"if"`
	Uses        string            `yaml:"uses"`
	With        map[string]string `yaml:"with"`
	Env         map[string]string `yaml:"env"`
	Run         string            `yaml:"run"`
	UsesComment string            `yaml:"-"`
}

// actionSteps are the steps of action.yml.
func actionSteps(t *testing.T) []ymlStep {
	t.Helper()
	b, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs struct {
			Steps []yaml.Node `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var out []ymlStep
	for _, n := range doc.Runs.Steps {
		var s ymlStep
		if err := n.Decode(&s); err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "uses" {
				s.UsesComment = n.Content[i+1].LineComment
			}
		}
		out = append(out, s)
	}
	return out
}

// TestActionsPinnedByCommit: every action the composite action uses is
// pinned by a full commit SHA, with its version in a comment, and code
// scanning's upload is v4 (v3 is deprecated).
func TestActionsPinnedByCommit(t *testing.T) {
	pinned := regexp.MustCompile(`^[\w.-]+/[\w.-]+(/[\w.-]+)*@[0-9a-f]{40}$`)
	version := regexp.MustCompile(`^# v\d+\.\d+\.\d+$`)
	uses := 0
	for _, s := range actionSteps(t) {
		if s.Uses == "" {
			continue
		}
		uses++
		if !pinned.MatchString(s.Uses) || !version.MatchString(s.UsesComment) {
			t.Errorf("uses: %s %s: want OWNER/REPO@<40-hex commit> # vX.Y.Z", s.Uses, s.UsesComment)
		}
		if strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@") && !strings.HasPrefix(s.UsesComment, "# v4.") {
			t.Errorf("upload-sarif is %s, want v4", s.UsesComment)
		}
	}
	if uses < 3 {
		t.Errorf("%d actions used, want setup-go, cache and upload-sarif", uses)
	}
}
