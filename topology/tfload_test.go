package topology_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/topology"
)

// writeFiles writes files (path → text) under a fresh directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func component(t *testing.T, g *topology.Graph, name string, kind topology.Kind) *topology.Component {
	t.Helper()
	c := g.Component(name)
	if c == nil || c.Kind != kind {
		var have []string
		for _, c := range g.Components {
			have = append(have, string(c.Kind)+" "+c.Name)
		}
		t.Fatalf("no %s %s; have %v", kind, name, have)
	}
	return c
}

func edge(t *testing.T, g *topology.Graph, from, to string) *topology.Edge {
	t.Helper()
	for _, e := range g.Edges {
		if e.From.Name == from && e.To.Name == to {
			return e
		}
	}
	t.Fatalf("no edge %s → %s", from, to)
	return nil
}

const tfChain = `variable "project" {}

resource "google_cloud_run_v2_job" "etl" {
  name     = "etl-job"
  location = "us-central1"
  template {
    task_count = 4
    template {
      max_retries = 1
      timeout     = "900s"
    }
  }
}

resource "google_workflows_workflow" "etl" {
  name            = "etl-workflow"
  region          = "us-central1"
  source_contents = <<-EOF
    main:
      steps:
        - run:
            try:
              call: googleapis.run.v2.projects.locations.jobs.run
              args:
                name: ${google_cloud_run_v2_job.etl.id}
            retry:
              predicate: $${http.default_retry_predicate}
              max_retries: 2
  EOF
}

resource "google_eventarc_trigger" "gcs" {
  name = "etl-trigger"
  destination {
    workflow = google_workflows_workflow.etl.id
  }
}

resource "google_cloud_run_v2_service" "api" {
  name = "api"
  template {
    timeout = "30s"
  }
}

resource "google_pubsub_subscription" "push" {
  name                 = "projects/p/subscriptions/api-push"
  ack_deadline_seconds = 60
  retry_policy {
    minimum_backoff = "20s"
  }
  dead_letter_policy {
    dead_letter_topic     = "projects/p/topics/dlq"
    max_delivery_attempts = 7
  }
  push_config {
    push_endpoint = "${google_cloud_run_v2_service.api.uri}/push"
  }
}

resource "google_cloud_scheduler_job" "start" {
  name = "start-etl"
  retry_config {
    retry_count = 2
  }
  attempt_deadline = "60s"
  http_target {
    uri = "https://workflowexecutions.googleapis.com/v1/${google_workflows_workflow.etl.id}/executions"
  }
}
`

func TestTerraformComponents(t *testing.T) {
	g := load(t, "main.tf", tfChain)
	job := component(t, g, "etl-job", topology.KindJob)
	if j := job.Job; j.MaxRetries != 1 || j.MaxRetriesDefault || j.TaskCount != 4 || j.TaskTimeout != 900 ||
		j.MaxRetriesPos != (topology.Pos{File: "main.tf", Line: 9, Col: 7}) {
		t.Errorf("job = %+v", *j)
	}
	if job.Pos != (topology.Pos{File: "main.tf", Line: 4, Col: 3}) {
		t.Errorf("job position = %v", job.Pos)
	}
	wf := component(t, g, "etl-workflow", topology.KindWorkflow)
	run := edge(t, g, "etl-workflow", "etl-job")
	if run.Retries != 2 || run.Predicate.Name != "http.default_retry_predicate" ||
		run.Pos != (topology.Pos{File: "main.tf", Line: 25, Col: 23}) || run.RetryPos != (topology.Pos{File: "main.tf", Line: 26, Col: 13}) {
		t.Errorf("workflow call = %+v", run.Call)
	}
	if len(wf.Workflow.FailPaths) != 1 || wf.Workflow.FailPaths[0].Pos.File != "main.tf" {
		t.Errorf("fail paths = %+v", wf.Workflow.FailPaths)
	}
	tr := component(t, g, "etl-trigger", topology.KindTrigger)
	if d := tr.Delivery; !d.AckAtStart || d.PushTo != "etl-workflow" || d.Retention != topology.DefaultEventarcRetention {
		t.Errorf("trigger = %+v", *d)
	}
	sub := component(t, g, "api-push", topology.KindSubscription)
	if d := sub.Delivery; !d.Push || d.PushTo != "api" || !d.DeadLetter || d.MaxDeliveryAttempts != 7 ||
		d.AckDeadline != 60 || !d.RetryPolicy || d.MinBackoff != 20 || d.MaxBackoff != 600 {
		t.Errorf("subscription = %+v", *d)
	}
	if e := edge(t, g, "api-push", "api"); e.Retries != 6 || e.Unbounded {
		t.Errorf("push edge = %+v", e.Call)
	}
	if c := component(t, g, "api", topology.KindService); c.Timeout != 30 {
		t.Errorf("service timeout = %v", c.Timeout)
	}
	start := edge(t, g, "start-etl", "etl-workflow")
	if start.Retries != 2 || start.Awaits || start.Timeout != 60 || start.Kind != topology.EdgeDeliver {
		t.Errorf("scheduler edge = %+v", start.Call)
	}
	for _, f := range g.Findings {
		t.Errorf("unexpected finding %+v", f)
	}
}

func TestTerraformUnknownRetrySettings(t *testing.T) {
	g := load(t, "main.tf", `
variable "retries" {}
variable "attempts" {}
resource "google_cloud_run_v2_job" "j" {
  name = "j"
  template {
    template {
      max_retries = var.retries
    }
  }
}
resource "google_cloud_tasks_queue" "q" {
  name = "q"
  retry_config {
    max_attempts = var.attempts
  }
}
resource "google_cloud_run_v2_job" "named" {
  name = var.retries
}
`)
	j := component(t, g, "j", topology.KindJob)
	if j.Job.MaxRetries != 10 || j.Job.MaxRetriesNote != "max_retries unknown, assumed 10 (the worst case)" || j.Job.MaxRetriesPos.Line != 8 {
		t.Errorf("job = %+v", *j.Job)
	}
	q := component(t, g, "q", topology.KindQueue)
	if !q.Retry.Unbounded || q.Retry.Pos.Line != 15 {
		t.Errorf("queue = %+v", *q.Retry)
	}
	component(t, g, "google_cloud_run_v2_job.named", topology.KindJob)
	var msgs []string
	for _, f := range g.Findings {
		if f.Rule == "unresolved-reference" {
			msgs = append(msgs, f.Message)
		}
	}
	if len(msgs) != 2 || !strings.Contains(msgs[0], "unknown, assumed 10, the most (the worst case)") || !strings.Contains(msgs[1], "unknown, assumed -1, unlimited attempts (the worst case)") {
		t.Errorf("findings = %q", msgs)
	}
}

func TestTerraformFunctionsAndQueues(t *testing.T) {
	g := load(t, "main.tf", `
resource "google_cloudfunctions2_function" "retry" {
  name = "gen2-retry"
  service_config {
    timeout_seconds = 120
  }
  event_trigger {
    retry_policy = "RETRY_POLICY_RETRY"
  }
}
resource "google_cloudfunctions2_function" "http" {
  name = "gen2-http"
}
resource "google_cloudfunctions_function" "gen1" {
  name    = "gen1"
  timeout = 30
  event_trigger {
    event_type = "google.pubsub.topic.publish"
    resource   = "t"
    failure_policy {
      retry = false
    }
  }
}
resource "google_cloud_tasks_queue" "unlimited" {
  name = "unlimited"
  retry_config {
    max_attempts = -1
  }
  http_target {
    uri_override {
      host = "worker.example.com"
      path_override {
        path = "/task"
      }
    }
  }
}
`)
	if c := component(t, g, "gen2-retry", topology.KindService); c.Timeout != 120 {
		t.Errorf("gen2 timeout = %v", c.Timeout)
	}
	tr := component(t, g, "gen2-retry-trigger", topology.KindTrigger)
	if d := tr.Delivery; d.SingleAttempt || d.DeadLetter || d.Retention != topology.DefaultFunctionRetention || tr.Pos.Line != 8 {
		t.Errorf("gen2 trigger = %+v at %v", *d, tr.Pos)
	}
	if e := edge(t, g, "gen2-retry-trigger", "gen2-retry"); !e.Unbounded {
		t.Errorf("gen2 RETRY redelivers without limit: %+v", e.Call)
	}
	component(t, g, "gen2-http", topology.KindService)
	if g.Component("gen2-http-trigger") != nil {
		t.Error("an HTTP function has no trigger")
	}
	if e := edge(t, g, "gen1-trigger", "gen1"); e.Unbounded || e.Retries != 0 {
		t.Errorf("gen1 without retry delivers once: %+v", e.Call)
	}
	if e := edge(t, g, "unlimited", "worker.example.com"); !e.Unbounded || e.Kind != topology.EdgeDeliver {
		t.Errorf("queue edge = %+v", e.Call)
	}
}

func TestQueueAndKubernetesYAML(t *testing.T) {
	g := load(t, "queue.yaml", "name: projects/p/locations/l/queues/mail\nretryConfig:\n  maxAttempts: 4\n  minBackoff: 1s\n  maxBackoff: 10s\n")
	q := component(t, g, "mail", topology.KindQueue)
	if r := q.Retry; r.Retries != 3 || r.Default || r.MinBackoff != 1 || r.MaxBackoff != 10 || r.Pos.Line != 3 {
		t.Errorf("queue = %+v", *r)
	}
	g = load(t, "kcc.yaml", "apiVersion: cloudtasks.cnrm.cloud.google.com/v1beta1\nkind: CloudTasksQueue\nmetadata:\n  name: k\nspec:\n  retryConfig:\n    maxAttempts: -1\n")
	if r := component(t, g, "k", topology.KindQueue).Retry; !r.Unbounded {
		t.Errorf("kcc queue = %+v", *r)
	}
	g = load(t, "job.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: once\nspec:\n  backoffLimit: 0\n---\napiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  jobTemplate:\n    spec: {}\n")
	if j := component(t, g, "once", topology.KindK8sJob).Job; j.MaxRetries != 0 || j.MaxRetriesDefault {
		t.Errorf("job = %+v", *j)
	}
	if j := component(t, g, "nightly", topology.KindK8sJob).Job; j.MaxRetries != 6 || !j.MaxRetriesDefault {
		t.Errorf("cron job = %+v", *j)
	}
	for _, c := range []struct{ name, src, want string }{
		{"q.yaml", "name: projects/p/locations/l/queues/q\nretryConfig:\n  maxAttempts: -3\n", "q.yaml:3:16: retryConfig.maxAttempts"},
		{"j.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\nspec:\n  backoffLimit: x\n", "j.yaml:6:17: backoffLimit"},
	} {
		if err := loadErr(t, c.name, c.src); !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
}

func TestTerraformInputErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"resource \"google_cloud_run_v2_job\" \"j\" {\n  name = \"j\"\n", "main.tf:1:40: Unclosed configuration block"},
		{"resource \"google_cloud_run_v2_job\" \"j\" {\n  name = \"j\"\n  template {\n    template {\n      max_retries = 11\n    }\n  }\n}\n", "main.tf:5:21: template.template.max_retries: expected 0 to 10, got 11"},
		{"resource \"google_eventarc_trigger\" \"t\" {\n  retry_policy {\n    max_attempts = 3\n  }\n}\n", "main.tf:3:20: retry_policy.max_attempts: expected 1"},
		{"resource \"google_workflows_workflow\" \"w\" {\n  source_contents = <<EOF\nmain:\n  steps:\n    - a:\n        call: http.get\n        args: [\nEOF\n}\n", "main.tf:7:"},
	}
	for _, c := range cases {
		if err := loadErr(t, "main.tf", c.src); !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %s", err, c.want)
		}
	}
}

// TestTerraformModulesAndFiles loads a directory: the root module, the
// local module it calls (read once, with its inputs) and a workflow source
// read by file().
func TestTerraformModulesAndFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"infra/main.tf": `
module "etl" {
  source  = "./modules/etl"
  name    = "orders"
  retries = 0
}
resource "google_workflows_workflow" "w" {
  name            = "orders-flow"
  source_contents = file("${path.module}/flows/orders.yaml")
}
resource "google_workflows_workflow" "billing" {
  name            = "billing-flow"
  source_contents = templatefile("${path.module}/flows/billing.tftpl", { job = module.etl.job })
}
`,
		"infra/modules/etl/main.tf": `
variable "name" {}
variable "retries" { default = 3 }
output "job" {
  value = google_cloud_run_v2_job.this.name
}
resource "google_cloud_run_v2_job" "this" {
  name = "${var.name}-job"
  template {
    template {
      max_retries = var.retries
    }
  }
}
`,
		"infra/flows/billing.tftpl": "main:\n  steps:\n    - run:\n        try:\n          call: googleapis.run.v1.namespaces.jobs.run\n          args:\n            name: namespaces/p/jobs/${job}\n        # retrylint:ignore ineffective-retry-predicate the job reports its own failure\n        retry: $${http.default_retry}\n",
		"infra/flows/orders.yaml":   "main:\n  steps:\n    - run:\n        call: googleapis.run.v1.namespaces.jobs.run\n        args:\n          name: namespaces/p/jobs/orders-job\n    # retrylint:ignore all the job reports its own failure\n    - done:\n        raise: failed\n",
	})
	g, err := topology.Load([]string{filepath.Join(dir, "infra")}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	job := component(t, g, "orders-job", topology.KindJob)
	if job.Job.MaxRetries != 0 || job.Pos.File != "infra/modules/etl/main.tf" {
		t.Errorf("module job = %+v at %v", *job.Job, job.Pos)
	}
	e := edge(t, g, "orders-flow", "orders-job")
	if e.Pos != (topology.Pos{File: "infra/flows/orders.yaml", Line: 6, Col: 17}) {
		t.Errorf("call position = %v", e.Pos)
	}
	wf := component(t, g, "orders-flow", topology.KindWorkflow)
	if len(wf.Files) != 2 || wf.Files[1] != "infra/flows/orders.yaml" {
		t.Errorf("files = %v", wf.Files)
	}
	// The workflow YAML the resource reads is that workflow, not a second one.
	if c := g.Component("orders"); c != nil {
		t.Errorf("the source read by file() is loaded on its own too: %+v", c)
	}
	if len(g.Components) != 3 {
		t.Errorf("components = %d, want 3 (the module's job once)", len(g.Components))
	}
	if !g.Suppress.Suppressed("ineffective-retry-predicate", topology.Pos{File: "infra/flows/orders.yaml", Line: 8}) {
		t.Error("suppressions in a file read by file() apply")
	}
	// A template read only by templatefile(): the call reaches the module's
	// job through a module output, and the template's suppressions apply.
	b := edge(t, g, "billing-flow", "orders-job")
	if b.RetryPos != (topology.Pos{File: "infra/flows/billing.tftpl", Line: 9, Col: 9}) {
		t.Errorf("retry position = %v", b.RetryPos)
	}
	if !g.Suppress.Suppressed("ineffective-retry-predicate", b.RetryPos) {
		t.Error("suppressions in a file read only by templatefile() apply")
	}
}

func TestFunctionYAML(t *testing.T) {
	gen2 := `# gcloud functions describe settle --gen2
name: projects/p/locations/europe-west1/functions/settle
environment: GEN_2
serviceConfig:
  timeoutSeconds: 120
  uri: https://settle-abc123-ew.a.run.app
eventTrigger:
  eventType: google.cloud.pubsub.topic.v1.messagePublished
  pubsubTopic: projects/p/topics/settlements
  retryPolicy: RETRY_POLICY_RETRY
`
	g := load(t, "settle.yaml", gen2)
	if c := component(t, g, "settle", topology.KindService); c.Timeout != 120 {
		t.Errorf("timeout = %v", c.Timeout)
	}
	tr := component(t, g, "settle-trigger", topology.KindTrigger)
	if d := tr.Delivery; d.SingleAttempt || !d.Eventarc || tr.Pos.Line != 10 {
		t.Errorf("trigger = %+v at %v", *d, tr.Pos)
	}
	if e := edge(t, g, "settle-trigger", "settle"); !e.Unbounded {
		t.Errorf("edge = %+v", e.Call)
	}
	gen1 := "name: projects/p/locations/us-central1/functions/refund\nruntime: go122\ntimeout: 30s\neventTrigger:\n  eventType: google.pubsub.topic.publish\n  resource: projects/p/topics/refunds\n  failurePolicy:\n    retry: {}\n"
	g = load(t, "refund.yaml", gen1)
	if e := edge(t, g, "refund-trigger", "refund"); !e.Unbounded || e.From.Delivery.Eventarc {
		t.Errorf("gen 1 edge = %+v", e.Call)
	}
	kcc := "apiVersion: cloudfunctions.cnrm.cloud.google.com/v1beta1\nkind: CloudFunctionsFunction\nmetadata:\n  name: once\nspec:\n  timeout: 60s\n  eventTrigger:\n    eventType: providers/cloud.pubsub/eventTypes/topic.publish\n    failurePolicy: false\n"
	g = load(t, "once.yaml", kcc)
	if e := edge(t, g, "once-trigger", "once"); e.Unbounded || e.Retries != 0 {
		t.Errorf("KCC edge = %+v", e.Call)
	}
	http := "name: projects/p/locations/l/functions/hook\nhttpsTrigger:\n  url: https://l-p.cloudfunctions.net/hook\n"
	g = load(t, "hook.yaml", http)
	if len(g.Components) != 1 {
		t.Errorf("an HTTP function has no trigger: %d components", len(g.Components))
	}
}

func TestFunctionURLLinks(t *testing.T) {
	g := load(t, "main.tf", `
resource "google_cloudfunctions_function" "hook" {
  name         = "hook"
  trigger_http = true
}
resource "google_cloud_scheduler_job" "s" {
  name = "s"
  retry_config {
    retry_count = 1
  }
  http_target {
    uri = "https://us-central1-p.cloudfunctions.net/hook"
  }
}
`)
	if e := edge(t, g, "s", "hook"); e.Retries != 1 || !e.Awaits {
		t.Errorf("edge = %+v", e.Call)
	}
}
