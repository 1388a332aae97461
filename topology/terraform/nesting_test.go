package terraform

import (
	"errors"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/growth"
)

// deep is a .tf file whose one local is expr at line 2, column 7.
func deep(expr string) []byte { return []byte("locals {\n  x = " + expr + "\n}\n") }

func repeat(s string, n int) string { return strings.Repeat(s, n) }

// TestDeepNestingRefusedBeforeParsing: an expression that nests past the bound, by brackets,
// operators, indexes, interpolations or template directives, is an *Error at the place it
// passes the bound, from every entry that parses (the loader, the syntax check of a skipped
// file, a .tfvars file), never a stack overflow.
func TestDeepNestingRefusedBeforeParsing(t *testing.T) {
	const n = 100000
	cases := []struct {
		name string
		file string
		src  []byte
		line int
	}{
		{"parentheses", "deep.tf", deep(repeat("(", n) + "1" + repeat(")", n)), 2},
		{"negations", "deep.tf", deep(repeat("!", n) + "true"), 2},
		{"minus signs", "deep.tf", deep(repeat("- ", n) + "1"), 2},
		{"a chain of additions", "deep.tf", deep(repeat("1 + ", n) + "1"), 2},
		{"a chain of conditionals", "deep.tf", deep(repeat("true ? 1 : ", n) + "2"), 2},
		{"indexes", "deep.tf", deep("local.a" + repeat("[local.i]", n)), 2},
		{"interpolations", "deep.tf", deep(repeat(`"${`, n) + "1" + repeat(`}"`, n)), 2},
		{"template directives", "deep.tf", deep("<<EOF\n" + repeat("%{ if true }", n) + "x" + repeat("%{ endif }", n) + "\nEOF"), 3},
		{"JSON arrays", "deep.tf.json", []byte(`{"locals": {"x": ` + repeat("[", n) + repeat("]", n) + "}}\n"), 1},
		{"JSON string", "deep.tf.json", []byte(`{"locals": {"x": "` + repeat(`\u0024{(`, n) + "1" + repeat(")}", n) + `"}}`), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for entry, parse := range map[string]func() error{
				"ParseBytes":  func() error { _, err := ParseBytes(c.file, c.src, Options{MaxFileSize: 1 << 30}); return err },
				"CheckSyntax": func() error { return CheckSyntax(c.file, c.src) },
			} {
				var e *Error
				if err := parse(); !errors.As(err, &e) || e.Pos.File != c.file || e.Pos.Line != c.line || !strings.Contains(e.Msg, "nested deeper than 1000") {
					t.Errorf("%s: %v, want %s:%d:…: nested deeper than 1000", entry, err, c.file, c.line)
				}
			}
		})
	}
	dir := writeModule(t, map[string]string{"main.tf": "variable \"x\" {}\n", "terraform.tfvars": "x = " + repeat("[", n) + "\n"})
	if _, err := LoadDir(dir, Options{}); err == nil || !strings.Contains(err.Error(), "terraform.tfvars:1:") || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("terraform.tfvars: %v", err)
	}
}

// TestNestingCountsTheExpressionNotTheText: brackets in strings and comments nest nothing, a
// dash inside a name is no operator, and a long list or many arguments are not deep.
func TestNestingCountsTheExpressionNotTheText(t *testing.T) {
	for name, src := range map[string]string{
		"brackets in a string":    "locals {\n  x = \"" + repeat("(", 5000) + "\"\n}\n",
		"brackets in a comment":   "# " + repeat("[", 5000) + "\nlocals {\n  x = 1 // " + repeat("{", 5000) + "\n  /* " + repeat("(", 5000) + " */\n}\n",
		"brackets in a heredoc":   "locals {\n  x = <<-EOT\n    " + repeat("(", 5000) + "\n  EOT\n  y = 1\n}\n",
		"dashed names":            "locals {\n  x = [" + repeat("local.a-b, ", 3000) + "1]\n}\n",
		"many arguments":          repeat("locals {\n  x = 1 + 2 + 3\n}\n", 3000),
		"many list items":         "locals {\n  x = [" + repeat("1 + 1, ", 3000) + "]\n}\n",
		"many escaped dollars":    "locals {\n  x = \"" + repeat("$${(", 3000) + "\"\n}\n",
		"many sequential ifs":     "locals {\n  x = <<EOF\n" + repeat("%{ if true }a%{ endif }", 3000) + "\nEOF\n}\n",
		"many object items":       "locals {\n  x = {\n" + repeat("    a = 1 + 2 - 3\n", 3000) + "  }\n}\n",
		"JSON with many elements": `{"locals": {"x": [` + repeat(`-1, "${1 + 1}", `, 3000) + `0]}}`,
	} {
		file := "ok.tf"
		if strings.HasPrefix(src, "{") {
			file = "ok.tf.json"
		}
		if _, err := ParseBytes(file, []byte(src), Options{}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestNestingScanLinear: refusing n nested parentheses costs the same at any n past the
// bound, not memory in proportion to n (a parse first) or more.
func TestNestingScanLinear(t *testing.T) {
	growth.Linear(t, 25000, func(n int) []byte { return deep(repeat("(", n) + "1" + repeat(")", n)) }, func(src []byte) {
		if CheckSyntax("deep.tf", src) == nil {
			t.Fatal("accepted")
		}
	})
}
