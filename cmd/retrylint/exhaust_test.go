package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (path → text) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCodeLoopsNestedTooDeep: a function of 400 nested retry loops ends the run at once with
// exit status 2 and the place of the first loop past the bound, said once, not by each rule
// that needs the loops.
func TestCodeLoopsNestedTooDeep(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\nimport \"time\"\n\nfunc op() error { return nil }\n\nfunc F() {\n")
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, "for a%d := 0; a%d < 3; a%d++ {\nif err := op(); err == nil { break }\ntime.Sleep(time.Second)\n", i, i, i)
	}
	b.WriteString(strings.Repeat("}\n", 400) + "}\n")
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"go.mod": "module example.com/p\n\ngo 1.24\n", "p.go": b.String()})
	_, err := checkCode(codeConfig{Dir: dir, Patterns: []string{"./..."}}, testRules)
	if err == nil || !strings.Contains(err.Error(), "p.go:200:1: loops nested more than 64 deep in one function") ||
		strings.Contains(err.Error(), "prerequisites") {
		t.Errorf("err = %v, want p.go:200:1: loops nested more than 64 deep… alone", err)
	}
}

// TestTopologyInputsThatExhaust: the inputs that took the machine's memory or minutes end
// with exit status 2 and the place in the file.
func TestTopologyInputsThatExhaust(t *testing.T) {
	doubling := "locals {\n  l0 = \"0123456789abcdef\"\n"
	for i := 1; i <= 40; i++ {
		doubling += fmt.Sprintf("  l%d = \"${local.l%d}${local.l%d}\"\n", i, i-1, i-1)
	}
	doubling += "}\nresource \"google_pubsub_subscription\" \"s\" {\n  name = local.l40\n}\n"
	for _, c := range []struct {
		name, file, src, want string
	}{
		{"format width", "main.tf", "resource \"google_pubsub_subscription\" \"s\" {\n  name = format(\"%999999999s\", \"x\")\n}\n", "main.tf:2:10: this expression makes a value of more than 16 MiB"},
		{"indent", "main.tf", "resource \"google_pubsub_subscription\" \"s\" {\n  name = indent(100000000, \"a\\nb\")\n}\n", "main.tf:2:10: this expression makes a value of more than 16 MiB"},
		{"doubling locals", "main.tf", doubling, "main.tf:22:9: this expression makes a value of more than 16 MiB"},
		{"nested parentheses", "main.tf", "locals {\n  x = " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + "\n}\nresource \"google_pubsub_subscription\" \"s\" {\n  name = \"s\"\n}\n", "main.tf:2:1006: expression nested deeper than 1000 levels"},
		{"nested JSON", "main.tf.json", `{"resource": {"google_pubsub_subscription": {"s": {"name": "s"}}}, "locals": {"x": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}}", "main.tf.json:1:"},
		{"duplicate key", "job.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\nspec:\n  backoffLimit: 0\n  backoffLimit: 10\n", "job.yaml:7:3: invalid YAML: duplicate key \"backoffLimit\""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{c.file: c.src})
			_, stderr, code := runCLI(t, dir, ".")
			if code != 2 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr, c.want)
			}
		})
	}
}
