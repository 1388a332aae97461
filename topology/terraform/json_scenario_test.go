package terraform

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONScenarioTwin reads the .tf.json twin of a scenario: variables with defaults, a
// Cloud Run job, a workflow whose source is templatefile(), a Scheduler job with retry_config.
func TestJSONScenarioTwin(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "topology", "scenarios")
	tf, err := LoadDir(filepath.Join(root, "16-terraform-templatefile-scheduler"), Options{Display: base})
	if err != nil {
		t.Fatal(err)
	}
	js, err := LoadDir(filepath.Join(root, "16b-terraform-json-templatefile-scheduler"), Options{Display: base})
	if err != nil {
		t.Fatal(err)
	}
	sameAsTwin(t, tf, js)
	if n, ok := attr(t, resource(t, js, "google_cloud_run_v2_job.rollup"), "template.template.max_retries").Int(); !ok || n != 0 {
		t.Errorf("max_retries from a variable's default = %d %v", n, ok)
	}
	src := resource(t, js, "google_workflows_workflow.rollup").Source("source_contents")
	if !src.Known || src.File != "rollup.workflow.yaml.tftpl" || !strings.Contains(src.Text, "/locations/asia-northeast1/jobs/rollup-job") {
		t.Errorf("templatefile() source = %+v", src)
	}
	if n, ok := attr(t, resource(t, js, "google_cloud_scheduler_job.rollup"), "retry_config.retry_count").Int(); !ok || n != 2 {
		t.Errorf("retry_count = %d %v", n, ok)
	}
}
