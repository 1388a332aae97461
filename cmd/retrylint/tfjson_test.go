package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTerraformJSONIncident runs incident 2 written in Terraform's JSON
// syntax (testdata/topology/tfjson/incident2/main.tf.json): the output is a
// golden file, and its findings and worst cases are those of the .tf twin in
// examples/topology/terraform/incident2.
func TestTerraformJSONIncident(t *testing.T) {
	root := repoRoot(t)
	arg := "testdata/topology/tfjson/incident2/retrylint.yaml"
	text, stderr, code := runCLI(t, root, arg)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s", code, stderr)
	}
	golden(t, "terraform-json-incident2.txt", text)
	js, _, code := runCLI(t, root, "--format", "json", arg)
	if code != 1 {
		t.Fatalf("json: exit %d, want 1", code)
	}
	golden(t, "terraform-json-incident2.json", js)

	summary := func(arg string) (findings, chains []string) { return resultSummary(t, root, arg) }
	tf, tc := summary("examples/topology/terraform/incident2/retrylint.yaml")
	jf, jc := summary(arg)
	if len(tf) == 0 || strings.Join(tf, "\n") != strings.Join(jf, "\n") {
		t.Errorf("findings differ\n.tf:\n%s\n.tf.json:\n%s", strings.Join(tf, "\n"), strings.Join(jf, "\n"))
	}
	if len(tc) == 0 || strings.Join(tc, "\n") != strings.Join(jc, "\n") {
		t.Errorf("chains differ\n.tf:\n%s\n.tf.json:\n%s", strings.Join(tc, "\n"), strings.Join(jc, "\n"))
	}
	if !strings.Contains(text, "main.tf.json:") {
		t.Errorf("the findings do not point into main.tf.json:\n%s", text)
	}
}

// A .tf.json that is not valid JSON is an input error at file:line:col,
// exit 2, as a .tf that is not valid HCL is.
func TestTerraformJSONBroken(t *testing.T) {
	dir := t.TempDir()
	src := "{\n  \"resource\": {\n    \"google_cloud_run_v2_job\": {\n      \"j\": {\"name\": \"j\",}\n    }\n  }\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf.json"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, dir, ".")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "main.tf.json:4:24: Trailing comma in object") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and main.tf.json:4:24", code, stdout, stderr)
	}
}
