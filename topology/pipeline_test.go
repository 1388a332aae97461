package topology_test

import (
	"strings"
	"testing"

	"github.com/retrylint/retrylint/topology"
)

func TestPipelinesPerEnvironment(t *testing.T) {
	dir := t.TempDir()
	for env, retries := range map[string]string{"stg": "2", "prod": "0"} {
		write(t, dir, "envs/"+env+"/job.yaml", strings.Replace(jobV1, "maxRetries: 2", "maxRetries: "+retries, 1))
		write(t, dir, "envs/"+env+"/retrylint.yaml", "version: 1\ncomponents:\n  nightly: {kind: cloudrun.job, runs: exporter}\n  exporter: {kind: app}\n")
	}
	// Terraform root modules declaring the same job, and loose manifests.
	for _, env := range []string{"dev", "test"} {
		write(t, dir, "terraform/"+env+"/main.tf", `resource "google_cloud_run_v2_job" "j" {
  name     = "batch"
  location = "europe-west1"
  template {
    template {
      max_retries = 0
    }
  }
}
`)
	}
	write(t, dir, "loose/wf.yaml", "main:\n  steps:\n    - done:\n        return: 1\n")
	if _, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir}); err == nil || !strings.Contains(err.Error(), "declared twice") {
		t.Fatalf("Load (one pipeline) of per-environment topology files: %v, want declared twice", err)
	}
	graphs, err := topology.LoadPipelines([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatalf("per-environment directories: %v", err)
	}
	got := map[string]*topology.Graph{}
	var names []string
	for _, g := range graphs {
		got[g.Pipeline] = g
		names = append(names, g.Pipeline)
	}
	want := []string{"", "envs/prod", "envs/stg", "terraform/dev", "terraform/test"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("pipelines %q, want %q", names, want)
	}
	for env, retries := range map[string]int{"stg": 2, "prod": 0} {
		g := got["envs/"+env]
		if j := g.Component("nightly"); j == nil || j.Job.MaxRetries != retries || len(g.Out[j]) != 1 {
			t.Errorf("envs/%s: nightly %+v, want maxRetries %d and a runs edge", env, j, retries)
		}
	}
	for _, p := range []string{"terraform/dev", "terraform/test"} {
		if got[p].Component("batch") == nil || len(got[p].Components) != 1 {
			t.Errorf("%s: components %v", p, names)
		}
	}
	if got[""].Component("wf") == nil {
		t.Errorf("loose manifests: %v", got[""].Components)
	}
}

func TestIncludedFilesJoinTheirTopologyFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "pipeline/retrylint.yaml", "version: 1\ninclude: [../jobs/job.yaml]\ncomponents:\n  nightly: {kind: cloudrun.job, runs: exporter}\n  exporter: {kind: app}\n")
	write(t, dir, "jobs/job.yaml", jobV1)
	graphs, err := topology.LoadPipelines([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(graphs) != 1 || graphs[0].Pipeline != "pipeline" || graphs[0].Component("nightly").Job.TaskCount != 4 {
		t.Errorf("graphs %d, want the included job in the topology file's pipeline", len(graphs))
	}
}
