package terraform

import (
	"os"
	"path/filepath"
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
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseBytes("fuzz.tf", data, Options{MaxFileSize: 1 << 16})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
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
				}
				if s := r.Source(name); s != nil {
					for line := 0; line < 4; line++ {
						s.Map(line, line*3)
					}
					s.Offsets()
				}
			}
			for _, p := range []string{"template.template.max_retries", "retry_config.max_attempts", "labels.a.b", "a.b.c"} {
				r.Attr(p)
				r.BlockAt(p)
			}
		}
	})
}
