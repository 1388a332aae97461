package topology_test

import (
	"errors"
	"os"
	"path/filepath"
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
	if _, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir}); err == nil {
		t.Fatal("Load (one pipeline) of per-environment directories: no error, want the two nightly jobs to collide")
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

func TestSameNameOtherSettingsIsAnError(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a/job.yaml", jobV1)
	write(t, dir, "b/job.yaml", strings.Replace(jobV1, "maxRetries: 2", "maxRetries: 0", 1))
	for _, order := range [][]string{{"a", "b"}, {"b", "a"}} {
		_, err := topology.LoadPipelines([]string{dir + "/" + order[0] + "/job.yaml", dir + "/" + order[1] + "/job.yaml"}, topology.Options{WorkDir: dir})
		var ie *topology.InputError
		if !errors.As(err, &ie) || !strings.Contains(ie.Error(), "declared again with other settings") ||
			!strings.Contains(ie.Error(), "a/job.yaml:4:9") || !strings.Contains(ie.Error(), "b/job.yaml:4:9") {
			t.Errorf("order %v: error %v, want one naming both files", order, err)
		}
	}
	// Met in a directory walk, in two directories: two components, named by
	// their directory, and a warning at each.
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatalf("walk: %v", err)
	}
	if a, b := g.Component("a/nightly"), g.Component("b/nightly"); a == nil || b == nil || a.Job.MaxRetries != 2 || b.Job.MaxRetries != 0 {
		t.Errorf("walk: components %v, want a/nightly (2 retries) and b/nightly (0)", names(g))
	}
	warned := 0
	for _, f := range g.Findings {
		if strings.Contains(f.Message, "declared with different settings in 2 directories") {
			warned++
		}
	}
	if warned != 2 {
		t.Errorf("walk: %d warnings, want one at each job; findings %+v", warned, g.Findings)
	}
	// In one directory, a walk refuses them too.
	write(t, dir, "a/job2.yaml", strings.Replace(jobV1, "maxRetries: 2", "maxRetries: 1", 1))
	if _, err := topology.Load([]string{dir + "/a"}, topology.Options{WorkDir: dir}); err == nil || !strings.Contains(err.Error(), "declared again with other settings") {
		t.Errorf("one directory: %v, want the conflict refused", err)
	}
	if err := os.Remove(filepath.Join(dir, "a/job2.yaml")); err != nil {
		t.Fatal(err)
	}
	// The same job twice (a create and its export) is one component.
	write(t, dir, "b/job.yaml", jobV1)
	g, err = topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil || len(g.Component("nightly").Files) != 2 {
		t.Errorf("same settings twice: %v", err)
	}
}

func TestWorkflowsOfOneFileNameAreApart(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "jobs/workflow.yaml", "main:\n  steps:\n    - run:\n        call: http.get\n        args: {url: https://a.example.com}\n")
	write(t, dir, "saga/workflow.yaml", "main:\n  steps:\n    - run:\n        call: http.get\n        args: {url: https://b.example.com}\n")
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"jobs/workflow", "saga/workflow"} {
		if c := g.Component(n); c == nil || len(g.Out[c]) != 1 {
			t.Errorf("workflow %s: %v", n, names(g))
		}
	}
}

func TestTerraformReadsBesideTheModuleInItsRepository(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "workflows/report.yaml", "main:\n  steps:\n    - run:\n        try:\n          call: googleapis.run.v2.projects.locations.jobs.run\n          args: {name: projects/p/locations/l/jobs/report-job}\n        retry: ${http.default_retry}\n")
	write(t, dir, "infra/main.tf", `resource "google_workflows_workflow" "report" {
  name            = "report"
  region          = "europe-west1"
  source_contents = file("${path.module}/../workflows/report.yaml")
}
`)
	g, err := topology.Load([]string{filepath.Join(dir, "infra")}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	wf := g.Component("report")
	if wf == nil || len(g.Out[wf]) != 1 || g.Out[wf][0].To.Name != "report-job" {
		t.Errorf("workflow read through file() from beside the module: %v", names(g))
	}
}
