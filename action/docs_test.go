package action

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// yamlBlocks are the ```yaml blocks of docs/ci.md.
func yamlBlocks(t *testing.T) []string {
	t.Helper()
	page, err := os.ReadFile("../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(page), -1) {
		out = append(out, m[1])
	}
	return out
}

// TestDocumentedWorkflowUsesTheInputs checks the page's workflow against
// action.yml: every input it gives exists, and the table lists every
// input.
func TestDocumentedWorkflowUsesTheInputs(t *testing.T) {
	b, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]any `yaml:"inputs"`
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile("../docs/ci.md")
	for name := range action.Inputs {
		if !strings.Contains(string(page), "| `"+name+"` |") {
			t.Errorf("docs/ci.md's table has no row for input %s", name)
		}
	}
	found := false
	for _, block := range yamlBlocks(t) {
		var wf struct {
			Jobs map[string]struct {
				Steps []struct {
					Uses string         `yaml:"uses"`
					With map[string]any `yaml:"with"`
				} `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if yaml.Unmarshal([]byte(block), &wf) != nil {
			continue
		}
		for _, job := range wf.Jobs {
			for _, s := range job.Steps {
				// The action from a clone in the workspace, or pinned.
				if !strings.HasPrefix(s.Uses, "./") && !strings.HasPrefix(s.Uses, "retrylint/retrylint@") {
					continue
				}
				found = true
				for k := range s.With {
					if _, ok := action.Inputs[k]; !ok {
						t.Errorf("the documented workflow gives input %q, which action.yml does not declare", k)
					}
				}
			}
		}
	}
	if !found {
		t.Error("docs/ci.md shows no workflow that uses the action")
	}
}

// TestDocumentedGitLabJob runs the retrylint command of the page's
// .gitlab-ci.yml job on this repository's examples and checks that it
// writes the file the job hands to GitLab as its Code Quality report.
func TestDocumentedGitLabJob(t *testing.T) {
	var job struct {
		Script    []string `yaml:"script"`
		Artifacts struct {
			When    string `yaml:"when"`
			Reports struct {
				CodeQuality string `yaml:"codequality"`
			} `yaml:"reports"`
		} `yaml:"artifacts"`
	}
	for _, block := range yamlBlocks(t) {
		var doc map[string]yaml.Node
		if yaml.Unmarshal([]byte(block), &doc) != nil {
			continue
		}
		if n, ok := doc["retrylint"]; ok && strings.Contains(block, "codequality") {
			if err := n.Decode(&job); err != nil {
				t.Fatal(err)
			}
		}
	}
	report := job.Artifacts.Reports.CodeQuality
	if report == "" || job.Artifacts.When != "always" {
		t.Fatalf("no retrylint job with a codequality report written always: %+v", job)
	}
	var command string
	for _, line := range job.Script {
		if strings.HasPrefix(line, "retrylint report") {
			command = line
		}
	}
	if !strings.Contains(command, "--format codeclimate -o "+report) {
		t.Fatalf("the job's command %q does not write %s", command, report)
	}
	// The repository's own examples stand for ./... and infra/.
	command = strings.NewReplacer("./...", "./examples/payment", "infra/", "examples/topology/incident1", "retrylint report", "report").Replace(command)
	command, _, _ = strings.Cut(command, " || ")
	dir := t.TempDir()
	args := strings.Fields(command)
	for i, a := range args {
		if a == report {
			args[i] = filepath.Join(dir, report)
		}
	}
	cmd := exec.Command(binary, args...)
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("%s: exit %d (%v), want 1\n%s", command, code, err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, report))
	if err != nil {
		t.Fatalf("the job's report was not written: %v", err)
	}
	for _, want := range []string{`"check_name": "fixed-sleep"`, `"check_name": "job-max-retries"`, `"fingerprint": "`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the Code Quality report lacks %s", want)
		}
	}
}

// TestDocumentedAnnotation is the page's example annotation, as
// retrylint writes it for the payment client.
func TestDocumentedAnnotation(t *testing.T) {
	page, _ := os.ReadFile("../docs/ci.md")
	_, after, _ := strings.Cut(string(page), "```text\n")
	example, _, _ := strings.Cut(after, "…")
	cmd := exec.Command(binary, "code", "--format", "github", "./examples/payment")
	cmd.Dir = ".."
	out, _ := cmd.Output()
	if example == "" || !strings.Contains(string(out), example) {
		t.Errorf("docs/ci.md shows %q, retrylint prints\n%s", example, out)
	}
}
