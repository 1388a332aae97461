package terraform

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// describe renders what the reader gives of the resources of m, following the arguments and
// blocks that the native-syntax module ref writes, positions and file names left out: a
// .tf.json twin of a .tf module must describe the same.
func describe(ref, m *Module) string {
	var w strings.Builder
	for _, rr := range ref.Resources {
		r := m.Resource(rr.Address)
		if r == nil {
			fmt.Fprintf(&w, "%s: missing\n", rr.Address)
			continue
		}
		fmt.Fprintf(&w, "%s: type=%s name=%s module=%q repeated=%v\n", r.Address, r.Type, r.Name, r.Module, r.Repeated)
		describeBlock(&w, r.Address+".", &rr.Block, &r.Block)
	}
	var addrs []string
	for _, r := range m.Resources {
		addrs = append(addrs, r.Address)
	}
	fmt.Fprintf(&w, "resources: %v\n", addrs)
	for _, n := range m.Notes {
		fmt.Fprintf(&w, "note: %s\n", n.Msg)
	}
	fmt.Fprintf(&w, "module dirs: %d\n", len(m.ModuleDirs))
	return w.String()
}

func describeBlock(w *strings.Builder, prefix string, rb, b *Block) {
	for _, name := range rb.AttrNames() {
		v := b.Attr(name)
		if v == nil {
			fmt.Fprintf(w, "%s%s: absent\n", prefix, name)
			continue
		}
		fmt.Fprintf(w, "%s%s: known=%v pattern=%q refs=%v null=%v val=%#v\n", prefix, name, v.Known, v.Pattern, v.Refs, v.IsNull(), v.Cty())
		if s := b.Source(name); s != nil && (s.Known || s.Note != "") {
			file := s.File
			if strings.HasSuffix(file, ".tf") || strings.HasSuffix(file, ".tf.json") {
				file = "(configuration)"
			}
			fmt.Fprintf(w, "%s%s source: known=%v partial=%v file=%s refs=%v note=%q text=%q\n", prefix, name, s.Known, s.Partial, file, s.Refs, s.Note, s.Text)
		}
	}
	var types []string
	for _, blk := range rb.body.Blocks {
		typ := blk.Type
		if typ == "dynamic" && len(blk.Labels) == 1 {
			typ = blk.Labels[0]
		}
		if !slices.Contains(types, typ) {
			types = append(types, typ)
		}
	}
	for _, typ := range types {
		rbs, bs := rb.BlocksAt(typ), b.BlocksAt(typ)
		fmt.Fprintf(w, "%s%s: %d blocks\n", prefix, typ, len(bs))
		for i := range min(len(rbs), len(bs)) {
			fmt.Fprintf(w, "%s%s[%d]: dynamic=%v\n", prefix, typ, i, bs[i].Dynamic)
			describeBlock(w, fmt.Sprintf("%s%s[%d].", prefix, typ, i), rbs[i], bs[i])
		}
	}
}

// sameAsTwin checks that the .tf.json module reads as its .tf twin does.
func sameAsTwin(t *testing.T, tf, js *Module) {
	t.Helper()
	want, got := describe(tf, tf), describe(tf, js)
	if want != got {
		t.Errorf("the .tf.json twin reads differently\n--- .tf ---\n%s\n--- .tf.json ---\n%s", want, got)
	}
	if len(tf.Resources) == 0 {
		t.Error("the twin declares no resource: nothing compared")
	}
}

func loadOne(t *testing.T, file string) *Module {
	t.Helper()
	m, err := Load([]string{file}, Options{Display: base})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestJSONCorpusTwins reads the .tf.json twins of corpus files as their .tf originals.
func TestJSONCorpusTwins(t *testing.T) {
	twins, err := filepath.Glob(filepath.Join("testdata", "json", "*.tf.json"))
	if err != nil || len(twins) < 4 {
		t.Fatalf("twins: %v %v", twins, err)
	}
	for _, js := range twins {
		t.Run(base(js), func(t *testing.T) {
			orig := filepath.Join(corpusDir(t), strings.TrimSuffix(base(js), ".json"))
			if _, err := os.Stat(orig); err != nil {
				t.Skipf("corpus file: %v", err)
			}
			sameAsTwin(t, loadOne(t, orig), loadOne(t, js))
		})
	}
}

// TestJSONSettings checks the retry settings of the twins without the corpus.
func TestJSONSettings(t *testing.T) {
	dir := filepath.Join("testdata", "json")
	m := loadOne(t, filepath.Join(dir, "tds-run-jobs_max_retries_create-main.tf.json"))
	job := resource(t, m, "google_cloud_run_v2_job.default")
	if n, ok := attr(t, job, "template.template.max_retries").Int(); !ok || n != 3 {
		t.Errorf("max_retries = %d %v", n, ok)
	}
	if v := attr(t, job, "template.template.max_retries"); v.Pos.Line != 22 || v.Pos.Col != 13 || v.Pos.File != "tds-run-jobs_max_retries_create-main.tf.json" {
		t.Errorf("max_retries is at %v, want its key at 22:13", v.Pos)
	}
	if job.Pos.Line != 16 {
		t.Errorf("the resource is at %v, want its name at line 16", job.Pos)
	}
	if v := attr(t, job, "template.template.containers.image"); v.Pattern != "us-docker.pkg.dev/cloudrun/container/job:latest" {
		t.Errorf("containers.image through an array of blocks: %+v", v)
	}
	if len(m.Resources) != 1 {
		t.Errorf("resources %v", m.Resources)
	}

	m = loadOne(t, filepath.Join(dir, "dex-cloud_tasks_queue_advanced-main.tf.json"))
	q := resource(t, m, "google_cloud_tasks_queue.advanced_configuration")
	if n, ok := attr(t, q, "retry_config.max_attempts").Int(); !ok || n != 5 {
		t.Errorf("max_attempts = %d %v", n, ok)
	}
	if d, ok := attr(t, q, "retry_config.min_backoff").Seconds(); !ok || d != 2 {
		t.Errorf("min_backoff = %v %v", d, ok)
	}
	if v := attr(t, q, "app_engine_routing_override.service"); v.Pattern != "worker" {
		t.Errorf("service = %+v", v)
	}
	if v := attr(t, q, "name"); v.Known || v.Pattern != "instance-name-*" {
		t.Errorf("name with an unknown local = %+v", v)
	}
	if slices.Contains(q.AttrNames(), "//") {
		t.Error(`a "//" key is a comment, not an argument`)
	}

	m = loadOne(t, filepath.Join(dir, "dex-pubsub_subscription_dead_letter-main.tf.json"))
	s := resource(t, m, "google_pubsub_subscription.example")
	dl := s.BlockAt("dead_letter_policy")
	if dl == nil || dl.Attr("dead_letter_topic") == nil {
		t.Fatalf("dead_letter_policy = %+v", dl)
	}
	if v := attr(t, s, "dead_letter_policy.dead_letter_topic"); !reflect.DeepEqual(v.Refs, []string{"google_pubsub_topic.example_dead_letter"}) {
		t.Errorf("dead_letter_topic refs = %v", v.Refs)
	}
	if n, ok := attr(t, s, "dead_letter_policy.max_delivery_attempts").Int(); !ok || n != 10 {
		t.Errorf("max_delivery_attempts = %d %v", n, ok)
	}
	if len(m.Resources) != 3 {
		t.Errorf(`"resource" as an array of objects: %d resources`, len(m.Resources))
	}

	m = loadOne(t, filepath.Join(dir, "tds-workflows-cloud_run_job-main.tf.json"))
	wf := resource(t, m, "google_workflows_workflow.default")
	src := wf.Source("source_contents")
	if !src.Known || !src.Partial || !strings.Contains(src.Text, "call: googleapis.run.v1.namespaces.jobs.run") ||
		!strings.Contains(src.Text, "project_id: ${sys.get_env(\"GOOGLE_CLOUD_PROJECT_ID\")}") ||
		!reflect.DeepEqual(src.Refs, []string{"google_storage_bucket.default"}) {
		t.Errorf("source = %+v", src)
	}
	// The source text maps back into the JSON string, on its line.
	line := strings.Count(string(m.Text(src.File)[:strings.Index(string(m.Text(src.File)), `"source_contents"`)]), "\n") + 1
	if p := src.Map(11, 11); p.File != "tds-workflows-cloud_run_job-main.tf.json" || p.Line != line {
		t.Errorf("line 11 of the source maps to %v, want line %d of the .tf.json", p, line)
	}
	tr := resource(t, m, "google_eventarc_trigger.default")
	if v := attr(t, tr, "destination.workflow"); !reflect.DeepEqual(v.Refs, []string{"google_workflows_workflow.default"}) ||
		v.Pattern != "projects/*/locations/us-central1/workflows/cloud-run-job-workflow" {
		t.Errorf("destination.workflow = %+v", v)
	}
	if n := len(tr.BlocksAt("matching_criteria")); n != 2 {
		t.Errorf("%d matching_criteria blocks, want 2", n)
	}
}

const modTF = `
variable "enabled" {
  default = false
}
variable "names" {
  default = ["a", "b"]
}
locals {
  prefix = "orders"
}
locals {
  queue = "${local.prefix}-queue"
}
resource "google_cloud_run_v2_job" "off" {
  count = var.enabled ? 1 : 0
  name  = "off-job"
}
resource "google_cloud_run_v2_job" "none" {
  count = 0
  name  = "none-job"
}
resource "google_pubsub_topic" "each" {
  for_each = toset(var.names)
  name     = each.key
}
resource "google_cloud_tasks_queue" "q" {
  name = local.queue
  dynamic "retry_config" {
    for_each = [1]
    content {
      max_attempts = 4
    }
  }
  labels = {
    team = "data"
  }
}
module "etl" {
  source   = "./modules/job"
  job_name = "load"
  retries  = 1
  of       = google_cloud_tasks_queue.q.name
}
module "remote" {
  source = "terraform-google-modules/cloud-run/google"
}
resource "google_cloud_scheduler_job" "s" {
  name = "s"
  http_target {
    uri = "https://run.googleapis.com/v2/projects/p/locations/l/jobs/${module.etl.job_name}:run"
  }
}
resource "google_workflows_workflow" "flow" {
  name            = "flow"
  source_contents = file("${path.module}/flow.yaml")
}
`

const modJSON = `{
  "//": "The twin of modTF.",
  "variable": {
    "enabled": {"default": false},
    "names": {"default": ["a", "b"]}
  },
  "locals": [
    {"prefix": "orders"},
    {"queue": "${local.prefix}-queue"}
  ],
  "resource": {
    "google_cloud_run_v2_job": {
      "off": {"count": "${var.enabled ? 1 : 0}", "name": "off-job"},
      "none": {"count": 0, "name": "none-job"}
    },
    "google_pubsub_topic": {
      "each": {"for_each": "${toset(var.names)}", "name": "${each.key}"}
    },
    "google_cloud_tasks_queue": {
      "q": {
        "name": "${local.queue}",
        "dynamic": {
          "retry_config": {
            "for_each": "${[1]}",
            "content": {"max_attempts": 4}
          }
        },
        "labels": {"team": "data"}
      }
    },
    "google_cloud_scheduler_job": {
      "s": {
        "name": "s",
        "http_target": {"uri": "https://run.googleapis.com/v2/projects/p/locations/l/jobs/${module.etl.job_name}:run"}
      }
    },
    "google_workflows_workflow": {
      "flow": {"name": "flow", "source_contents": "${file(\"${path.module}/flow.yaml\")}"}
    }
  },
  "module": {
    "etl": {"source": "./modules/job", "job_name": "load", "retries": 1, "of": "${google_cloud_tasks_queue.q.name}"},
    "remote": {"source": "terraform-google-modules/cloud-run/google"}
  }
}
`

const childTF = `
variable "job_name" {}
variable "retries" { default = 3 }
variable "of" {}
resource "google_cloud_run_v2_job" "this" {
  name = "${var.job_name}-job"
  template {
    template {
      max_retries = var.retries
    }
  }
  labels = {
    of = var.of
  }
}
output "job_name" {
  value = google_cloud_run_v2_job.this.name
}
`

const childJSON = `{
  "variable": {"job_name": {}, "retries": {"default": 3}, "of": {}},
  "resource": {
    "google_cloud_run_v2_job": {
      "this": {
        "name": "${var.job_name}-job",
        "template": {"template": {"max_retries": "${var.retries}"}},
        "labels": {"of": "${var.of}"}
      }
    }
  },
  "output": {"job_name": {"value": "${google_cloud_run_v2_job.this.name}"}}
}
`

func loadTwin(t *testing.T, files map[string]string) *Module {
	t.Helper()
	dir := writeModule(t, files)
	m, err := LoadDir(dir, Options{Display: func(a string) string {
		rel, _ := filepath.Rel(dir, a)
		return filepath.ToSlash(rel)
	}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestJSONModule: count, for_each, variables, locals, dynamic blocks, file(), and a local
// module of .tf.json files read as in .tf.
func TestJSONModule(t *testing.T) {
	flow := "- done:\n    return: 1\n"
	tf := loadTwin(t, map[string]string{"main.tf": modTF, "modules/job/main.tf": childTF, "flow.yaml": flow})
	js := loadTwin(t, map[string]string{"main.tf.json": modJSON, "modules/job/main.tf.json": childJSON, "flow.yaml": flow})
	sameAsTwin(t, tf, js)
	if v := attr(t, resource(t, js, "google_cloud_run_v2_job.none"), "count"); !resource(t, js, "google_cloud_run_v2_job.none").Repeated {
		t.Errorf("count = 0: %+v", v)
	} else if n, ok := v.Len(); !ok || n != 0 {
		t.Errorf("count = %d %v, want 0", n, ok)
	}
	if n, ok := attr(t, resource(t, js, "google_cloud_run_v2_job.off"), "count").Len(); !ok || n != 0 {
		t.Errorf("count from a variable's default = %d %v, want 0", n, ok)
	}
	r := resource(t, js, "module.etl.google_cloud_run_v2_job.this")
	if n, ok := attr(t, r, "template.template.max_retries").Int(); !ok || n != 1 || r.Pos.File != "modules/job/main.tf.json" {
		t.Errorf("a module input overrides the default: %d %v at %v", n, ok, r.Pos)
	}
	if v := attr(t, r, "labels.of"); v.Pattern != "orders-queue" || !reflect.DeepEqual(v.Refs, []string{"google_cloud_tasks_queue.q"}) {
		t.Errorf("labels.of = %+v", v)
	}
	if b := resource(t, js, "google_cloud_tasks_queue.q").BlockAt("retry_config"); b == nil || !b.Dynamic {
		t.Errorf("dynamic block = %+v", b)
	}
	if v := attr(t, resource(t, js, "google_cloud_tasks_queue.q"), "labels"); !v.Known || v.Cty().GetAttr("team").AsString() != "data" {
		t.Errorf("a map argument = %+v", v)
	}
	if s := resource(t, js, "google_workflows_workflow.flow").Source("source_contents"); !s.Known || s.File != "flow.yaml" || s.Text != flow {
		t.Errorf("file() = %+v", s)
	}
}

// TestJSONMixed: main.tf and extra.tf.json are one module, referring to each other.
func TestJSONMixed(t *testing.T) {
	m := loadTwin(t, map[string]string{
		"main.tf": `
variable "region" { default = "europe-west1" }
locals { attempts = 7 }
resource "google_pubsub_topic" "t" { name = "orders" }
resource "google_cloud_tasks_queue" "q" {
  name     = google_pubsub_subscription.s.name
  location = var.region
  retry_config {
    max_attempts = local.attempts
  }
}
`,
		"extra.tf.json": `{
  "variable": {"retries": {"default": 2}},
  "resource": {"google_pubsub_subscription": {"s": {
    "name": "${google_pubsub_topic.t.name}-sub",
    "topic": "${google_pubsub_topic.t.id}",
    "retry_policy": {"minimum_backoff": "${var.region == \"europe-west1\" ? \"20s\" : \"10s\"}"}
  }}}
}`,
		"notes.json": `{"resource": {"google_cloud_run_v2_job": {"j": {"name": "not-terraform"}}}}`,
	})
	if !reflect.DeepEqual(m.Files, []string{"extra.tf.json", "main.tf"}) {
		t.Errorf("files = %v (a .json that is not .tf.json is not Terraform)", m.Files)
	}
	q := resource(t, m, "google_cloud_tasks_queue.q")
	if v := attr(t, q, "name"); v.Pattern != "orders-sub" || !reflect.DeepEqual(v.Refs, []string{"google_pubsub_subscription.s"}) {
		t.Errorf("a .tf argument naming a .tf.json resource = %+v", v)
	}
	if n, ok := attr(t, q, "retry_config.max_attempts").Int(); !ok || n != 7 {
		t.Errorf("max_attempts = %d %v", n, ok)
	}
	s := resource(t, m, "google_pubsub_subscription.s")
	if d, ok := attr(t, s, "retry_policy.minimum_backoff").Seconds(); !ok || d != 20 || s.Pos.File != "extra.tf.json" {
		t.Errorf("a .tf.json argument reading a .tf variable = %v %v at %v", d, ok, s.Pos)
	}
	if m.Resource("google_cloud_run_v2_job.j") != nil {
		t.Error("notes.json was read as Terraform")
	}
}

// TestJSONVars: terraform.tfvars.json and *.auto.tfvars.json set the root module's variables,
// their values taken literally.
func TestJSONVars(t *testing.T) {
	m := loadTwin(t, map[string]string{
		"main.tf.json": `{
  "variable": {"retries": {"default": 9}, "name": {"default": "x"}, "region": {}},
  "resource": {"google_cloud_run_v2_job": {"j": {
    "name": "${var.name}", "location": "${var.region}",
    "template": {"template": {"max_retries": "${var.retries}"}}
  }}}
}`,
		"terraform.tfvars.json": `{"retries": 1, "name": "first", "//": "a comment"}`,
		"b.auto.tfvars.json":    `{"name": "literal-${var.x}"}`,
		"a.auto.tfvars":         `region = "us-east1"`,
	})
	j := resource(t, m, "google_cloud_run_v2_job.j")
	if n, ok := attr(t, j, "template.template.max_retries").Int(); !ok || n != 1 {
		t.Errorf("max_retries = %d %v, want 1 from terraform.tfvars.json", n, ok)
	}
	if v := attr(t, j, "name"); !v.Known || v.Pattern != "literal-${var.x}" {
		t.Errorf("name = %+v, want the .auto.tfvars.json value, literally", v)
	}
	if v := attr(t, j, "location"); v.Pattern != "us-east1" {
		t.Errorf("location = %+v", v)
	}
	if _, err := LoadDir(writeModule(t, map[string]string{"main.tf": `variable "x" {}`, "terraform.tfvars.json": `{"x": }`}), Options{Display: base}); err == nil ||
		!strings.Contains(err.Error(), "terraform.tfvars.json:1:7:") {
		t.Errorf("broken terraform.tfvars.json: %v", err)
	}
}

// TestJSONComments: "//" is a comment in a block body, at a label level and at the root;
// inside an expression it is a key like any other.
func TestJSONComments(t *testing.T) {
	m, err := ParseBytes("main.tf.json", []byte(`{
  "//": "root",
  "resource": {
    "//": "types",
    "google_pubsub_topic": {
      "//": "names",
      "t": {"//": "body", "name": "t", "labels": {"//": "kept"}}
    }
  },
  "locals": {"//": "locals", "x": 1}
}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Resources) != 1 {
		t.Fatalf("resources %v", m.Resources)
	}
	r := m.Resources[0]
	if r.Address != "google_pubsub_topic.t" || !reflect.DeepEqual(r.AttrNames(), []string{"labels", "name"}) {
		t.Errorf("resource %s, arguments %v", r.Address, r.AttrNames())
	}
	if v := r.Attr("labels"); v == nil || !v.Cty().Type().HasAttribute("//") {
		t.Errorf(`"//" inside a map argument is a key: %+v`, v)
	}
}

// TestJSONBroken: invalid JSON and JSON of the wrong shape are errors at file:line:col.
func TestJSONBroken(t *testing.T) {
	cases := []struct {
		name, src string
		line, col int
		msg       string
	}{
		{"missing value", "{\n  \"resource\": {\n    \"google_pubsub_topic\": {\n      \"t\": {\"name\": }\n    }\n  }\n}\n", 4, 21, "Missing JSON value"},
		{"unclosed object", "{\n  \"resource\": {\n", 3, 1, ""},
		{"trailing comma", "{\"locals\": {\"a\": 1,}}\n", 1, 19, "Trailing comma"},
		{"extra data", "{}\n{}\n", 2, 1, "Extraneous data"},
		{"root not an object", "\"resource\"\n", 1, 1, "root"},
		{"resource not an object", "{\n  \"resource\": \"x\"\n}\n", 2, 15, "resource types"},
		{"body not an object", "{\"resource\": {\"google_pubsub_topic\": {\"t\": [1]}}}\n", 1, 45, "google_pubsub_topic.t"},
		{"unclosed interpolation", "{\n  \"locals\": {\n    \"a\": \"x-${var.y\"\n  }\n}\n", 3, 0, "Unclosed template interpolation"},
		{"deep nesting", "{\"locals\": {\"x\": " + strings.Repeat("[", 2000) + "}}\n", 1, 1016, "nested deeper"},
		{"argument twice", "{\"resource\": {\"google_pubsub_topic\": {\"t\": {\"name\": \"a\",\n  \"name\": \"b\"}}}}\n", 2, 3, "Attribute redefined"},
		{"argument and block", "{\"resource\": {\"google_pubsub_topic\": {\"t\": {\"labels\": {},\n  \"labels\": 1}}}}\n", 2, 3, "Attribute redefined"},
		{"NUL", "{\"locals\": {\"x\": \"a\x00\"}}\n", 1, 20, "NUL"},
	}
	for _, c := range cases {
		_, err := ParseBytes("bad.tf.json", []byte(c.src), Options{})
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: err = %v, want *Error", c.name, err)
			continue
		}
		if e.Pos.File != "bad.tf.json" || e.Pos.Line != c.line || (c.col != 0 && e.Pos.Col != c.col) || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%s: %v; want bad.tf.json:%d:%d …%s", c.name, e, c.line, c.col, c.msg)
		}
	}
	// On disk, and in a called module.
	dir := writeModule(t, map[string]string{
		"main.tf":                  `module "m" { source = "./m" }`,
		"m/main.tf.json":           "{\n  \"resource\": {\n    \"google_pubsub_topic\": {\"t\": {\"name\": \"t\",}}\n  }\n}\n",
		"ignored.json":             "{",
		"m/not-terraform.tf.json~": "{",
	})
	_, err := LoadDir(dir, Options{Display: base})
	if err == nil || !strings.HasPrefix(err.Error(), "main.tf.json:3:") {
		t.Errorf("a broken .tf.json in a called module: %v", err)
	}
}

// TestHugeNumbers: a number such as 1e9999999 (which fuzzing writes in JSON) is read at once,
// not converted digit by digit to ten million decimal places.
func TestHugeNumbers(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"main.tf", "resource \"google_pubsub_topic\" \"t\" {\n  name = 1e9999999\n}\n"},
		{"main.tf.json", `{"resource": {"google_pubsub_topic": {"t": {"name": -2.5e-9999999}}}}`},
	} {
		m, err := ParseBytes(c.name, []byte(c.src), Options{})
		if err != nil {
			t.Fatal(err)
		}
		v := attr(t, resource(t, m, "google_pubsub_topic.t"), "name")
		s, ok := v.String()
		if !ok || s != v.Pattern || !strings.HasSuffix(s, "e9999999") && !strings.HasSuffix(s, "e-9999999") {
			t.Errorf("%s: %q %q", c.name, s, v.Pattern)
		}
	}
}

// TestJSONRepeatedBlockKey: a block type written twice as a key gives two blocks, as it would
// written twice in a .tf file.
func TestJSONRepeatedBlockKey(t *testing.T) {
	m, err := ParseBytes("main.tf.json", []byte(`{"resource": {"google_eventarc_trigger": {"t": {
  "matching_criteria": {"attribute": "type", "value": "a"},
  "matching_criteria": [{"attribute": "bucket", "value": "b"}]
}}}}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := resource(t, m, "google_eventarc_trigger.t")
	if bs := r.BlocksAt("matching_criteria"); len(bs) != 2 || bs[1].Attr("value").Pattern != "b" {
		t.Errorf("blocks = %v", bs)
	}
	if v := attr(t, r, "matching_criteria.value"); v.Pattern != "a" {
		t.Errorf("the first block: %+v", v)
	}
}
