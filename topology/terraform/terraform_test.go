package terraform

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/topology/workflows"

	"github.com/retrylint/retrylint/internal/shareddata"
)

// corpusDir holds real public Terraform files (test data only; see its README).
func corpusDir(t *testing.T) string { return shareddata.Path(t, "corpus/gcp/terraform") }

func base(abs string) string { return filepath.Base(abs) }

// parse reads src as main.tf in memory.
func parse(t *testing.T, src string) *Module {
	t.Helper()
	m, err := ParseBytes("main.tf", []byte(src), Options{})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return m
}

// writeModule writes files (path → text) under a fresh directory and returns it.
func writeModule(t *testing.T, files map[string]string) string {
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

func resource(t *testing.T, m *Module, addr string) *Resource {
	t.Helper()
	r := m.Resource(addr)
	if r == nil {
		var have []string
		for _, r := range m.Resources {
			have = append(have, r.Address)
		}
		t.Fatalf("no resource %s; have %v", addr, have)
	}
	return r
}

func attr(t *testing.T, r *Resource, path string) *Value {
	t.Helper()
	v := r.Attr(path)
	if v == nil {
		t.Fatalf("%s: no %s", r.Address, path)
	}
	return v
}

func TestCorpusLoads(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpusDir(t), "*.tf"))
	if err != nil || len(files) == 0 {
		t.Skipf("corpus not available: %v", err)
	}
	for _, f := range files {
		m, err := Load([]string{f}, Options{Display: base})
		if err != nil {
			t.Errorf("%s: %v", base(f), err)
			continue
		}
		if len(m.Resources) == 0 {
			t.Errorf("%s: no resource of a retry-relevant type", base(f))
		}
		if len(m.Notes) != 0 {
			t.Errorf("%s: notes %v", base(f), m.Notes)
		}
	}
}

// TestCorpusValues checks the arguments the topology reads from each corpus file against the
// files as written (SOURCES.tsv notes).
func TestCorpusValues(t *testing.T) {
	type want struct {
		file, addr, path string
		pattern          string
		known            bool
		refs             []string
		line, col        int
	}
	cases := []want{
		{"bpp-secret-rotation.tf", "google_cloud_run_v2_job.secret_rotation", "name", "secret-rotation-job", true, nil, 36, 3},
		{"bpp-secret-rotation.tf", "google_cloud_scheduler_job.secret_rotation", "http_target.uri",
			"https://run.googleapis.com/v2/projects/*/locations/*/jobs/secret-rotation-job:run", false,
			[]string{"google_cloud_run_v2_job.secret_rotation"}, 97, 5},
		{"dex-cloud_tasks_queue_advanced-main.tf", "google_cloud_tasks_queue.advanced_configuration", "retry_config.max_attempts", "5", true, nil, 17, 5},
		{"dex-cloud_tasks_queue_advanced-main.tf", "google_cloud_tasks_queue.advanced_configuration", "retry_config.max_retry_duration", "4s", true, nil, 18, 5},
		{"dex-cloud_tasks_queue_advanced-main.tf", "google_cloud_tasks_queue.advanced_configuration", "name", "instance-name-*", false, nil, 2, 3},
		{"dex-cloudfunctions2_full-main.tf", "google_cloudfunctions2_function.terraform-test", "event_trigger.retry_policy", "RETRY_POLICY_RETRY", true, nil, 64, 5},
		{"dex-cloudfunctions2_full-main.tf", "google_cloudfunctions2_function.terraform-test", "event_trigger.pubsub_topic", "projects/*/topics/pub-sub-*", false,
			[]string{"google_pubsub_topic.sub"}, 63, 5},
		{"dex-eventarc_trigger_with_cloud_run_destination-main.tf", "google_eventarc_trigger.primary", "retry_policy.max_attempts", "1", true, nil, 23, 5},
		{"dex-eventarc_trigger_with_cloud_run_destination-main.tf", "google_eventarc_trigger.primary", "destination.cloud_run_service.service",
			"some-service-*", false, []string{"google_cloud_run_service.default"}, 10, 7},
		{"dex-pubsub_subscription_dead_letter-main.tf", "google_pubsub_subscription.example", "dead_letter_policy.max_delivery_attempts", "10", true, nil, 15, 5},
		{"dex-pubsub_subscription_push-main.tf", "google_pubsub_subscription.example", "push_config.push_endpoint", "https://example.com/push", true, nil, 16, 5},
		{"dex-pubsub_subscription_push-main.tf", "google_pubsub_subscription.example", "ack_deadline_seconds", "20", true, nil, 9, 3},
		{"dex-pubsub_subscription_push-main.tf", "google_pubsub_subscription.example", "push_config.attributes.x-goog-version", "v1", true, nil, 19, 7},
		{"dex-scheduler_job_http-main.tf", "google_cloud_scheduler_job.job", "retry_config.retry_count", "1", true, nil, 9, 5},
		{"dex-scheduler_job_http-main.tf", "google_cloud_scheduler_job.job", "attempt_deadline", "320s", true, nil, 6, 3},
		{"tds-eventarc-workflows-main.tf", "google_eventarc_trigger.default", "destination.workflow",
			"projects/*/locations/us-central1/workflows/storage-workflow-tf", false,
			[]string{"google_workflows_workflow.default"}, 149, 5},
		{"tds-eventarc-workflows-main.tf", "google_eventarc_trigger.default", "location", "us-central1", true,
			[]string{"google_workflows_workflow.default"}, 135, 3},
		{"tds-run-jobs_execute_jobs_on_schedule-main.tf", "google_cloud_scheduler_job.job", "retry_config.retry_count", "3", true, nil, 105, 5},
		{"tds-run-jobs_execute_jobs_on_schedule-main.tf", "google_cloud_scheduler_job.job", "http_target.uri",
			"https://run.googleapis.com/v2/projects/*/locations/us-central1/jobs/cloud-run-job:run", false,
			[]string{"google_cloud_run_v2_job.default"}, 110, 5},
		{"tds-run-jobs_max_retries_create-main.tf", "google_cloud_run_v2_job.default", "template.template.max_retries", "3", true, nil, 36, 7},
		{"tds-run-pubsub-main.tf", "google_pubsub_subscription.subscription", "push_config.push_endpoint", "https://pubsub-tutorial-*.a.run.app", false,
			[]string{"google_cloud_run_v2_service.default"}, 84, 5},
		{"tds-run-pubsub-main.tf", "google_pubsub_subscription.subscription", "topic", "pubsub_topic", true,
			[]string{"google_pubsub_topic.default"}, 82, 3},
		{"tds-workflows-cloud_run_job-main.tf", "google_cloud_run_v2_job.default", "template.task_count", "10", true, nil, 134, 5},
		{"tds-workflows-cloud_run_job-main.tf", "google_eventarc_trigger.default", "destination.workflow",
			"projects/*/locations/us-central1/workflows/cloud-run-job-workflow", false,
			[]string{"google_workflows_workflow.default"}, 220, 5},
	}
	loaded := map[string]*Module{}
	for _, c := range cases {
		m := loaded[c.file]
		if m == nil {
			var err error
			m, err = Load([]string{filepath.Join(corpusDir(t), c.file)}, Options{Display: base})
			if err != nil {
				if errors.Is(err, os.ErrNotExist) || strings.Contains(err.Error(), "no such file") {
					t.Skipf("corpus not available: %v", err)
				}
				t.Fatal(err)
			}
			loaded[c.file] = m
		}
		v := attr(t, resource(t, m, c.addr), c.path)
		if v.Pattern != c.pattern || v.Known != c.known || !reflect.DeepEqual(v.Refs, c.refs) ||
			v.Pos != (Pos{File: c.file, Line: c.line, Col: c.col}) {
			t.Errorf("%s %s %s = %q known=%v refs=%v at %v; want %q known=%v refs=%v at %d:%d",
				c.file, c.addr, c.path, v.Pattern, v.Known, v.Refs, v.Pos, c.pattern, c.known, c.refs, c.line, c.col)
		}
	}
	// Absent arguments are absent: the platform default applies.
	m := loaded["tds-workflows-cloud_run_job-main.tf"]
	if v := resource(t, m, "google_cloud_run_v2_job.default").Attr("template.template.max_retries"); v != nil {
		t.Errorf("max_retries should be absent, got %+v", v)
	}
	if r := m.Resource("google_storage_bucket.default"); r != nil {
		t.Error("only the retry-relevant types are reported")
	}
}

// TestCorpusWorkflowPositions analyses a corpus heredoc with the Workflows parser and maps its
// positions back into the .tf file.
func TestCorpusWorkflowPositions(t *testing.T) {
	f := filepath.Join(corpusDir(t), "tds-workflows-cloud_run_job-main.tf")
	if _, err := os.Stat(f); err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	m, err := Load([]string{f}, Options{Display: base})
	if err != nil {
		t.Fatal(err)
	}
	s := resource(t, m, "google_workflows_workflow.default").Source("source_contents")
	if s == nil || !s.Known || !s.Partial || s.File != "tds-workflows-cloud_run_job-main.tf" {
		t.Fatalf("source = %+v", s)
	}
	if strings.Contains(s.Text, "$${") || !strings.Contains(s.Text, `${event.data.bucket}`) {
		t.Errorf("escapes not undone:\n%s", s.Text)
	}
	if !strings.Contains(s.Text, `target_bucket: "input-*-*"`) {
		t.Errorf("the bucket interpolation should be a pattern:\n%s", s.Text)
	}
	doc, err := workflows.Decode(s.File, []byte(s.Text))
	if err != nil {
		t.Fatal(err)
	}
	wf, err := workflows.ParseNode(s.File, doc, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var call *workflows.Call
	for _, c := range wf.Calls {
		if c.Step == "run_job" {
			call = c
		}
	}
	if call == nil || call.Target.Name != "parallel-job" {
		t.Fatalf("calls = %+v", wf.Calls)
	}
	if p := s.Map(call.Pos.Line, call.Pos.Col); p != (Pos{File: s.File, Line: 183, Col: 21}) {
		t.Errorf("run_job call maps to %v, want line 183 col 21", p)
	}
	if l, c := s.Offsets(); l != 164 || c != 0 {
		t.Errorf("offsets = %d, %d; want 164, 0", l, c)
	}
	// A position on the line with the rendered interpolation maps to the interpolation.
	line := 0
	for i, l := range strings.Split(s.Text, "\n") {
		if strings.Contains(l, "target_bucket:") {
			line = i + 1
			break
		}
	}
	col := strings.Index(strings.Split(s.Text, "\n")[line-1], `"input`) + 2
	if p := s.Map(line, col); p.Line != 173 || p.Col != 37 {
		t.Errorf("interpolation maps to %v, want 173:37", p)
	}
}

func TestReferences(t *testing.T) {
	m := parse(t, `
resource "google_cloud_run_v2_job" "job" {
  name = "nightly"
}
resource "google_cloud_run_v2_service" "svc" {
  name = "api"
}
resource "google_workflows_workflow" "wf" {
  name   = "${google_cloud_run_v2_job.job.name}-flow"
  region = "europe-west1"
}
resource "google_eventarc_trigger" "t" {
  name = "t"
  destination {
    workflow = google_workflows_workflow.wf.id
  }
}
resource "google_pubsub_subscription" "s" {
  name = "s"
  push_config {
    push_endpoint = "${google_cloud_run_v2_service.svc.uri}/push"
  }
}
resource "google_cloud_scheduler_job" "sch" {
  name = "sch"
  http_target {
    uri = "https://workflowexecutions.googleapis.com/v1/projects/p/locations/${google_workflows_workflow.wf.region}/workflows/${google_workflows_workflow.wf.name}/executions"
  }
}
`)
	cases := []struct {
		addr, path, pattern string
		known               bool
		refs                []string
	}{
		{"google_workflows_workflow.wf", "name", "nightly-flow", true, []string{"google_cloud_run_v2_job.job"}},
		// Computed attributes are unknown, with the shape the provider gives them as a pattern.
		{"google_eventarc_trigger.t", "destination.workflow", "projects/*/locations/europe-west1/workflows/nightly-flow", false, []string{"google_workflows_workflow.wf"}},
		{"google_pubsub_subscription.s", "push_config.push_endpoint", "https://api-*.a.run.app/push", false, []string{"google_cloud_run_v2_service.svc"}},
		{"google_cloud_scheduler_job.sch", "http_target.uri",
			"https://workflowexecutions.googleapis.com/v1/projects/p/locations/europe-west1/workflows/nightly-flow/executions",
			true, []string{"google_workflows_workflow.wf"}},
	}
	for _, c := range cases {
		v := attr(t, resource(t, m, c.addr), c.path)
		if v.Pattern != c.pattern || v.Known != c.known || !reflect.DeepEqual(v.Refs, c.refs) {
			t.Errorf("%s %s = %q known=%v refs=%v; want %q %v %v", c.addr, c.path, v.Pattern, v.Known, v.Refs, c.pattern, c.known, c.refs)
		}
	}
	if got := m.Resources[0].Pos; got != (Pos{File: "main.tf", Line: 2, Col: 1}) {
		t.Errorf("resource position = %v", got)
	}
}

func TestVariablesAndLocals(t *testing.T) {
	m := parse(t, `
variable "retries" {
  type    = number
  default = 2
}
variable "project" {}
variable "env" {
  default = "prod"
}
locals {
  prefix  = "etl-${var.env}"
  job     = "${local.prefix}-load"
  timeout = format("%ds", 60 * var.retries)
  names   = split(",", "a,b")
  pick    = lookup({ prod = 1, dev = 0 }, var.env, 0)
  cyc1    = local.cyc2
  cyc2    = local.cyc1
}
resource "google_cloud_run_v2_job" "j" {
  name = local.job
  template {
    template {
      max_retries = var.retries
      timeout     = local.timeout
    }
  }
  labels = {
    project = var.project
    first   = element(local.names, 1)
    pick    = local.pick
    upper   = upper(trimsuffix(lower("ABC-x"), "-x"))
    joined  = join("/", ["projects", var.project, "jobs"])
    guarded = try(var.project.missing, "fallback")
    either  = coalesce(null, "", "b")
    cyc     = local.cyc1
    cond    = var.project == "p" ? 1 : 0
    repl    = replace("a-b-c", "/-/", "_")
    json    = jsonencode({ a = 1 })
  }
}
`)
	r := resource(t, m, "google_cloud_run_v2_job.j")
	cases := []struct {
		path, pattern string
		known         bool
	}{
		{"name", "etl-prod-load", true},
		{"template.template.max_retries", "2", true},
		{"template.template.timeout", "120s", true},
		{"labels.project", "*", false},
		{"labels.first", "b", true},
		{"labels.pick", "1", true},
		{"labels.upper", "ABC", true},
		{"labels.joined", "projects/*/jobs", false},
		{"labels.guarded", "*", false},
		{"labels.either", "b", true},
		{"labels.cyc", "*", false},
		{"labels.cond", "*", false},
		{"labels.repl", "a_b_c", true},
		{"labels.json", `{"a":1}`, true},
	}
	for _, c := range cases {
		v := attr(t, r, c.path)
		if v.Pattern != c.pattern || v.Known != c.known {
			t.Errorf("%s = %q known=%v; want %q known=%v", c.path, v.Pattern, v.Known, c.pattern, c.known)
		}
	}
	if n, ok := attr(t, r, "template.template.max_retries").Int(); !ok || n != 2 {
		t.Errorf("max_retries Int = %d %v", n, ok)
	}
	if d, ok := attr(t, r, "template.template.timeout").Seconds(); !ok || d != 120 {
		t.Errorf("timeout Seconds = %v %v", d, ok)
	}
	if _, ok := attr(t, r, "labels.project").String(); ok {
		t.Error("an unknown variable has no string")
	}
	if v := attr(t, r, "labels.project"); v.Pos != (Pos{File: "main.tf", Line: 28, Col: 5}) {
		t.Errorf("object key position = %v", v.Pos)
	}
}

func TestHeredoc(t *testing.T) {
	src := "resource \"google_workflows_workflow\" \"w\" {\n" + // 1
		"  name = \"w\"\n" + // 2
		"  source_contents = <<-EOF\n" + // 3
		"    main:\n" + // 4
		"      steps:\n" + // 5
		"        - call_it:\n" + // 6
		"            call: http.get\n" + // 7
		"            args:\n" + // 8
		"              url: $${\"https://\" + sys.get_env(\"HOST\")}\n" + // 9
		"        - tag:\n" + // 10
		"            assign:\n" + // 11
		"              - job: ${var.job}\n" + // 12
		"              - url: ${var.host}/run\n" + // 13
		"              - region: ${var.region}\n" + // 14
		"              - list: [${var.job}, x]\n" + // 15
		"              - pct: \"%%{x}\"\n" + // 16
		"    EOF\n" + // 17
		"}\n" +
		"variable \"region\" { default = \"eu\" }\n"
	m := parse(t, src)
	s := resource(t, m, "google_workflows_workflow.w").Source("source_contents")
	want := "main:\n  steps:\n    - call_it:\n        call: http.get\n        args:\n" +
		"          url: ${\"https://\" + sys.get_env(\"HOST\")}\n    - tag:\n        assign:\n" +
		"          - job: \"*\"\n          - url: \"*/run\"\n          - region: eu\n" +
		"          - list: [\"*\", x]\n          - pct: \"%{x}\"\n"
	if s == nil || !s.Known || !s.Partial || s.Text != want {
		t.Fatalf("source = %+v\ntext:\n%s\nwant:\n%s", s, s.Text, want)
	}
	// The flush heredoc drops four columns of indentation: Map adds them back.
	cases := []struct{ line, col, wantLine, wantCol int }{
		{1, 1, 4, 5},     // main:
		{4, 9, 7, 13},    // call: http.get
		{6, 16, 9, 20},   // ${ of the escaped expression: "$${" in the file
		{6, 18, 9, 23},   // "https://" after the escape
		{9, 18, 12, 22},  // the rendered "*": the interpolation
		{11, 21, 14, 25}, // eu: the interpolation
	}
	for _, c := range cases {
		if p := s.Map(c.line, c.col); p.Line != c.wantLine || p.Col != c.wantCol {
			t.Errorf("Map(%d,%d) = %v, want %d:%d", c.line, c.col, p, c.wantLine, c.wantCol)
		}
	}
	if l, c := s.Offsets(); l != 3 || c != 4 {
		t.Errorf("offsets = %d,%d", l, c)
	}
	// The rendered text is a Workflows source.
	doc, err := workflows.Decode(s.File, []byte(s.Text))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := workflows.ParseNode(s.File, doc, 0, 0); err != nil {
		t.Fatal(err)
	}
}

func TestQuotedSourceAndLocal(t *testing.T) {
	m := parse(t, `
locals {
  wf = "- s:\n    return: $${1}\n"
}
resource "google_workflows_workflow" "a" {
  name            = "a"
  source_contents = local.wf
}
resource "google_workflows_workflow" "b" {
  name            = "b"
  source_contents = var.src
}
variable "src" {}
`)
	a := resource(t, m, "google_workflows_workflow.a").Source("source_contents")
	if !a.Known || a.Text != "- s:\n    return: ${1}\n" {
		t.Errorf("a = %+v", a)
	}
	if p := a.Map(2, 5); p.Line != 3 {
		t.Errorf("a quoted string maps to its line: %v", p)
	}
	b := resource(t, m, "google_workflows_workflow.b").Source("source_contents")
	if b.Known || b.Note == "" || b.Pos.Line != 11 {
		t.Errorf("b = %+v", b)
	}
}

func TestFileAndTemplatefile(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `
variable "job" {}
resource "google_workflows_workflow" "plain" {
  name            = "plain"
  source_contents = file("${path.module}/wf/plain.yaml")
}
resource "google_workflows_workflow" "tpl" {
  name            = "tpl"
  source_contents = templatefile("${path.module}/wf/tpl.yaml", {
    region = "us-east1"
    job    = var.job
  })
}
resource "google_workflows_workflow" "outside" {
  name            = "outside"
  source_contents = file("${path.module}/../secret.yaml")
}
resource "google_workflows_workflow" "missing" {
  name            = "missing"
  source_contents = file("wf/none.yaml")
}
resource "google_workflows_workflow" "reencoded" {
  name            = "reencoded"
  source_contents = jsonencode(yamldecode(file("${path.module}/wf/plain.yaml")))
}
resource "google_cloud_run_v2_job" "j" {
  name = trimspace(file("wf/name.txt"))
  labels = {
    t = templatefile("wf/tpl.yaml", { region = "r", job = "j", extra = 1 })
  }
}
`,
		"wf/plain.yaml": "main:\n  steps:\n    - s:\n        return: $${x}\n",
		"wf/tpl.yaml":   "main:\n  steps:\n    - run:\n        call: googleapis.run.v2.projects.locations.jobs.run\n        args:\n          name: ${job}\n          location: ${region}\n    - esc:\n        return: $${1}\n",
		"wf/name.txt":   "  from-file \n",
	})
	m, err := LoadDir(dir, Options{Display: func(a string) string {
		rel, _ := filepath.Rel(dir, a)
		return filepath.ToSlash(rel)
	}})
	if err != nil {
		t.Fatal(err)
	}
	plain := resource(t, m, "google_workflows_workflow.plain").Source("source_contents")
	if !plain.Known || plain.File != "wf/plain.yaml" || plain.Text != "main:\n  steps:\n    - s:\n        return: $${x}\n" {
		t.Errorf("file(): %+v", plain)
	}
	if p := plain.Map(4, 17); p != (Pos{File: "wf/plain.yaml", Line: 4, Col: 17}) {
		t.Errorf("file() positions are the file's: %v", p)
	}
	tpl := resource(t, m, "google_workflows_workflow.tpl").Source("source_contents")
	wantTpl := "main:\n  steps:\n    - run:\n        call: googleapis.run.v2.projects.locations.jobs.run\n        args:\n          name: \"*\"\n          location: us-east1\n    - esc:\n        return: ${1}\n"
	if !tpl.Known || !tpl.Partial || tpl.File != "wf/tpl.yaml" || tpl.Text != wantTpl {
		t.Errorf("templatefile(): %+v\n%s", tpl, tpl.Text)
	}
	if p := tpl.Map(9, 17); p != (Pos{File: "wf/tpl.yaml", Line: 9, Col: 17}) {
		t.Errorf("templatefile() maps into the template: %v", p)
	}
	if p := tpl.Map(7, 21); p != (Pos{File: "wf/tpl.yaml", Line: 7, Col: 21}) {
		t.Errorf("templatefile() maps a variable to its interpolation: %v", p)
	}
	if re := resource(t, m, "google_workflows_workflow.reencoded").Source("source_contents"); re.Text != plain.Text || re.File != plain.File {
		t.Errorf("jsonencode(yamldecode(file())) reads the file: %+v", re)
	}
	for _, name := range []string{"outside", "missing"} {
		s := resource(t, m, "google_workflows_workflow."+name).Source("source_contents")
		if s.Known || s.Note == "" {
			t.Errorf("%s: %+v", name, s)
		}
	}
	j := resource(t, m, "google_cloud_run_v2_job.j")
	if v := attr(t, j, "name"); v.Pattern != "from-file" || !v.Known {
		t.Errorf("file() in an expression: %+v", v)
	}
	if v := attr(t, j, "labels.t"); !v.Known || !strings.Contains(v.Pattern, "name: j\n") {
		t.Errorf("templatefile() in an expression: %+v", v)
	}
}

func TestLocalModule(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `
resource "google_cloud_run_v2_job" "root" {
  name = "root-job"
}
module "etl" {
  source      = "./modules/job"
  job_name    = "load"
  retries     = 1
  workflow_of = google_cloud_run_v2_job.root.name
}
module "remote" {
  source = "terraform-google-modules/cloud-run/google"
}
module "up" {
  source = "../elsewhere"
}
resource "google_cloud_scheduler_job" "s" {
  name = "s"
  http_target {
    uri = "https://run.googleapis.com/v2/projects/p/locations/l/jobs/${module.etl.job_name}:run"
  }
}
`,
		"modules/job/flow.yaml": "- done:\n    return: 1\n",
		"modules/job/main.tf": `
resource "google_workflows_workflow" "flow" {
  name            = "flow"
  source_contents = file("flow.yaml") # relative to this module when the root has no such file
}
variable "job_name" {}
variable "retries" { default = 3 }
variable "workflow_of" {}
variable "unset" {}
resource "google_cloud_run_v2_job" "this" {
  name = "${var.job_name}-job"
  template {
    template {
      max_retries = var.retries
    }
  }
  labels = {
    of    = var.workflow_of
    unset = var.unset
  }
}
output "job_name" {
  value = google_cloud_run_v2_job.this.name
}
`,
	})
	m, err := LoadDir(dir, Options{Display: func(a string) string {
		rel, _ := filepath.Rel(dir, a)
		return filepath.ToSlash(rel)
	}})
	if err != nil {
		t.Fatal(err)
	}
	r := resource(t, m, "module.etl.google_cloud_run_v2_job.this")
	if r.Module != "module.etl" || r.Pos.File != "modules/job/main.tf" {
		t.Errorf("resource = %+v", r)
	}
	if v := attr(t, r, "name"); v.Pattern != "load-job" || !v.Known {
		t.Errorf("name = %+v", v)
	}
	if n, ok := attr(t, r, "template.template.max_retries").Int(); !ok || n != 1 {
		t.Errorf("an input overrides the default: %d %v", n, ok)
	}
	if v := attr(t, r, "labels.of"); v.Pattern != "root-job" || !reflect.DeepEqual(v.Refs, []string{"google_cloud_run_v2_job.root"}) {
		t.Errorf("an input's references are the caller's: %+v", v)
	}
	if v := attr(t, r, "labels.unset"); v.Known {
		t.Errorf("an input not passed with no default is unknown: %+v", v)
	}
	s := attr(t, resource(t, m, "google_cloud_scheduler_job.s"), "http_target.uri")
	if s.Pattern != "https://run.googleapis.com/v2/projects/p/locations/l/jobs/load-job:run" ||
		!reflect.DeepEqual(s.Refs, []string{"module.etl.google_cloud_run_v2_job.this"}) {
		t.Errorf("module output: %+v", s)
	}
	if s := resource(t, m, "module.etl.google_workflows_workflow.flow").Source("source_contents"); !s.Known || s.File != "modules/job/flow.yaml" {
		t.Errorf("module-relative file(): %+v", s)
	}
	if len(m.ModuleDirs) != 1 || len(m.Notes) != 2 {
		t.Errorf("module dirs %v, notes %v", m.ModuleDirs, m.Notes)
	}
	if got := []string{m.Resources[0].Address, m.Resources[1].Address, m.Resources[2].Address, m.Resources[3].Address}; !reflect.DeepEqual(got,
		[]string{"google_cloud_run_v2_job.root", "google_cloud_scheduler_job.s", "module.etl.google_workflows_workflow.flow", "module.etl.google_cloud_run_v2_job.this"}) {
		t.Errorf("order = %v", got)
	}
}

func TestModuleCycleAndRoots(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"a/main.tf": `module "self" { source = "./" }
resource "google_pubsub_topic" "t" { name = "t" }`,
	})
	_, err := LoadDir(filepath.Join(dir, "a"), Options{})
	var te *Error
	if !errors.As(err, &te) || !strings.Contains(te.Error(), "main.tf:1:26: module \"self\": a module cycle:") || !strings.Contains(te.Error(), "calls itself") {
		t.Errorf("a module that calls itself: %v, want a cycle error at its source", err)
	}
	// Two modules calling each other: both paths are named.
	dir = writeModule(t, map[string]string{
		"a/main.tf": `module "b" { source = "../b" }`,
		"b/main.tf": `module "a" { source = "../a" }`,
	})
	_, err = LoadDir(filepath.Join(dir, "a"), Options{Roots: []string{dir}})
	if !errors.As(err, &te) || !strings.Contains(te.Error(), "a module cycle") || !strings.Contains(te.Error(), "/a") || !strings.Contains(te.Error(), "/b") {
		t.Errorf("a ↔ b: %v, want a cycle error naming both module directories", err)
	}
}

func TestBrokenInput(t *testing.T) {
	cases := []struct {
		name, src string
		line, col int
		msg       string
	}{
		{"unclosed block", "resource \"google_pubsub_topic\" \"t\" {\n  name = \"t\"\n", 1, 36, "Unclosed"},
		{"bad attribute", "resource \"a\" \"b\" {\n  name = \n}\n", 2, 10, "Invalid expression"},
		{"unterminated string", "locals {\n  x = \"abc\n}\n", 2, 11, "multi-line string"},
		{"unterminated heredoc", "locals {\n  x = <<EOF\nabc\n}\n", 5, 1, "Unterminated template"},
		{"labels", "resource \"google_pubsub_topic\" {\n}\n", 1, 1, "two labels"},
		{"variable labels", "variable {\n}\n", 1, 1, "one label"},
		{"deep nesting", "locals {\n x = " + strings.Repeat("[", 2000) + "\n}\n", 2, 1005, "nested deeper"},
	}
	for _, c := range cases {
		_, err := ParseBytes("bad.tf", []byte(c.src), Options{})
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: err = %v, want *Error", c.name, err)
			continue
		}
		if e.Pos.File != "bad.tf" || e.Pos.Line != c.line || e.Pos.Col != c.col || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%s: %v; want bad.tf:%d:%d …%s", c.name, e, c.line, c.col, c.msg)
		}
	}
	if _, err := ParseBytes("big.tf", make([]byte, 100), Options{MaxFileSize: 10}); err == nil {
		t.Error("a file over the size cap is an error")
	}
	dir := writeModule(t, map[string]string{"main.tf": "a = 1\n", "modules/x/main.tf": "x"})
	if _, err := LoadDir(dir, Options{MaxFileSize: 3}); err == nil || !strings.Contains(err.Error(), "larger") {
		t.Errorf("size cap on disk: %v", err)
	}
}

func TestTemplateDirectives(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": `
variable "steps" {}
resource "google_workflows_workflow" "w" {
  name = "w"
  source_contents = templatefile("wf.tftpl", { retry = true, steps = var.steps, n = 2 })
}
`,
		"wf.tftpl": "main:\n  steps:\n%{ if retry }\n    - a:\n        return: ${n}\n%{ else }\n    - b:\n        return: 0\n%{ endif }\n%{ for s in steps }\n    - ${s}:\n        return: 1\n%{ endfor }\n",
	})
	m, err := LoadDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := resource(t, m, "google_workflows_workflow.w").Source("source_contents")
	if !s.Known || !s.Partial || !strings.Contains(s.Text, "- a:\n        return: 2") || strings.Contains(s.Text, "- b:") ||
		!strings.Contains(s.Text, "- \"*\":\n") {
		t.Errorf("directives:\n%s", s.Text)
	}
}

func TestDynamicBlock(t *testing.T) {
	m := parse(t, `
resource "google_cloud_tasks_queue" "q" {
  name = "q"
  dynamic "retry_config" {
    for_each = var.retry == null ? [] : [var.retry]
    content {
      max_attempts = retry_config.value.attempts
      max_backoff  = "3s"
    }
  }
}
`)
	r := resource(t, m, "google_cloud_tasks_queue.q")
	b := r.BlockAt("retry_config")
	if b == nil || !b.Dynamic {
		t.Fatalf("block = %+v", b)
	}
	if v := attr(t, r, "retry_config.max_attempts"); v.Known {
		t.Errorf("iterator values are unknown: %+v", v)
	}
	if v := attr(t, r, "retry_config.max_backoff"); v.Pattern != "3s" {
		t.Errorf("literal in dynamic content: %+v", v)
	}
	if len(r.BlocksAt("retry_config")) != 1 || r.Has("rate_limits") {
		t.Error("Blocks/Has")
	}
}
