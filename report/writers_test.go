package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/retrylint/retrylint/internal/schematest"
	"github.com/retrylint/retrylint/internal/shareddata"
	"github.com/retrylint/retrylint/model"
)

func ptr[T any](v T) *T { return &v }

// edgy has the findings and chains that the writers must take care with:
// no file, no line, an end before the start, Markdown and HTML in
// messages, a rule outside the catalogue, a dead and an unbounded layer.
var edgy = &model.Result{
	Version: 1,
	Tool:    model.Tool{Name: "retrylint", Version: "v1.2.3"},
	Findings: []model.Finding{
		{Rule: "amplification", Severity: model.Warning, Message: "a *b* | <script>x</script> [link](http://x)", File: "dir with space/t.yaml", Line: 3, Column: 5, EndLine: 3, EndColumn: 2, Component: `quo"te`},
		{Rule: "job-max-retries", Severity: model.Error, Message: "maxRetries 3", File: "job.yaml", Line: 16, Column: 11, EndLine: 16, EndColumn: 21, Component: "job", Fix: "set maxRetries: 0"},
		{Rule: "custom-rule", Severity: model.Note, Message: "package-level", File: "pkg"},
		{Rule: "unresolved-reference", Severity: model.Warning, Message: "no file at all"},
	},
	Chains: []model.Chain{
		{Root: "push", Target: "push", Path: []string{"push"}, Factors: []model.Factor{}, Formula: "1", Attempts: ptr(int64(1))},
		{Root: "push", Target: "job", Path: []string{"push", "wf", "job"}, Formula: "∞",
			Unbounded: true, Estimate: "≈ 1,008 deliveries in 7 days",
			Factors: []model.Factor{
				{From: "push", To: "wf", Retries: nil, Effective: true, Attempts: nil},
				{From: "wf", To: "job", Retries: ptr(2), Effective: false, Attempts: ptr(1)},
			}},
	},
}

var catalogue = Rules{
	{ID: "amplification", Severity: model.Warning, Summary: "too many executions", HelpURI: "https://example.com/amplification.md"},
	{ID: "job-max-retries", Severity: model.Error, Summary: "a job retries", Help: "A job retries. It hurts.", HelpURI: "https://example.com/job-max-retries.md", Page: "# job-max-retries\n"},
	{ID: "unresolved-reference", Severity: model.Warning, Summary: "unknown reference", HelpURI: "https://example.com/unresolved-reference.md"},
}

func TestSARIFAgainstTheSchema(t *testing.T) {
	schema := schematest.CompileStrict(t, shareddata.Path(t, "schemas/sarif-schema-2.1.0.json"))
	for name, r := range map[string]*model.Result{"edge cases": edgy, "empty": {Version: 1, Tool: model.Tool{Name: "retrylint"}}} {
		var buf bytes.Buffer
		if err := WriteSARIF(&buf, r, SARIFOptions{Rules: catalogue}); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s: invalid SARIF: %v\n%s", name, err, buf.String())
		}
	}
}

func TestSARIFContent(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, edgy, SARIFOptions{Rules: catalogue}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID               string
						ShortDescription struct{ Text string }
						Help             *struct{ Markdown string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           *struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	rules := run.Tool.Driver.Rules
	if len(rules) != 4 || rules[3].ID != "custom-rule" {
		t.Fatalf("rules %+v: want the catalogue and custom-rule", rules)
	}
	if rules[0].ShortDescription.Text != "Too many executions." || rules[1].Help == nil {
		t.Errorf("rule metadata: %+v", rules[:2])
	}
	for _, res := range run.Results {
		if rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %s points at rule %d", res.RuleID, res.RuleIndex)
		}
	}
	amp := run.Results[0].Locations[0].PhysicalLocation
	if amp.ArtifactLocation.URI != "dir%20with%20space/t.yaml" || amp.Region.EndColumn != 0 {
		t.Errorf("location %+v: want an escaped URI and no end column before the start", amp)
	}
	if msg := run.Results[1].Message.Text; msg != "maxRetries 3. Fix: set maxRetries: 0" {
		t.Errorf("message %q: want the fix appended", msg)
	}
	if run.Results[2].Locations[0].PhysicalLocation.Region != nil || len(run.Results[3].Locations) != 0 {
		t.Error("a finding without a line has a region, or one without a file a location")
	}
}

func TestMarkdown(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, edgy, MarkdownOptions{Rules: catalogue, LinkBase: "https://github.com/o/r/blob/abc/"}); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"**❌ Fails:** 1 error, 2 warnings, 1 note (the gate fails on errors).",
		"### Event at `push`",
		`n0 ==>|"×∞ (unbounded)"| n1`,
		`n1 -.->|"dead: 2 retries never match"| n2`,
		"linkStyle 1 stroke:#6a737d",
		"class n2 failing",
		"| job | **unbounded** | `∞` (≈ 1,008 deliveries in 7 days) |  | push → wf → job |",
		"[`job.yaml:16`](https://github.com/o/r/blob/abc/job.yaml#L16)",
		"[`dir with space/t.yaml:3`](https://github.com/o/r/blob/abc/dir%20with%20space/t.yaml#L3)",
		`a \*b\* \| &lt;script&gt;x&lt;/script&gt; \[link\](http://x)`,
		"#### 🔴 [`job-max-retries`](https://example.com/job-max-retries.md) (1)",
		"**Fix:** set maxRetries: 0",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "<script>") {
		t.Error("HTML of a message reaches the report")
	}
}

func TestMarkdownFoldsLongLists(t *testing.T) {
	r := &model.Result{}
	for i := range 8 {
		r.Findings = append(r.Findings, model.Finding{Rule: "fixed-sleep", Severity: model.Error, File: "a.go", Line: i + 1, Message: "waits"})
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, r, MarkdownOptions{FailOn: "never"}); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	shown, folded, _ := strings.Cut(md, "<details><summary>3 more</summary>")
	if strings.Count(shown, "- `a.go:") != 5 || strings.Count(folded, "- `a.go:") != 3 || !strings.Contains(folded, "</details>") {
		t.Errorf("want 5 findings shown and 3 folded:\n%s", md)
	}
	if !strings.Contains(md, "**✅ Passes:** 8 errors (the gate never fails).") {
		t.Errorf("verdict with --fail-on never:\n%s", md)
	}
}

func TestMarkdownChanges(t *testing.T) {
	r := &model.Result{
		Findings: []model.Finding{{Rule: "job-max-retries", Severity: model.Error, File: "job.yaml", Line: 16, Message: "maxRetries 3"}},
		Changes: &model.Changes{Base: "origin/main",
			New: []model.Finding{{Rule: "job-max-retries", Severity: model.Error, File: "job.yaml", Line: 16, Message: "maxRetries 3"}},
			Attempts: []model.AttemptChange{{Component: "mapping-app",
				Before: &model.Worst{Attempts: ptr(int64(3)), Root: "wf", Formula: "(2+1) = 3"},
				After:  &model.Worst{Attempts: ptr(int64(12)), Root: "wf", Formula: "(2+1)×(3+1) = 12"}}},
		},
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### What changed against `origin/main`",
		"- **mapping-app: 3 → 12** — `(2+1)×(3+1) = 12` from wf",
		"New findings (1):\n\n- 🔴 `job-max-retries` `job.yaml:16`: maxRetries 3",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestDOT(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteDOT(&buf, edgy); err != nil {
		t.Fatal(err)
	}
	want := `digraph retrylint {
  rankdir=LR;
  node [shape=box, fontname="Helvetica"];
  edge [fontname="Helvetica"];
  "push" [label="push"];
  "wf" [label="wf"];
  "job" [label="job", color="#d73a49", fontcolor="#d73a49", penwidth=2];
  "push" -> "wf" [label="×∞ (unbounded)", penwidth=2];
  "wf" -> "job" [label="dead: 2 retries never match", style=dashed, color="#6a737d", fontcolor="#6a737d"];
}
`
	if buf.String() != want {
		t.Errorf("WriteDOT:\n%s\nwant:\n%s", buf.String(), want)
	}
	if got := dotQuote(`a"b\c`); got != `"a\"b\\c"` {
		t.Errorf("dotQuote = %s", got)
	}
}

func TestBaseline(t *testing.T) {
	fs := []model.Finding{
		{Rule: "fixed-sleep", File: "a.go", Line: 3, Message: "waits 1s"},
		{Rule: "no-cap", File: "a.go", Line: 9, Message: "grows"},
	}
	var buf bytes.Buffer
	if err := WriteBaseline(&buf, NewBaseline(fs[:1])); err != nil {
		t.Fatal(err)
	}
	b, err := ReadBaseline("baseline.json", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	kept, stale := b.Filter(fs)
	if len(stale) != 0 || len(kept) != 1 || kept[0].Rule != "no-cap" {
		t.Errorf("Filter: kept %+v, stale %+v", kept, stale)
	}
	for src, want := range map[string]string{
		"{\"version\": 1,\n  \"findings\": [}":                "baseline.json:2:16: invalid baseline",
		"{\"version\": 3, \"findings\": []}":                  "want \"version\": 2 (or 1)",
		"{\"version\": 1, \"extra\": true}":                   "unknown field",
		"{\"version\": 1, \"findings\": [{\"rule\": \"x\"}]}": "without a fingerprint",
		"{\"version\": 2, \"findings\": [{\"file\": \"x\"}]}": "without a rule",
	} {
		if _, err := ReadBaseline("baseline.json", []byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadBaseline(%q) = %v, want %q", src, err, want)
		}
	}
}

func TestMarkdownFitsInAComment(t *testing.T) {
	r := &model.Result{}
	for i := range 2000 {
		r.Findings = append(r.Findings, model.Finding{Rule: "fixed-sleep", Severity: model.Error, File: "a.go", Line: i + 1,
			Message: strings.Repeat("a long message ", 10)})
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if len(md) > 65536 {
		t.Errorf("the report has %d bytes, more than a GitHub comment holds", len(md))
	}
	if !strings.Contains(md, "findings are not listed") || !strings.Contains(md, "</details>") {
		t.Errorf("the cut is not said, or <details> is left open:\n%s", md[len(md)-500:])
	}
	if !strings.Contains(md, "**❌ Fails:** 2000 errors") {
		t.Error("the verdict does not count every finding")
	}
}

// TestMarkdownFactorOrigins: the table names where each factor that
// multiplies comes from, linked like a finding's place; the diagram puts
// it on the edge, one entry per nested loop of a call read from code.
func TestMarkdownFactorOrigins(t *testing.T) {
	two, three, four, twelve := 2, 3, 4, int64(36)
	r := &model.Result{Chains: []model.Chain{{Root: "wf", Target: "api", Path: []string{"wf", "app", "api"},
		Factors: []model.Factor{
			{From: "wf", To: "app", Retries: &two, Effective: true, Attempts: &three, File: "infra/wf.yaml", Line: 11},
			{From: "app", To: "api", Retries: &three, Effective: true, Attempts: &four, File: "app/retry.go", Line: 12},
			{From: "app", To: "api", Retries: &two, Effective: true, Attempts: &three, File: "app/client.go", Line: 19},
		},
		Formula: "(2+1)×(3+1)×(2+1) = 36", Attempts: &twelve}}}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, r, MarkdownOptions{LinkBase: "https://github.com/o/r/blob/abc"}); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"| api | **36** | `(2+1)×(3+1)×(2+1) = 36` | [`infra/wf.yaml:11`](https://github.com/o/r/blob/abc/infra/wf.yaml#L11) × [`app/retry.go:12`](https://github.com/o/r/blob/abc/app/retry.go#L12) × [`app/client.go:19`](https://github.com/o/r/blob/abc/app/client.go#L19) | wf → app → api |",
		`n0 ==>|"×3 (2 retries, wf.yaml:11)"| n1`,
		`n1 ==>|"×12 (3 retries, retry.go:12; 2 retries, client.go:19)"| n2`,
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
}

// TestMarkdownMarksAssumed: a component whose numbers rest on defaults is
// dashed in the diagram and marked in the table; a loaded one is not.
func TestMarkdownMarksAssumed(t *testing.T) {
	chain := func(target string, path ...string) model.Chain {
		return model.Chain{Root: "wf", Target: target, Path: path, Formula: "(3+1) = 4", Attempts: ptr(int64(4)),
			Factors: []model.Factor{{From: "wf", To: target, Retries: ptr(3), Effective: true, Attempts: ptr(4), File: "wf.yaml", Line: 3}}}
	}
	r := &model.Result{Version: 1, Chains: []model.Chain{
		{Root: "wf", Target: "wf", Path: []string{"wf"}, Formula: "1", Attempts: ptr(int64(1))},
		chain("job", "wf", "job"),
		chain("svc", "wf", "svc"),
	}, Assumed: []string{"job"}}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{"classDef assumed stroke-dasharray", "| job _(assumed)_ |", "Dashed outline"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "svc _(assumed)_") {
		t.Errorf("a loaded component is marked assumed:\n%s", md)
	}
	r.Assumed = nil
	b.Reset()
	if err := WriteMarkdown(&b, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "assumed") {
		t.Errorf("nothing is assumed, yet:\n%s", b.String())
	}
}
