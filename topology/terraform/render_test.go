package terraform

import (
	"fmt"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/growth"
)

// workflowOf is a workflow whose source_contents heredoc has n steps, each returning
// ${local.v}, with local.v the given expression.
func workflowOf(n int, v string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "locals {\n  v = %s\n}\nresource \"google_workflows_workflow\" \"w\" {\n  name = \"w\"\n  source_contents = <<-EOT\n    main:\n      steps:\n", v)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "        - s%d:\n            return: ${local.v}\n", i)
	}
	b.WriteString("  EOT\n}\n")
	return []byte(b.String())
}

// TestRenderedSourceCapped: a workflow source rendered from many interpolations of a large
// value is refused past the value cap, as the value itself would be.
func TestRenderedSourceCapped(t *testing.T) {
	m, err := ParseBytes("main.tf", workflowOf(200, `"`+strings.Repeat("x", 100<<10)+`"`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := m.Resources[0].Source("source_contents")
	if err := m.Err(); err == nil || !strings.Contains(err.Error(), "more than 16 MiB") || !strings.HasPrefix(err.Error(), "main.tf:") {
		t.Errorf("err = %v, want main.tf:…: more than 16 MiB", err)
	}
	if s == nil || s.Known || len(s.Text) > 0 {
		t.Errorf("rendered %+v, want a text not known", s)
	}
}

// TestRenderLinear: rendering a source of 4n interpolations, each unknown, allocates about 4
// times what n do.
func TestRenderLinear(t *testing.T) {
	growth.Linear(t, 500, func(n int) *Module {
		m, err := ParseBytes("main.tf", append([]byte("variable \"x\" {}\n"), workflowOf(n, `var.x`)...), Options{})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}, func(m *Module) {
		if s := m.Resources[0].Source("source_contents"); s == nil || !s.Known {
			t.Fatal("not rendered")
		}
	})
}
