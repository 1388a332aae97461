package terraform

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/shareddata"
)

// FuzzParse feeds arbitrary bytes to the reader and to every accessor of what it returns: an
// input gives a module or an *Error, never a panic.
func FuzzParse(f *testing.F) {
	corpus, _ := shareddata.Find("corpus/gcp/terraform")
	files, _ := filepath.Glob(filepath.Join(corpus, "*.tf"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("variable \"x\" {}\nlocals { a = \"${var.x}-${local.a}\" }\nresource \"google_workflows_workflow\" \"w\" {\n  name = local.a\n  source_contents = <<-EOF\n    - s:\n        return: $${1}\n    - t: ${var.x}\n  EOF\n}\n"))
	f.Add([]byte("resource \"google_cloud_tasks_queue\" \"q\" {\n  dynamic \"retry_config\" {\n    for_each = [1]\n    content { max_attempts = retry_config.value }\n  }\n  labels = { a = { b = \"c\" } }\n}\n"))
	f.Add([]byte("module \"m\" { source = \"./m\" }\nresource \"google_cloud_run_v2_job\" \"j\" { name = module.m.x[0] }\n"))
	f.Add([]byte("locals {\n  a = " + strings.Repeat("!", 1200) + "true\n  b = " + strings.Repeat("1 + ", 1200) + "1\n  c = \"" + strings.Repeat("(", 1200) + "\" # ((((\n}\n"))
	f.Add([]byte("locals {\n  x = <<-EOT\n    " + strings.Repeat("%{ if true }${", 600) + "1" + strings.Repeat("}%{ endif }", 600) + "\n  EOT\n}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzParse(t, "fuzz.tf", data)
	})
}

// fuzzParse reads data as the file name and calls every accessor of what it gives.
func fuzzParse(t *testing.T, name string, data []byte) {
	m, err := ParseBytes(name, data, Options{MaxFileSize: 1 << 16})
	if err != nil {
		e, ok := err.(*Error)
		if !ok {
			t.Fatalf("error of type %T: %v", err, err)
		}
		if e.Pos.File != name || e.Pos.Line < 1 || e.Pos.Col < 1 {
			t.Fatalf("error at %v, want a place in %s: %v", e.Pos, name, err)
		}
		return
	}
	for _, r := range m.Resources {
		for _, name := range r.AttrNames() {
			if v := r.Attr(name); v != nil {
				v.String()
				v.Int()
				v.Seconds()
				v.Strings()
				v.Len()
			}
			if s := r.Source(name); s != nil {
				for line := 0; line < 4; line++ {
					s.Map(line, line*3)
				}
				s.Offsets()
			}
		}
		for _, p := range []string{"template.template.max_retries", "template.template.containers.image", "retry_config.max_attempts", "labels.a.b", "a.b.c", "count", "for_each"} {
			r.Attr(p)
			r.BlockAt(p)
			r.BlocksAt(p)
			r.Source(p)
		}
	}
}

// FuzzParseJSON is FuzzParse for Terraform's JSON syntax (.tf.json).
func FuzzParseJSON(f *testing.F) {
	for _, g := range []string{"testdata/json/*.tf.json", "../../testdata/topology/scenarios/*/*.tf.json", "../../testdata/topology/tfjson/*/*.tf.json"} {
		files, _ := filepath.Glob(g)
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(`{"variable": {"x": {"default": "${literal}"}}, "locals": [{"a": "${var.x}-${local.a}"}], "resource": {"google_workflows_workflow": {"w": {"name": "${local.a}", "source_contents": "- s:\n    return: $${1}\n- t: ${var.x}\n"}}}}`))
	f.Add([]byte(`{"resource": {"google_cloud_tasks_queue": {"q": {"dynamic": {"retry_config": {"for_each": "${[1]}", "content": {"max_attempts": "${retry_config.value}"}}}, "labels": {"a": {"b": "c"}, "//": "x"}}}}}`))
	f.Add([]byte(`{"module": {"m": {"source": "./m"}}, "resource": {"google_cloud_run_v2_job": {"j": [{"name": "${module.m.x[0]}", "count": 0}, {"name": "again"}]}}}`))
	f.Add([]byte(`[{"resource": {"google_pubsub_subscription": {"s": {"dead_letter_policy": [{"max_delivery_attempts": 5}, null], "retry_policy": null}}}}, {"//": "c"}]`))
	f.Add([]byte(`{"resource": {"google_cloud_run_v2_job": {"j": {"template": {"template": [{"max_retries": "\u0033"}], "x": {"template": "%{ if true }${1}%{ endif }"}}}}}}`))
	f.Add([]byte(`{"locals": {"x": "` + strings.Repeat(`\u0024{(`, 1200) + "1" + strings.Repeat(")}", 1200) + `", "y": ` + strings.Repeat("[", 1200) + strings.Repeat("]", 1200) + `}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzParse(t, "fuzz.tf.json", data)
	})
}

// FuzzLoadModule loads a module of two .tf files the fuzzer writes, with a
// workflow source and a template that file() and templatefile() read, a
// local module, and a file() path outside the module: any content gives a
// module or an *Error, never a panic, and nothing outside is read.
func FuzzLoadModule(f *testing.F) {
	f.Add([]byte("resource \"google_workflows_workflow\" \"w\" {\n  name = \"w\"\n  source_contents = file(\"${path.module}/wf.yaml\")\n}\n"),
		[]byte("resource \"google_cloud_scheduler_job\" \"s\" {\n  name = \"s\"\n  http_target {\n    uri = \"https://x\"\n    body = base64encode(templatefile(\"tpl.json\", { job = var.job }))\n  }\n}\nvariable \"job\" { default = \"j\" }\n"),
		[]byte("main:\n  steps:\n    - s:\n        return: $${1}\n"), []byte("{\"job\": \"${job}\"}"))
	f.Add([]byte("module \"m\" { source = \"./m\" }\nlocals { x = file(\"../outside.yaml\") }\n"),
		[]byte("resource \"google_cloud_run_v2_job\" \"j\" { name = module.m.name }\n"),
		[]byte("output \"name\" { value = \"from-module\" }\n"), []byte("%{ for x in [1] }${x}%{ endfor }"))
	f.Fuzz(func(t *testing.T, mainTF, otherTF, wf, tpl []byte) {
		base := t.TempDir()
		dir := filepath.Join(base, "mod")
		if err := os.MkdirAll(filepath.Join(dir, "m"), 0o755); err != nil {
			t.Fatal(err)
		}
		for name, data := range map[string][]byte{"main.tf": mainTF, "other.tf": otherTF, "wf.yaml": wf, "tpl.json": tpl, "m/main.tf": wf} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(base, "outside.yaml"), []byte("secret"), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := LoadDir(dir, Options{MaxFileSize: 1 << 16})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		for _, r := range m.Resources {
			for _, name := range r.AttrNames() {
				if s := r.Source(name); s != nil && strings.Contains(s.Text, "secret") && !bytes.Contains(mainTF, []byte("secret")) && !bytes.Contains(otherTF, []byte("secret")) && !bytes.Contains(wf, []byte("secret")) && !bytes.Contains(tpl, []byte("secret")) {
					t.Fatalf("%s.%s read a file outside the module: %+v", r.Type, name, s)
				}
			}
		}
	})
}
