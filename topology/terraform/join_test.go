package terraform

import (
	"path/filepath"
	"testing"
)

// A workflow and its subworkflows kept in files of their own, joined into
// one source (as Google's workflows-demos import-multiple-yamls does): the
// text is both files rendered, and each line maps into its own file.
func TestJoinedTemplatefiles(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `
resource "google_workflows_workflow" "joined" {
  name            = "joined"
  source_contents = join("", [
    templatefile(
      "${path.module}/workflow.yaml", {}
    ),
    templatefile(
      "${path.module}/subworkflow.yaml", {}
    )])
}
resource "google_workflows_workflow" "sep" {
  name            = "sep"
  source_contents = join("\n", [file("workflow.yaml"), file("subworkflow.yaml")])
}
resource "google_workflows_workflow" "unknown" {
  name            = "unknown"
  source_contents = join("", [file("workflow.yaml"), file(var.other)])
}
resource "google_workflows_workflow" "computed" {
  name            = "computed"
  source_contents = join("", var.parts)
}
variable "other" {}
variable "parts" { default = ["main:\n  steps:\n    - s:\n        return: 1\n"] }
`,
		"workflow.yaml":    "main:\n  steps:\n    - call_sub:\n        call: name_message\n        result: out\n    - done:\n        return: $${out}\n",
		"subworkflow.yaml": "name_message:\n  steps:\n    - prepare:\n        return: $${\"Hello\"}\n",
	})
	m, err := LoadDir(dir, Options{Display: func(a string) string {
		rel, _ := filepath.Rel(dir, a)
		return filepath.ToSlash(rel)
	}})
	if err != nil {
		t.Fatal(err)
	}
	joined := resource(t, m, "google_workflows_workflow.joined").Source("source_contents")
	want := "main:\n  steps:\n    - call_sub:\n        call: name_message\n        result: out\n    - done:\n        return: ${out}\n" +
		"name_message:\n  steps:\n    - prepare:\n        return: ${\"Hello\"}\n"
	if !joined.Known || joined.Partial || joined.Text != want {
		t.Fatalf("join of two templatefile(): %+v\n%s", joined, joined.Text)
	}
	if p := joined.Map(4, 15); p != (Pos{File: "workflow.yaml", Line: 4, Col: 15}) {
		t.Errorf("a line of the first file maps to %v", p)
	}
	if p := joined.Map(11, 17); p != (Pos{File: "subworkflow.yaml", Line: 4, Col: 17}) {
		t.Errorf("a line of the second file maps to %v, want subworkflow.yaml:4:17", p)
	}
	sep := resource(t, m, "google_workflows_workflow.sep").Source("source_contents")
	if !sep.Known || sep.Text != "main:\n  steps:\n    - call_sub:\n        call: name_message\n        result: out\n    - done:\n        return: $${out}\n\nname_message:\n  steps:\n    - prepare:\n        return: $${\"Hello\"}\n" {
		t.Errorf("join with a separator: %+v\n%s", sep, sep.Text)
	}
	if p := sep.Map(9, 1); p != (Pos{File: "subworkflow.yaml", Line: 1, Col: 1}) {
		t.Errorf("after the separator, the second file starts at %v", p)
	}
	if u := resource(t, m, "google_workflows_workflow.unknown").Source("source_contents"); u.Known || u.Note == "" {
		t.Errorf("a part not known statically makes the join unknown: %+v", u)
	}
	if c := resource(t, m, "google_workflows_workflow.computed").Source("source_contents"); !c.Known || c.Text != "main:\n  steps:\n    - s:\n        return: 1\n" {
		t.Errorf("join over a variable is evaluated: %+v", c)
	}
}
