package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/retrylint/retrylint/internal/shareddata"
	"github.com/retrylint/retrylint/model"
)

// twoEnvironments is one design in two environments, stg and prod, whose
// components have the same names; prod's job retries more. A third
// pipeline's name has what DOT and Markdown must escape.
func twoEnvironments() *model.Result {
	r := &model.Result{Version: 1, Tool: model.Tool{Name: "retrylint"}}
	for _, env := range []struct {
		name    string
		retries int
	}{{"envs/prod", 3}, {"envs/stg", 1}, {`odd "dir"|x`, 0}} {
		n := int64(env.retries + 1)
		r.Chains = append(r.Chains,
			model.Chain{Root: "wf", Target: "wf", Path: []string{"wf"}, Factors: []model.Factor{}, Formula: "1", Attempts: ptr(int64(1)), Pipeline: env.name},
			model.Chain{Root: "wf", Target: "job", Path: []string{"wf", "job"}, Formula: fmt.Sprintf("(%d+1) = %d", env.retries, n), Attempts: &n, Pipeline: env.name,
				Factors: []model.Factor{{From: "wf", To: "job", Retries: ptr(env.retries), Effective: true, Attempts: ptr(int(n)), File: env.name + "/job.yaml", Line: 16}}})
		if env.retries > 0 {
			r.Findings = append(r.Findings, model.Finding{Rule: "job-max-retries", Severity: model.Error, Message: fmt.Sprintf("maxRetries %d", env.retries),
				File: env.name + "/job.yaml", Line: 16, Column: 11, Component: "job", Pipeline: env.name})
		}
	}
	r.Sort()
	return r
}

func TestSARIFNamesThePipeline(t *testing.T) {
	shareddata.Path(t, "schemas/sarif-schema-2.1.0.json")
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, twoEnvironments(), SARIFOptions{Rules: catalogue}); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := officialSARIFSchema().Validate(inst); err != nil {
		t.Errorf("invalid SARIF: %v\n%s", err, buf.String())
	}
	var log struct {
		Runs []struct {
			Results []struct {
				PartialFingerprints map[string]string
				Properties          map[string]string
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want one for every pipeline", len(log.Runs))
	}
	var got []string
	for _, res := range log.Runs[0].Results {
		got = append(got, res.Properties["pipeline"]+" "+res.Properties["component"])
	}
	if want := []string{"envs/prod job", "envs/stg job"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("results' pipeline and component properties %q, want %q", got, want)
	}
}

func TestMarkdownGroupsPipelines(t *testing.T) {
	r := twoEnvironments()
	r.Changes = &model.Changes{Base: "main", Attempts: []model.AttemptChange{
		{Component: "job", Pipeline: "envs/prod", Before: &model.Worst{Attempts: ptr(int64(2))}, After: &model.Worst{Attempts: ptr(int64(4)), Formula: "(3+1) = 4", Root: "wf"}},
	}}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, r, MarkdownOptions{Rules: catalogue}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	// In order: the change naming its pipeline, then each pipeline with
	// its events and its findings.
	at := 0
	for _, want := range []string{
		"- **job: 2 → 4** in `envs/prod` — `(3+1) = 4` from wf\n",
		"### Pipeline `envs/prod`\n",
		"#### Event at `wf`\n", "```mermaid\n", "| job | **4** | `(3+1) = 4` | `envs/prod/job.yaml:16` | wf → job |\n",
		"#### Findings\n", "##### 🔴 [`job-max-retries`]", "- `envs/prod/job.yaml:16`: maxRetries 3\n",
		"### Pipeline `envs/stg`\n",
		"#### Event at `wf`\n", "| job | **2** | `(1+1) = 2` | `envs/stg/job.yaml:16` | wf → job |\n",
		"#### Findings\n", "- `envs/stg/job.yaml:16`: maxRetries 1\n",
		"### Pipeline `odd \"dir\"\\|x`\n", "#### Event at `wf`\n",
	} {
		i := strings.Index(out[at:], want)
		if i < 0 {
			t.Fatalf("the report lacks %q after byte %d:\n%s", want, at, out)
		}
		at += i + len(want)
	}
	if strings.Contains(out, "\n### Event at") || strings.Contains(out, "\n### Findings") {
		t.Errorf("an event or the findings outside their pipeline:\n%s", out)
	}
	if n := strings.Count(out, "### Pipeline"); n != 3 {
		t.Errorf("%d pipeline headings, want 3", n)
	}

	// Without pipelines named, the report is the same as ever: no
	// pipeline heading.
	for i := range r.Chains {
		r.Chains[i].Pipeline = ""
	}
	for i := range r.Findings {
		r.Findings[i].Pipeline = ""
	}
	r.Changes.Attempts[0].Pipeline = ""
	buf.Reset()
	if err := WriteMarkdown(&buf, r, MarkdownOptions{Rules: catalogue}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "Pipeline") || !strings.Contains(buf.String(), "- **job: 2 → 4** — `(3+1) = 4` from wf\n") {
		t.Errorf("one pipeline's report names pipelines:\n%s", buf.String())
	}
}

// TestMarkdownPipelinesFitAPullRequestComment: many pipelines of a large
// monorepo share the size of one comment, each fenced diagram and fold
// whole, and every pipeline keeps a heading while there is room.
func TestMarkdownPipelinesFitAPullRequestComment(t *testing.T) {
	r := hugeResult()
	for i := range r.Chains {
		r.Chains[i].Pipeline = fmt.Sprintf("envs/env-%d", i%5)
	}
	for i := range r.Findings {
		r.Findings[i].Pipeline = fmt.Sprintf("envs/env-%d", i%5)
	}
	r.Sort()
	var b bytes.Buffer
	if err := WriteMarkdown(&b, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	checkCommentSize(t, out)
	for i := range 5 {
		head := fmt.Sprintf("### Pipeline `envs/env-%d`\n", i)
		j := strings.Index(out, head)
		if j < 0 {
			t.Errorf("report lacks %q", head)
			continue
		}
		rest := out[j+len(head):]
		if k := strings.Index(rest, "### Pipeline"); k >= 0 {
			rest = rest[:k]
		}
		for _, want := range []string{"#### Event at", "##### "} {
			if !strings.Contains(rest, want) {
				t.Errorf("pipeline %d has no %q: its room went to the others", i, want)
			}
		}
	}
	for _, want := range []string{"not listed", "more events are not shown"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestDOTClustersPipelines(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteDOT(&buf, twoEnvironments()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"  subgraph cluster_0 {\n    label=\"envs/prod\";\n    \"0/wf\" [label=\"wf\"];\n    \"0/job\" [label=\"job\", color=\"#d73a49\", fontcolor=\"#d73a49\", penwidth=2];\n    \"0/wf\" -> \"0/job\" [label=\"×4 (3 retries)\", penwidth=2];\n  }\n",
		"  subgraph cluster_1 {\n    label=\"envs/stg\";\n",
		"    \"1/wf\" -> \"1/job\" [label=\"×2 (1 retry)\", penwidth=2];\n",
		"  subgraph cluster_2 {\n    label=\"odd \\\"dir\\\"|x\";\n    \"2/wf\" [label=\"wf\"];\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("DOT lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "{") != strings.Count(out, "}") || strings.Count(out, "subgraph") != 3 {
		t.Errorf("want three closed clusters:\n%s", out)
	}
}
