package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// paymentModule copies the payment client of the quick start into a
// module of its own in a temporary directory, and returns the directory.
func paymentModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(reportRoot, "examples", "payment", "payment.go"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.mod"] = "module example.com/payment\n\ngo 1.26\n"
	files["payment.go"] = string(src)
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFixPayment applies the suggested fixes to the payment client: the
// code still builds and vets, and sleep-ignores-context no longer fires
// while the other findings remain.
func TestFixPayment(t *testing.T) {
	dir := paymentModule(t, map[string]string{})
	r := runIn(t, dir, binary, "code", "--fix", "./...")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (findings without a fix remain); stderr:\n%s", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, "sleep-ignores-context") {
		t.Errorf("sleep-ignores-context still fires after --fix:\n%s", r.stdout)
	}
	for _, rule := range []string{"unclassified-retry", "fixed-sleep", "retry-permanent", "no-cap", "no-jitter"} {
		if !strings.Contains(r.stdout, rule) {
			t.Errorf("--fix lost the %s finding, which has no fix:\n%s", rule, r.stdout)
		}
	}
	fixed := readFile(t, filepath.Join(dir, "payment.go"))
	if strings.Contains(fixed, "time.Sleep(") || !strings.Contains(fixed, "case <-ctx.Done():") {
		t.Errorf("payment.go after --fix:\n%s", fixed)
	}
	if b := runIn(t, dir, "go", "vet", "./..."); b.code != 0 {
		t.Errorf("the fixed code does not build and vet:\n%s", b.stderr)
	}
	again := runIn(t, dir, binary, "code", "--diff", "./...")
	if again.code != 0 || again.stdout != "" {
		t.Errorf("a second --diff found more to fix (exit %d):\n%s", again.code, again.stdout)
	}
}

// TestDiffPayment prints the fixes as a diff that git and patch apply,
// and changes no file.
func TestDiffPayment(t *testing.T) {
	dir := paymentModule(t, map[string]string{})
	before := readFile(t, filepath.Join(dir, "payment.go"))
	r := runIn(t, dir, binary, "code", "--diff", "./...")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (there is a diff); stderr:\n%s", r.code, r.stderr)
	}
	if after := readFile(t, filepath.Join(dir, "payment.go")); after != before {
		t.Error("--diff changed payment.go")
	}
	if !strings.HasPrefix(r.stdout, "--- a/payment.go\n+++ b/payment.go\n@@ ") ||
		strings.Count(r.stdout, "-\t\ttime.Sleep(") != 2 || strings.Count(r.stdout, "+\t\tcase <-ctx.Done():") != 2 {
		t.Errorf("diff:\n%s", r.stdout)
	}
	patch := filepath.Join(t.TempDir(), "fix.patch")
	if err := os.WriteFile(patch, []byte(r.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	if a := runIn(t, dir, "git", "apply", "--check", "--unsafe-paths", patch); a.code != 0 {
		t.Errorf("git apply --check refuses the diff:\n%s", a.stderr)
	}
}

// TestFixHonoursConfiguration leaves the code of a rule turned off alone.
func TestFixHonoursConfiguration(t *testing.T) {
	dir := paymentModule(t, map[string]string{".retrylint.yaml": "severity:\n  sleep-ignores-context: off\n"})
	before := readFile(t, filepath.Join(dir, "payment.go"))
	if r := runIn(t, dir, binary, "code", "--diff", "./..."); r.code != 0 || r.stdout != "" {
		t.Errorf("--diff with the rule off: exit %d\n%s", r.code, r.stdout)
	}
	runIn(t, dir, binary, "code", "--fix", "./...")
	if after := readFile(t, filepath.Join(dir, "payment.go")); after != before {
		t.Error("--fix changed the code of a rule turned off")
	}
}

// TestFixHonoursIgnoredPaths leaves files the configuration ignores alone.
func TestFixHonoursIgnoredPaths(t *testing.T) {
	dir := paymentModule(t, map[string]string{".retrylint.yaml": "ignore: [payment.go]\n"})
	before := readFile(t, filepath.Join(dir, "payment.go"))
	if r := runIn(t, dir, binary, "code", "--diff", "./..."); r.code != 0 || r.stdout != "" {
		t.Errorf("--diff with payment.go ignored: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runIn(t, dir, binary, "code", "--fix", "./..."); r.code != 0 {
		t.Errorf("--fix with payment.go ignored: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if after := readFile(t, filepath.Join(dir, "payment.go")); after != before {
		t.Error("--fix changed an ignored file")
	}
}

// TestFixBrokenPackage changes nothing in a package that does not
// type-check and fails the run with the error's position.
func TestFixBrokenPackage(t *testing.T) {
	dir := paymentModule(t, map[string]string{"broken.go": "package payment\n\nvar x int = \"s\"\n"})
	before := readFile(t, filepath.Join(dir, "payment.go"))
	r := runIn(t, dir, binary, "code", "--fix", "./...")
	if r.code != 2 || !strings.Contains(r.stderr, "broken.go:3:13:") {
		t.Errorf("exit %d, want 2 with broken.go:3:13; stderr:\n%s", r.code, r.stderr)
	}
	if after := readFile(t, filepath.Join(dir, "payment.go")); after != before {
		t.Error("--fix changed a package that does not type-check")
	}
}

// TestUnifiedDiffApplies: the diff of edits anywhere in a file — its
// first and last lines, one without a newline, changes close enough to
// share a hunk and far apart — is one that git apply turns the file into
// the edited one with.
func TestUnifiedDiffApplies(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	var src strings.Builder
	for i := range 40 {
		fmt.Fprintf(&src, "line %d\n", i)
	}
	text := src.String()
	at := func(n int) int { return strings.Index(text, fmt.Sprintf("line %d\n", n)) }
	for _, tc := range []struct {
		name  string
		text  string
		edits []edit
	}{
		{"first line", text, []edit{{start: 0, end: 6, text: "first\nsecond"}}},
		{"last line, no newline", strings.TrimSuffix(text, "\n"), []edit{{start: at(39), end: len(text) - 1, text: "end"}}},
		{"insert at the end", text, []edit{{start: len(text), end: len(text), text: "more\n"}}},
		{"one hunk", text, []edit{{start: at(10), end: at(11), text: ""}, {start: at(14), end: at(14) + 4, text: "LINE\nLINE"}}},
		{"two hunks", text, []edit{{start: at(5), end: at(5) + 4, text: "x"}, {start: at(30), end: at(32), text: "y\n"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "f.go")
			if err := os.WriteFile(file, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			last := 0
			for _, e := range tc.edits {
				want.WriteString(tc.text[last:e.start] + e.text)
				last = e.end
			}
			want.WriteString(tc.text[last:])
			diff := unifiedDiff("f.go", []byte(tc.text), tc.edits)
			patch := filepath.Join(t.TempDir(), "p.diff")
			if err := os.WriteFile(patch, []byte(diff), 0o644); err != nil {
				t.Fatal(err)
			}
			if r := runIn(t, dir, "git", "apply", patch); r.code != 0 {
				t.Fatalf("git apply: %s\n%s", r.stderr, diff)
			}
			if got := readFile(t, file); got != want.String() {
				t.Errorf("after git apply:\n%s\nwant:\n%s\ndiff:\n%s", got, want.String(), diff)
			}
		})
	}
}
