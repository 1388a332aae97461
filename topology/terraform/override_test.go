package terraform

import (
	"path/filepath"
	"strings"
	"testing"
)

// Override files (override.tf, NAME_override.tf, and their .tf.json forms)
// are merged into the blocks the other files declare, after them, as
// Terraform does; GKE's samples override a cluster module's resource so.
func TestOverrideFiles(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `
variable "retries" { default = 3 }
locals { region = "us-central1" }
resource "google_cloud_run_v2_job" "j" {
  name     = "j"
  location = local.region
  template {
    task_count = 2
    template {
      max_retries = var.retries
      containers { image = "example/j" }
    }
  }
}
resource "google_cloud_tasks_queue" "q" {
  name     = "q"
  location = "us-central1"
  retry_config { max_attempts = 5 }
}
`,
		"override.tf": `
resource "google_cloud_run_v2_job" "j" {
  template {
    template {
      max_retries = 0
    }
  }
}
resource "google_cloud_run_v2_job" "missing" {
  name = "missing"
}
`,
		"queue_override.tf.json": `{"resource": {"google_cloud_tasks_queue": {"q": {"retry_config": {"max_attempts": 1}}}}}`,
		"vars_override.tf":       "locals { region = \"europe-west1\" }\n",
	})
	m, err := LoadDir(dir, Options{Display: func(a string) string {
		rel, _ := filepath.Rel(dir, a)
		return filepath.ToSlash(rel)
	}})
	if err != nil {
		t.Fatal(err)
	}
	j := resource(t, m, "google_cloud_run_v2_job.j")
	if v := attr(t, j, "template.template.max_retries"); v.Pattern != "0" || v.Pos.File != "override.tf" {
		t.Errorf("max_retries = %q at %s, want 0 from override.tf", v.Pattern, v.Pos)
	}
	// The override's template block replaces the original's whole.
	if v := j.Attr("template.task_count"); v != nil {
		t.Errorf("task_count %q survived the override of its block", v.Pattern)
	}
	if v := attr(t, j, "location"); v.Pattern != "europe-west1" {
		t.Errorf("location = %q, want the overridden local europe-west1", v.Pattern)
	}
	if v := attr(t, j, "name"); v.Pattern != "j" {
		t.Errorf("name = %q: an argument the override leaves alone is kept", v.Pattern)
	}
	q := resource(t, m, "google_cloud_tasks_queue.q")
	if v := attr(t, q, "retry_config.max_attempts"); v.Pattern != "1" {
		t.Errorf("max_attempts = %q, want 1 from the JSON override", v.Pattern)
	}
	var notes []string
	for _, n := range m.Notes {
		notes = append(notes, n.Pos.String()+" "+n.Msg)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "override.tf:9:1 override of resource google_cloud_run_v2_job.missing, which is not declared") {
		t.Errorf("notes %q, want only the override with no base", notes)
	}
	if m.Resource("google_cloud_run_v2_job.missing") != nil {
		t.Error("an override with no base became a resource")
	}
}

// A resource declared twice (Terraform refuses the module) is noted when it
// is one retrylint reads, and left alone otherwise: a folder of test
// fragments that each declare one IAM binding is not a retry layer.
func TestDeclaredTwice(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"a.tf": "resource \"google_cloud_run_v2_job\" \"j\" {\n  name = \"a\"\n}\nresource \"google_kms_crypto_key_iam_binding\" \"b\" {\n  role = \"r\"\n}\n",
		"b.tf": "resource \"google_cloud_run_v2_job\" \"j\" {\n  name = \"b\"\n}\nresource \"google_kms_crypto_key_iam_binding\" \"b\" {\n  role = \"r\"\n}\n",
	})
	m, err := LoadDir(dir, Options{Display: func(a string) string {
		rel, _ := filepath.Rel(dir, a)
		return filepath.ToSlash(rel)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Notes) != 1 || m.Notes[0].Pos.String() != "b.tf:1:1" || !strings.Contains(m.Notes[0].Msg, "google_cloud_run_v2_job.j is declared twice") {
		t.Errorf("notes %+v, want the job declared twice at b.tf:1:1 only", m.Notes)
	}
	if v := attr(t, resource(t, m, "google_cloud_run_v2_job.j"), "name"); v.Pattern != "a" {
		t.Errorf("name %q, want the first declaration's", v.Pattern)
	}
}
