package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/model"
)

// scenario is what testdata/topology/scenarios/*/expect.json says a run
// must give; EXPECT.md beside it derives the numbers by hand.
type scenario struct {
	Target        string                     `json:"target"`      // path in the directory to run on; "" = the directory
	Exit          int                        `json:"exit"`        // 0, 1 or 2
	ErrorRules    []string                   `json:"error_rules"` // rules that must have an error-severity finding
	AllowedErrors []string                   `json:"allowed_error_rules"`
	ErrorCount    *int                       `json:"error_count"`    // exact number of error findings, if given
	Required      []string                   `json:"required_rules"` // rules with a finding of any severity
	Forbidden     []string                   `json:"forbidden_rules"`
	Attempts      map[string]json.RawMessage `json:"attempts"`  // "root -> target": number or "unbounded"
	Estimates     map[string]string          `json:"estimates"` // "root -> target": text the estimate contains
	StderrRegex   string                     `json:"stderr_regex"`
	StdoutEmpty   bool                       `json:"stdout_empty"`
}

// TestScenarios replays pipelines written in real manifest formats — the
// seed's incidents and their fix, Eventarc → Workflows, the deleted raise,
// redelivery cycles, broken input, Terraform chains, timeouts, the other
// retry layers — and checks the exit code, the error-severity rules and the
// worst-case attempts that EXPECT.md works out by hand.
func TestScenarios(t *testing.T) {
	root := filepath.Join(repoRoot(t), "testdata", "topology", "scenarios")
	dirs, err := filepath.Glob(filepath.Join(root, "*", "expect.json"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no scenarios under %s: %v", root, err)
	}
	for _, exp := range dirs {
		dir := filepath.Dir(exp)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var want scenario
			data, err := os.ReadFile(exp)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("%s: %v", exp, err)
			}
			target := "."
			if want.Target != "" {
				target = want.Target
			}
			stdout, stderr, code := runCLI(t, dir, "--format", "json", target)
			checkScenario(t, want, stdout, stderr, code)
		})
	}
}

func checkScenario(t *testing.T, want scenario, stdout, stderr string, code int) {
	t.Helper()
	if code != want.Exit {
		t.Errorf("exit %d, want %d; stderr: %s", code, want.Exit, stderr)
	}
	if want.StdoutEmpty && stdout != "" {
		t.Errorf("stdout holds %d bytes, want nothing", len(stdout))
	}
	if want.StderrRegex != "" && !regexp.MustCompile(want.StderrRegex).MatchString(stderr) {
		t.Errorf("stderr %q does not match %s", stderr, want.StderrRegex)
	}
	if stdout == "" {
		return
	}
	var res model.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("stdout is not the JSON report: %v", err)
	}
	errorRules, present := map[string]bool{}, map[string]bool{}
	errors := 0
	for _, f := range res.Findings {
		present[f.Rule] = true
		if f.Severity == model.Error {
			errorRules[f.Rule] = true
			errors++
		}
	}
	for _, r := range want.ErrorRules {
		if !errorRules[r] {
			t.Errorf("no error-severity finding of %s", r)
		}
	}
	for r := range errorRules {
		if !slices.Contains(want.ErrorRules, r) && !slices.Contains(want.AllowedErrors, r) {
			t.Errorf("unexpected error-severity finding of %s", r)
		}
	}
	if want.ErrorCount != nil && errors != *want.ErrorCount {
		t.Errorf("%d error findings, want %d", errors, *want.ErrorCount)
	}
	for _, r := range want.Required {
		if !present[r] {
			t.Errorf("no finding of %s", r)
		}
	}
	for _, r := range want.Forbidden {
		if present[r] {
			t.Errorf("unexpected finding of %s", r)
		}
	}
	chains := map[string]model.Chain{}
	for _, c := range res.Chains {
		chains[c.Root+" -> "+c.Target] = c
	}
	for key, w := range want.Attempts {
		c, ok := chains[normalizeArrow(key)]
		if !ok {
			t.Errorf("no chain %s", key)
			continue
		}
		got := "unbounded"
		if !c.Unbounded && c.Attempts != nil {
			got = strconv.FormatInt(*c.Attempts, 10)
		}
		if want := strings.Trim(string(w), `"`); want != got {
			t.Errorf("%s: %s attempts (%s), want %s", key, got, c.Formula, want)
		}
	}
	for key, sub := range want.Estimates {
		if c := chains[normalizeArrow(key)]; !strings.Contains(c.Estimate, sub) {
			t.Errorf("%s: estimate %q does not contain %q", key, c.Estimate, sub)
		}
	}
}

func normalizeArrow(key string) string {
	parts := strings.SplitN(key, "->", 2)
	if len(parts) != 2 {
		return key
	}
	return strings.TrimSpace(parts[0]) + " -> " + strings.TrimSpace(parts[1])
}
