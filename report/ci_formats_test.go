package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/retrylint/retrylint/internal/schematest"
	"github.com/retrylint/retrylint/model"
)

func TestGitHubAnnotations(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, edgy); err != nil {
		t.Fatal(err)
	}
	want := []string{
		// the end column lies before the start: left out, as SARIF does
		"::warning file=dir with space/t.yaml,line=3,col=5,endLine=3,title=retrylint amplification::a *b* | <script>x</script> [link](http://x)",
		"::error file=job.yaml,line=16,col=11,endLine=16,endColumn=21,title=retrylint job-max-retries::maxRetries 3. Fix: set maxRetries: 0",
		"::notice file=pkg,title=retrylint custom-rule::package-level",
		"::warning title=retrylint unresolved-reference::no file at all",
	}
	if got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestGitHubEscapes checks that no message or path can end a workflow
// command early or start a second one on a new line.
func TestGitHubEscapes(t *testing.T) {
	r := &model.Result{Findings: []model.Finding{{
		Rule: "fixed-sleep", Severity: model.Error, File: "a,b:c%.go", Line: 1,
		Message: "100% of calls\nfail::error::injected\r",
	}}}
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, r); err != nil {
		t.Fatal(err)
	}
	// no end line: endLine is left out, not 0
	want := "::error file=a%2Cb%3Ac%25.go,line=1,title=retrylint fixed-sleep::100%25 of calls%0Afail::error::injected%0D\n"
	if buf.String() != want {
		t.Errorf("got  %q\nwant %q", buf.String(), want)
	}
	if strings.Count(buf.String(), "\n") != 1 {
		t.Errorf("one finding gave %d lines", strings.Count(buf.String(), "\n"))
	}
}

func TestGitHubNoFindings(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, &model.Result{}); err != nil || buf.Len() != 0 {
		t.Errorf("no findings wrote %q (%v), want nothing", buf.String(), err)
	}
}

// codeClimateSchema compiles the fields GitLab's Code Quality reads.
func codeClimateSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return schematest.Compile(t, "../testdata/report/codeclimate.schema.json")
}

func TestCodeClimateValidates(t *testing.T) {
	schema := codeClimateSchema(t)
	for name, r := range map[string]*model.Result{"edge cases": edgy, "empty": {}} {
		var buf bytes.Buffer
		if err := WriteCodeClimate(&buf, r); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s: not a Code Quality report: %v\n%s", name, err, buf.String())
		}
	}
}

// TestCodeClimateSchemaRejects keeps the schema honest: it must refuse
// issues that GitLab would not show.
func TestCodeClimateSchemaRejects(t *testing.T) {
	schema := codeClimateSchema(t)
	for _, bad := range []string{
		`{}`,
		`[{"type":"issue","description":"d","check_name":"c","fingerprint":"f","severity":"error","location":{"path":"a.go","lines":{"begin":1}}}]`,
		`[{"type":"issue","description":"d","check_name":"c","fingerprint":"f","severity":"major","location":{"path":"a.go","lines":{"begin":0}}}]`,
		`[{"type":"issue","description":"d","check_name":"c","severity":"major","location":{"path":"a.go","lines":{"begin":1}}}]`,
		`[{"type":"issue","description":"d","check_name":"c","fingerprint":"f","severity":"major","location":{"path":"./a.go","lines":{"begin":1}}}]`,
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if schema.Validate(inst) == nil {
			t.Errorf("schema accepts %s", bad)
		}
	}
}

func TestCodeClimateContent(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCodeClimate(&buf, edgy); err != nil {
		t.Fatal(err)
	}
	var issues []codeClimateIssue
	if err := json.Unmarshal(buf.Bytes(), &issues); err != nil {
		t.Fatal(err)
	}
	if len(issues) != len(edgy.Findings) {
		t.Fatalf("%d issues for %d findings", len(issues), len(edgy.Findings))
	}
	job := issues[1]
	if job.CheckName != "job-max-retries" || job.Severity != "major" || job.Location.Path != "job.yaml" || job.Location.Lines.Begin != 16 ||
		job.Description != "maxRetries 3. Fix: set maxRetries: 0" {
		t.Errorf("job-max-retries issue = %+v", job)
	}
	if got := []string{issues[0].Severity, issues[2].Severity}; got[0] != "minor" || got[1] != "info" {
		t.Errorf("warning and note severities = %v, want minor, info", got)
	}
	if l := issues[3].Location; l.Path != "." || l.Lines.Begin != 1 {
		t.Errorf("a finding without a file is at %+v, want line 1 of .", l)
	}
}

// TestCodeClimateFingerprintsAreSARIFs checks that GitLab and code
// scanning track a finding under the same fingerprint.
func TestCodeClimateFingerprintsAreSARIFs(t *testing.T) {
	var cc, sarif bytes.Buffer
	if err := WriteCodeClimate(&cc, edgy); err != nil {
		t.Fatal(err)
	}
	if err := WriteSARIF(&sarif, edgy, SARIFOptions{Rules: catalogue}); err != nil {
		t.Fatal(err)
	}
	var issues []codeClimateIssue
	if err := json.Unmarshal(cc.Bytes(), &issues); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(sarif.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	results := log.Runs[0].Results
	if len(results) != len(issues) {
		t.Fatalf("%d SARIF results, %d issues", len(results), len(issues))
	}
	for i := range issues {
		if fp := results[i].PartialFingerprints[FingerprintKey]; issues[i].Fingerprint != fp {
			t.Errorf("issue %d: fingerprint %s, SARIF %s", i, issues[i].Fingerprint, fp)
		}
	}
}
