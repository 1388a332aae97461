package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

func TestFindingsOnResourcesThatMayNotExistAreWarnings(t *testing.T) {
	dir := t.TempDir()
	src := `variable "enabled" { type = bool }
resource "google_cloud_run_v2_job" "maybe" {
  count    = var.enabled ? 1 : 0
  name     = "maybe-job"
  location = "europe-west1"
  template {
    template {
      max_retries = 3
    }
  }
}
resource "google_cloud_run_v2_job" "always" {
  count    = 2
  name     = "always-job"
  location = "europe-west1"
  template {
    template {
      max_retries = 3
    }
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	findings, _ := Run(g, Options{})
	got := map[string]model.Finding{}
	for _, f := range findings {
		if f.Rule == "job-max-retries" {
			got[f.Component] = f
		}
	}
	if f := got["maybe-job"]; f.Severity != model.Warning || !strings.Contains(f.Message, "google_cloud_run_v2_job.maybe has count not known statically: it may not exist") {
		t.Errorf("maybe-job: %+v, want a warning that says it may not exist", f)
	}
	if f := got["always-job"]; f.Severity != model.Error || strings.Contains(f.Message, "may not exist") {
		t.Errorf("always-job (count = 2): %+v, want the error as usual", f)
	}
}

func TestTfvarsGiveTheRootModuleItsValues(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.tf": `variable "retries" {
  type    = number
  default = 3
}
variable "enabled" { type = bool }
resource "google_cloud_run_v2_job" "j" {
  count    = var.enabled ? 1 : 0
  name     = "batch"
  location = "europe-west1"
  template {
    template {
      max_retries = var.retries
    }
  }
}
`,
		"terraform.tfvars":     "retries = 2\nenabled = true\n",
		"prod.auto.tfvars":     "retries = 0\n",
		"ignored.tfvars.other": "retries = 9\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	j := g.Component("batch")
	if j == nil || j.Job.MaxRetries != 0 || j.MayNotExist != "" {
		t.Errorf("batch: %+v, want max_retries 0 from prod.auto.tfvars and count 1 from terraform.tfvars", j)
	}
}
