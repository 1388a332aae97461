package topology_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/shareddata"
	"github.com/retrylint/retrylint/topology"
)

func jobNamed(name string) string { return strings.Replace(jobV1, "nightly", name, 1) }

// edgesTo lists the callers of the component named name.
func edgesTo(g *topology.Graph, name string) []string {
	var out []string
	for _, e := range g.Edges {
		if e.To.Name == name {
			out = append(out, e.From.Name)
		}
	}
	return out
}

func TestOnlyCallsThatRunSomethingAreEdges(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "job.yaml", jobNamed("report"))
	write(t, dir, "svc.yaml", "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: api}\nspec: {template: {spec: {timeoutSeconds: 60}}}\n")
	write(t, dir, "child.yaml", "main:\n  steps:\n    - done:\n        return: 1\n")
	write(t, dir, "admin.yaml", `main:
  steps:
    - get_job:
        call: googleapis.run.v2.projects.locations.jobs.get
        args: {name: projects/p/locations/l/jobs/report}
    - delete_job:
        call: googleapis.run.v1.namespaces.jobs.delete
        args: {name: namespaces/p/jobs/report, location: l}
    - create_job:
        call: googleapis.run.v2.projects.locations.jobs.create
        args: {parent: projects/p/locations/l, jobId: report, body: {}}
    - list_executions:
        call: googleapis.run.v2.projects.locations.jobs.executions.list
        args: {parent: projects/p/locations/l/jobs/report}
    - get_service:
        call: googleapis.run.v2.projects.locations.services.get
        args: {name: projects/p/locations/l/services/api}
    - get_execution:
        call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.get
        args: {name: projects/p/locations/l/workflows/child/executions/e}
`)
	write(t, dir, "runner.yaml", `main:
  steps:
    - run_job:
        call: googleapis.run.v2.projects.locations.jobs.run
        args: {name: projects/p/locations/l/jobs/report}
    - start_child:
        call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.create
        args: {parent: projects/p/locations/l/workflows/child}
    - call_api:
        call: http.get
        args: {url: https://api-abc123-uc.a.run.app/v1/x}
`)
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"report": "runner", "child": "runner", "api": "runner"} {
		if got := strings.Join(edgesTo(g, name), ","); got != want {
			t.Errorf("callers of %s: %q, want %q (get/create/delete/list calls start nothing)", name, got, want)
		}
	}
	for _, f := range g.Findings {
		if f.Rule == "unresolved-reference" {
			t.Errorf("admin call reported: %s", f.Message)
		}
	}
}

func TestComputedNameMatchesNoComponent(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(shareddata.Path(t, "corpus/gcp/workflows"), "wfd-screenshot-jobs-workflow.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, dir, "workflow.yaml", string(src))
	// Two jobs its computed name could mean, or not.
	write(t, dir, "a.yaml", jobNamed("screenshot-a"))
	write(t, dir, "b.yaml", jobNamed("screenshot-b"))
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range []string{"screenshot-a", "screenshot-b"} {
		if callers := edgesTo(g, j); len(callers) != 0 {
			t.Errorf("%s is called by %v: a name computed at run time matched it", j, callers)
		}
	}
	found := false
	for _, f := range g.Findings {
		if f.Rule == "unresolved-reference" && f.Pos.Line == 74 &&
			strings.Contains(f.Message, `a name computed at run time, ${"namespaces/" + project_id + "/jobs/" + job_name}`) {
			found = true
		}
	}
	if !found {
		t.Errorf("no unresolved-reference with the expression at line 74; findings %+v", g.Findings)
	}
}

func TestTryAroundASubworkflowMultipliesItsTries(t *testing.T) {
	g := load(t, "wf.yaml", `main:
  steps:
    - outer:
        try:
          call: fetch
        retry:
          predicate: ${http.default_retry_predicate}
          max_retries: 2
fetch:
  steps:
    - get:
        try:
          call: http.get
          args: {url: https://api-abc123-uc.a.run.app/v1/x}
        retry: ${http.default_retry}
`)
	var e *topology.Edge
	for _, x := range g.Edges {
		if x.To.Name == "api" {
			e = x
		}
	}
	if e == nil {
		t.Fatalf("no edge to api: %v", names(g))
	}
	if e.Retries != (2+1)*(5+1)-1 || len(e.Tries) != 2 {
		t.Errorf("retries %d, layers %d; want (2+1)×(5+1) = 18 attempts from two layers", e.Retries, len(e.Tries))
	}
}

func TestKubernetesJobsShowTheirPods(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      int
	}{
		{"cronjob-default", "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: nightly}\nspec:\n  schedule: '0 3 * * *'\n  jobTemplate:\n    spec:\n      template: {spec: {containers: [{name: r, image: r}], restartPolicy: Never}}\n", 6},
		{"job-limit-2", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: nightly}\nspec:\n  backoffLimit: 2\n  template: {spec: {containers: [{name: r, image: r}], restartPolicy: Never}}\n", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := load(t, c.name+".yaml", c.src)
			pods := g.Component("nightly.pods")
			if pods == nil {
				t.Fatalf("no pods component: %v", names(g))
			}
			in := g.In[pods]
			if len(in) != 1 || in[0].From.Name != "nightly" || in[0].Retries != c.want || in[0].Kind != topology.EdgeRuns {
				t.Errorf("edges into the pods: %+v, want nightly runs them with %d retries", in, c.want)
			}
		})
	}
	// With a topology file naming what the job runs, no pods component.
	dir := t.TempDir()
	write(t, dir, "job.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: nightly}\nspec: {backoffLimit: 1}\n")
	write(t, dir, "retrylint.yaml", "version: 1\ncomponents:\n  nightly: {kind: k8s.job, runs: exporter}\n  exporter: {kind: app}\n")
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if g.Component("nightly.pods") != nil || len(g.In[g.Component("exporter")]) != 1 {
		t.Errorf("runs: from the topology file: components %v", names(g))
	}
}
