package topology_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/retrylint/retrylint/rules"
	"github.com/retrylint/retrylint/topology"
)

// fuzzLoad loads src as a file and runs the whole pipeline on it: any input
// gives a graph and findings, or an InputError — never a panic or a hang.
func fuzzLoad(t *testing.T, name string, src []byte) {
	g, err := topology.LoadBytes(name, src, topology.Options{MaxFileSize: 1 << 20})
	if err != nil {
		var ie *topology.InputError
		if !errors.As(err, &ie) {
			t.Fatalf("error is not an InputError: %T %v", err, err)
		}
		if ie.Pos.File != name {
			t.Fatalf("error names %q, want %q: %v", ie.Pos.File, name, err)
		}
		return
	}
	findings, _ := rules.Run(g, rules.Options{})
	for _, f := range findings {
		if f.File == "" || f.Line < 1 {
			t.Fatalf("finding without a position: %+v", f)
		}
	}
}

// seeds adds the files of the given testdata and example folders.
func seeds(f *testing.F, globs ...string) {
	for _, g := range globs {
		files, _ := filepath.Glob(g)
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
}

func FuzzLoadJob(f *testing.F) {
	f.Add([]byte(jobV1))
	f.Add([]byte("apiVersion: run.cnrm.cloud.google.com/v1beta1\nkind: RunJob\nmetadata: {name: k}\nspec: {template: {taskCount: 2, template: {maxRetries: 1, timeout: 10m}}}\n"))
	f.Add([]byte(`{"name":"projects/p/locations/l/jobs/j","template":{"template":{"maxRetries":"3","timeout":"1s"}}}`))
	seeds(f, "../../shared/corpus/gcp/cloudrun/*.yaml", "../examples/topology/*/*job.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "job.yaml", src) })
}

func FuzzLoadSubscription(f *testing.F) {
	f.Add([]byte("name: projects/p/subscriptions/s\ntopic: t\npushConfig: {pushEndpoint: 'https://x-1-uc.a.run.app/'}\ndeadLetterPolicy: {deadLetterTopic: d, maxDeliveryAttempts: 5}\nretryPolicy: {minimumBackoff: 10s}\n"))
	seeds(f, "../../shared/corpus/gcp/pubsub/*.yaml", "../examples/topology/*/requests-push.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "sub.yaml", src) })
}

func FuzzLoadTrigger(f *testing.F) {
	f.Add([]byte("destination: {workflow: projects/p/locations/l/workflows/w}\nname: projects/p/locations/l/triggers/t\n"))
	f.Add([]byte("destination: {cloudRun: {service: s}}\nname: projects/p/locations/l/triggers/t\nretryPolicy: {maxAttempts: 1}\n"))
	seeds(f, "../../shared/corpus/gcp/eventarc/*.yaml", "../examples/topology/*/*trigger.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "trigger.yaml", src) })
}

func FuzzLoadTopologyFile(f *testing.F) {
	f.Add([]byte("version: 1\nbudget: 3\ncomponents:\n  a: {kind: app, calls: [{to: b, retries: unbounded, on: [http-5xx], backoff: {initial: 1s, multiplier: 2}}], notifies: [s]}\n  b: {kind: cloudrun.job, runs: a, max_retries: 2}\n  s: {kind: sink}\n"))
	seeds(f, "../examples/topology/*/retrylint.yaml", "../rules/testdata/*/*/*.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "retrylint.yaml", src) })
}

func FuzzLoadWorkflow(f *testing.F) {
	f.Add([]byte("main:\n  steps:\n    - run:\n        try:\n          call: googleapis.run.v1.namespaces.jobs.run\n          args: {name: namespaces/p/jobs/j}\n        retry: ${http.default_retry}\n"))
	seeds(f, "../../shared/corpus/gcp/workflows/*.yaml", "../examples/topology/*/*workflow.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "flow.yaml", src) })
}

func FuzzLoadScheduler(f *testing.F) {
	f.Add([]byte("httpTarget: {uri: 'https://workflowexecutions.googleapis.com/v1/projects/p/locations/l/workflows/w/executions'}\nname: projects/p/locations/l/jobs/s\nretryConfig: {retryCount: 2}\nschedule: '* * * * *'\nattemptDeadline: 30s\n"))
	f.Add([]byte("apiVersion: cloudscheduler.cnrm.cloud.google.com/v1beta1\nkind: CloudSchedulerJob\nmetadata: {name: k}\nspec: {schedule: x, httpTarget: {uri: 'https://a-1-uc.a.run.app/'}, retryConfig: {retryCount: 1}}\n"))
	seeds(f, "../rules/testdata/failure-triggers-redelivery/*/scheduler.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "scheduler.yaml", src) })
}

func FuzzLoadTerraform(f *testing.F) {
	f.Add([]byte(tfChain))
	f.Add([]byte("resource \"google_cloud_tasks_queue\" \"q\" {\n  name = \"q\"\n  retry_config { max_attempts = -1 }\n  http_target { uri_override { host = \"a.run.app\" } }\n}\n"))
	f.Add([]byte("resource \"google_cloudfunctions_function\" \"f\" {\n  name = \"f\"\n  event_trigger {\n    failure_policy { retry = true }\n  }\n}\n"))
	seeds(f, "../../shared/corpus/gcp/terraform/*.tf", "../examples/topology/terraform/*/*.tf", "../rules/testdata/*/*/terraform/*.tf")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "main.tf", src) })
}
