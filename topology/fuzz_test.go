package topology_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/shareddata"
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

// seeds adds the files of the given testdata and example folders; a glob
// starting "shared/" is taken in the shared corpus beside the repository,
// when it is there.
func seeds(f *testing.F, globs ...string) {
	for _, g := range globs {
		if rel, ok := strings.CutPrefix(g, "shared/"); ok {
			dir, found := shareddata.Find(filepath.Dir(rel))
			if !found {
				continue
			}
			g = filepath.Join(dir, filepath.Base(rel))
		}
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
	f.Add([]byte("apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata:\n  name: j # Retrylint-Ignor\nspec:\n  template:\n    spec:\n      template:\n        spec:\n          # retrylint:ignore job-max-retrys, all # a reason?\n          maxRetries: 3 #retrylint:ignore:\n"))
	f.Add([]byte("apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata:\n  name: j\n  labels: {note: \"a\u0085b\u2028c\"}\nspec:\n  template:\n    spec:\n      template:\n        spec:\n          maxRetries: 0\n          maxRetries: 10\n"))
	seeds(f, "shared/corpus/gcp/cloudrun/*.yaml", "../examples/topology/*/*job.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "job.yaml", src) })
}

func FuzzLoadSubscription(f *testing.F) {
	f.Add([]byte("name: projects/p/subscriptions/s\ntopic: t\npushConfig: {pushEndpoint: 'https://x-1-uc.a.run.app/'}\ndeadLetterPolicy: {deadLetterTopic: d, maxDeliveryAttempts: 5}\nretryPolicy: {minimumBackoff: 10s}\n"))
	seeds(f, "shared/corpus/gcp/pubsub/*.yaml", "../examples/topology/*/requests-push.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "sub.yaml", src) })
}

func FuzzLoadTrigger(f *testing.F) {
	f.Add([]byte("destination: {workflow: projects/p/locations/l/workflows/w}\nname: projects/p/locations/l/triggers/t\n"))
	f.Add([]byte("destination: {cloudRun: {service: s}}\nname: projects/p/locations/l/triggers/t\nretryPolicy: {maxAttempts: 1}\n"))
	seeds(f, "shared/corpus/gcp/eventarc/*.yaml", "../examples/topology/*/*trigger.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "trigger.yaml", src) })
}

func FuzzLoadTopologyFile(f *testing.F) {
	f.Add([]byte("version: 1\nbudget: 3\ncomponents:\n  a: {kind: app, calls: [{to: b, retries: unbounded, on: [http-5xx], backoff: {initial: 1s, multiplier: 2}}], notifies: [s]}\n  b: {kind: cloudrun.job, runs: a, max_retries: 2}\n  s: {kind: sink}\n"))
	f.Add([]byte("version: 1.0\nbudget: \"3\"\ncomponents:\n  a: {kind: app, calls: [{to: b, retries: \"3\", awaits: yes, timeout: 1h30m, backoff: {initial: 30s, max: 1s, multiplier: -2}}]}\n  b: {kind: external, url: \"https://[::1]:8080/x\"}\n"))
	f.Add([]byte("[version, components]\n"))
	seeds(f, "../examples/topology/*/retrylint.yaml", "../rules/testdata/*/*/*.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "retrylint.yaml", src) })
}

func FuzzLoadWorkflow(f *testing.F) {
	f.Add([]byte("main:\n  steps:\n    - run:\n        try:\n          call: googleapis.run.v1.namespaces.jobs.run\n          args: {name: namespaces/p/jobs/j}\n        retry: ${http.default_retry}\n"))
	f.Add([]byte("main:\n  steps:\n    - log:\n        call: sys.log\n        args:\n          text: ${\"failed: \" + e.message}\n"))
	seeds(f, "shared/corpus/gcp/workflows/*.yaml", "../examples/topology/*/*workflow.yaml")
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
	f.Add([]byte("resource \"google_pubsub_subscription\" \"s\" {\n  // retrylint:ignore unbounded-redelivry,\n  name = \"s\" # retrylint:ignore\n  topic = \"t\" //Retrylint:ignore all why\n}\n"))
	f.Add([]byte("resource \"google_cloud_tasks_queue\" \"q\" {\n  name = \"q\"\n  retry_config { max_attempts = -1 }\n  http_target { uri_override { host = \"a.run.app\" } }\n}\n"))
	f.Add([]byte("resource \"google_cloudfunctions_function\" \"f\" {\n  name = \"f\"\n  event_trigger {\n    failure_policy { retry = true }\n  }\n}\n"))
	f.Add([]byte("locals {\n  fns = { a = { retry = \"RETRY_POLICY_RETRY\" }, b = { retry = var.x } }\n  big = format(\"%99999999s\", \"x\")\n}\nresource \"google_cloudfunctions2_function\" \"f\" {\n  for_each = local.fns\n  name = each.key\n  event_trigger { retry_policy = each.value.retry }\n}\nresource \"google_pubsub_subscription\" \"s\" {\n  count = 2\n  name = \"s${count.index}\"\n  push_config { push_endpoint = google_cloudfunctions2_function.f[\"a\"].url }\n  dynamic \"dead_letter_policy\" {\n    for_each = []\n    content { dead_letter_topic = \"t\" }\n  }\n}\n"))
	seeds(f, "shared/corpus/gcp/terraform/*.tf", "../examples/topology/terraform/*/*.tf", "../rules/testdata/*/*/terraform/*.tf")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "main.tf", src) })
}

// FuzzLoadTerraformJSON is FuzzLoadTerraform for Terraform's JSON syntax.
func FuzzLoadTerraformJSON(f *testing.F) {
	f.Add([]byte(tfChainJSON))
	f.Add([]byte(`{"resource": {"google_cloud_tasks_queue": {"q": {"name": "q", "retry_config": [{"max_attempts": -1}], "http_target": {"uri_override": {"host": "a.run.app"}}}}}}`))
	seeds(f, "terraform/testdata/json/*.tf.json", "../testdata/topology/tfjson/*/*.tf.json", "../testdata/topology/scenarios/*/*.tf.json")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "main.tf.json", src) })
}

func FuzzLoadService(f *testing.F) {
	f.Add([]byte("apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata:\n  name: svc\nspec:\n  template:\n    spec:\n      timeoutSeconds: 300\n      containers: [{image: x}]\n"))
	f.Add([]byte("apiVersion: run.cnrm.cloud.google.com/v1beta1\nkind: RunService\nmetadata: {name: s}\nspec: {template: {timeout: 30s}}\n"))
	seeds(f, "../testdata/topology/scenarios/*/audit-writer.yaml", "../testdata/topology/scenarios/*/thumbnailer.yaml", "../testdata/topology/scenarios/*/enricher.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "service.yaml", src) })
}

func FuzzLoadTasksQueue(f *testing.F) {
	f.Add([]byte("name: projects/p/locations/l/queues/q\nretryConfig: {maxAttempts: 5, minBackoff: 1s, maxBackoff: 60s, maxDoublings: 3}\nhttpTarget: {uriOverride: {host: a-1-uc.a.run.app}}\n"))
	f.Add([]byte("apiVersion: cloudtasks.cnrm.cloud.google.com/v1beta1\nkind: CloudTasksQueue\nmetadata: {name: q}\nspec: {retryConfig: {maxAttempts: -1}}\n"))
	seeds(f, "../testdata/topology/scenarios/19-cloud-tasks-queue/*.yaml", "../rules/testdata/amplification/*/kinds/mail-queue.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "queue.yaml", src) })
}

func FuzzLoadFunction(f *testing.F) {
	f.Add([]byte("name: projects/p/locations/l/functions/f\nbuildConfig: {runtime: go122}\nserviceConfig: {timeoutSeconds: 60}\neventTrigger: {eventType: google.cloud.pubsub.topic.v1.messagePublished, retryPolicy: RETRY_POLICY_RETRY}\n"))
	f.Add([]byte("name: projects/p/locations/l/functions/f\neventTrigger: {retryPolicy: RETRY_POLICY_DO_NOT_RETRY}\n"))
	seeds(f, "../testdata/topology/scenarios/20-gen2-function-retry/*.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "function.yaml", src) })
}

func FuzzLoadKubernetesJob(f *testing.F) {
	f.Add([]byte("apiVersion: batch/v1\nkind: Job\nmetadata: {name: k}\nspec:\n  backoffLimit: 6\n  activeDeadlineSeconds: 600\n  template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}\n"))
	f.Add([]byte("apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec: {schedule: '* * * * *', jobTemplate: {spec: {backoffLimit: 2}}}\n"))
	seeds(f, "../testdata/topology/scenarios/30-k8s-job/*.yaml", "../rules/testdata/amplification/*/kinds/report-cron.yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLoad(t, "k8s-job.yaml", src) })
}

// FuzzWalk loads a directory the fuzzer lays out: a topology file with
// include: entries, a manifest in a subdirectory, a symbolic link whose
// target the fuzzer names (inside, outside, dangling, a loop) and a link
// to a directory above. Any layout gives a graph or an InputError, never
// a panic or a hang, and nothing outside the root is read.
func FuzzWalk(f *testing.F) {
	f.Add([]byte("version: 1\ninclude: [sub/, \"*.yaml\", ../outside.yaml]\ncomponents:\n  a: {kind: app}\n"), []byte(jobV1), "sub/job.yaml")
	f.Add([]byte("version: 1\ninclude: [link.yaml, loop/]\n"), []byte("version: 1\ninclude: [../retrylint.yaml]\n"), "../outside.yaml")
	f.Add([]byte("version: 1\ninclude: [\"**\"]\n"), []byte("main:\n  steps:\n    - s:\n        return: 1\n"), "link.yaml")
	f.Fuzz(func(t *testing.T, top, sub []byte, target string) {
		base := t.TempDir()
		root := filepath.Join(base, "root")
		for _, d := range []string{filepath.Join(root, "sub"), filepath.Join(root, "loop")} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		write := func(p string, b []byte) {
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write(filepath.Join(root, "retrylint.yaml"), top)
		write(filepath.Join(root, "sub", "x.yaml"), sub)
		write(filepath.Join(base, "outside.yaml"), []byte(jobV1))
		if !strings.ContainsRune(target, 0) {
			_ = os.Symlink(target, filepath.Join(root, "link.yaml"))
		}
		_ = os.Symlink("..", filepath.Join(root, "loop", "up"))
		g, err := topology.Load([]string{root}, topology.Options{WorkDir: root, MaxFileSize: 1 << 20})
		if err != nil {
			var ie *topology.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error is not an InputError: %T %v", err, err)
			}
			return
		}
		for _, c := range g.Components {
			if strings.Contains(c.Pos.File, "outside") {
				t.Fatalf("read a file outside the root: %s", c.Pos)
			}
		}
		rules.Run(g, rules.Options{})
	})
}
