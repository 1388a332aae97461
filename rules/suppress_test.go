package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/suppress"
	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

// jobWith is a Cloud Run job whose maxRetries (job-max-retries fires on
// it) has the comment line above it.
func jobWith(comment string) string {
	return `apiVersion: run.googleapis.com/v1
kind: Job
metadata:
  name: job
spec:
  template:
    spec:
      template:
        spec:
          ` + comment + `
          maxRetries: 1
`
}

// runBytes loads one file from memory and runs the rules over it.
func runBytes(t *testing.T, name, src string) []model.Finding {
	t.Helper()
	g, err := topology.LoadBytes(name, []byte(src), topology.Options{})
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	findings, _ := Run(g, Options{})
	return findings
}

// TestInvalidSuppressionMessages: every bad `# retrylint:ignore` — a
// misspelt rule, a code rule, no reason, no rule, a misspelt keyword, a
// space after a comma — is reported at the directive with what is wrong
// and what to write, and suppresses nothing; a valid one suppresses.
func TestInvalidSuppressionMessages(t *testing.T) {
	for _, tc := range []struct {
		comment string
		want    []string // parts of the message; none: no finding
	}{
		{"# retrylint:ignore job-max-retrys the task is idempotent", []string{`"job-max-retrys" is no rule (did you mean job-max-retries?)`}},
		{"# retrylint:ignore fixed-sleep the task is idempotent", []string{`"fixed-sleep" is a code rule`}},
		{"# retrylint:ignore job-max-retries", []string{"gives no reason", "# retrylint:ignore job-max-retries REASON"}},
		{"# retrylint:ignore", []string{"names no rule", "gives no reason"}},
		{"# retrylint:ignore: job-max-retries the task is idempotent", []string{`"retrylint:ignore:"`, "# retrylint:ignore RULE REASON"}},
		{"# retrylint-ignore job-max-retries the task is idempotent", []string{`"retrylint-ignore"`}},
		{"# Retrylint:ignore job-max-retries the task is idempotent", []string{`"Retrylint:ignore"`}},
		{"# retrylint:ignore job-max-retries, retry-non-idempotent the task is idempotent", []string{`"job-max-retries,"`, "no space after a comma"}},
		{"# retrylint:ignore job-max-retries the task is idempotent", nil},
		{"# retrylint:ignore job-max-retries,retry-non-idempotent the task is idempotent", nil},
		{"# retrylint ignores nothing here; a remark", nil},
		{"# a remark", nil},
	} {
		t.Run(tc.comment, func(t *testing.T) {
			findings := runBytes(t, "job.yaml", jobWith(tc.comment))
			var bad []model.Finding
			suppressed := true
			for _, f := range findings {
				switch f.Rule {
				case "invalid-suppression":
					bad = append(bad, f)
				case "job-max-retries":
					suppressed = false
				}
			}
			if tc.want == nil {
				if len(bad) > 0 {
					t.Errorf("findings %v, want no invalid-suppression", bad)
				}
				if strings.Contains(tc.comment, "retrylint:ignore") && !suppressed {
					t.Errorf("job-max-retries reported under a valid directive")
				}
				return
			}
			if len(bad) != 1 || bad[0].Line != 10 || bad[0].Column != 11 {
				t.Fatalf("findings %v, want one invalid-suppression at job.yaml:10:11", findings)
			}
			for _, part := range tc.want {
				if !strings.Contains(bad[0].Message, part) {
					t.Errorf("message %q, want it to say %q", bad[0].Message, part)
				}
			}
			if suppressed {
				t.Errorf("job-max-retries suppressed by a bad directive")
			}
		})
	}
}

// TestInvalidSuppressionHCL: the directives of Terraform files are read
// as those of YAML, in either HCL comment style.
func TestInvalidSuppressionHCL(t *testing.T) {
	tf := func(comment string) string {
		return fmt.Sprintf(`resource "google_pubsub_subscription" "orders" {
  %s
  name  = "orders"
  topic = "orders"
  push_config {
    push_endpoint = "https://orders.example.com/push"
  }
}
`, comment)
	}
	for _, tc := range []struct {
		comment string
		bad     bool
	}{
		{"# retrylint:ignore unbounded-redelivery the handler drops what it cannot parse", false},
		{"// retrylint:ignore unbounded-redelivery the handler drops what it cannot parse", false},
		{"# retrylint:ignore unbounded-redelivry the handler drops what it cannot parse", true},
		{"// retrylint:ignore unbounded-redelivery", true},
	} {
		findings := runBytes(t, "main.tf", tf(tc.comment))
		var bad []string
		suppressed := true
		for _, f := range findings {
			switch f.Rule {
			case "invalid-suppression":
				bad = append(bad, fmt.Sprintf("%s:%d:%d: %s", f.File, f.Line, f.Column, f.Message))
			case "unbounded-redelivery":
				suppressed = false
			}
		}
		if tc.bad != (len(bad) == 1) || len(bad) > 1 || len(bad) == 1 && !strings.HasPrefix(bad[0], "main.tf:2:3: ") {
			t.Errorf("%s: invalid-suppression findings %q, want %d at main.tf:2:3", tc.comment, bad, map[bool]int{true: 1}[tc.bad])
		}
		if suppressed == tc.bad {
			t.Errorf("%s: unbounded-redelivery suppressed = %v, want %v", tc.comment, suppressed, !tc.bad)
		}
	}
}

// TestDirectivesKnowEveryTopologyRule: the rule names a `# retrylint:ignore`
// may use are exactly the registry's, so that a new rule is not reported
// as unknown and a removed one is.
func TestDirectivesKnowEveryTopologyRule(t *testing.T) {
	var ids []string
	for _, info := range Catalog() {
		ids = append(ids, info.ID)
	}
	if !slices.Equal(suppress.TopologyRules, ids) {
		t.Errorf("suppress.TopologyRules = %v, registry = %v", suppress.TopologyRules, ids)
	}
}
