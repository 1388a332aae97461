package topology_test

import (
	"strings"
	"testing"
)

// jobWith is a Cloud Run job (v1) whose container template holds lines, after a label whose
// value is label.
func jobWith(label, lines string) string {
	return "apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata:\n  name: nightly\n  labels:\n    note: " + label + "\n" +
		"spec:\n  template:\n    spec:\n      template:\n        spec:\n" + lines
}

// TestDuplicateKeyIsAnError: a key written twice in one mapping is an input error at the
// second, as strict Kubernetes decoding has it, wherever the mapping is: no reader takes the
// first value while another takes the last.
func TestDuplicateKeyIsAnError(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line, col int
		key       string
	}{
		{"maxRetries twice", jobWith("x", "          maxRetries: 0\n          maxRetries: 10\n"), 13, 11, "maxRetries"},
		{"in metadata", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: a\n  name: b\nspec:\n  backoffLimit: 1\n", 5, 3, "name"},
		{"backoffLimit in a flow mapping", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: a}\nspec: {backoffLimit: 1, backoffLimit: 6}\n", 4, 25, "backoffLimit"},
		{"in the second document", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: a}\n---\nname: projects/p/subscriptions/s\npushConfig:\n  pushEndpoint: https://a\n  pushEndpoint: https://b\n", 8, 3, "pushEndpoint"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := loadErr(t, "dup.yaml", c.src)
			if e.Pos.Line != c.line || e.Pos.Col != c.col || !strings.Contains(e.Msg, `duplicate key "`+c.key+`"`) {
				t.Errorf("%v, want dup.yaml:%d:%d: duplicate key %q", e, c.line, c.col, c.key)
			}
		})
	}
}

// TestPositionsAfterLineSeparators: U+0085 and U+2028 in a value end no line in the file; a
// place reported after them is on the line the file shows.
func TestPositionsAfterLineSeparators(t *testing.T) {
	for _, sep := range []string{"\u0085", "\u2028", "\u2029"} {
		e := loadErr(t, "job.yaml", jobWith(`"a`+sep+`b"`, "          maxRetries: many\n"))
		if e.Pos.Line != 12 || e.Pos.Col != 23 {
			t.Errorf("%U: %v, want job.yaml:12:23", []rune(sep)[0], e)
		}
	}
}

// TestWorkflowDuplicateKeyAndSeparators: a Workflows source is held to the same: a key twice
// is an error at the second, and positions after U+2028 are on the file's lines.
func TestWorkflowDuplicateKeyAndSeparators(t *testing.T) {
	e := loadErr(t, "flow.workflows.yaml", "main:\n  steps:\n    - a:\n        call: http.get\n        args: {url: https://x.example.com}\n        call: http.post\n")
	if e.Pos.Line != 6 || e.Pos.Col != 9 || !strings.Contains(e.Msg, `duplicate key "call"`) {
		t.Errorf("%v, want flow.workflows.yaml:6:9: duplicate key \"call\"", e)
	}
	e = loadErr(t, "flow.workflows.yaml", "main:\n  steps:\n    - a:\n        assign:\n          - note: \"x\u2028y\"\n    - b:\n        next: nowhere\n")
	if e.Pos.Line != 7 {
		t.Errorf("%v, want line 7", e)
	}
}

// TestLargeFileErrorLine: past 1 MiB a syntax error is on its line too, not the one the
// decoder names (that of the enclosing block, one less for the parser's errors).
func TestLargeFileErrorLine(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata:\n  name: nightly\n  annotations:\n")
	lines := 5
	for b.Len() < 1<<20+1000 {
		b.WriteString("    a" + strings.Repeat("x", 40) + ": \"v\u0085w\"\n")
		lines++
	}
	b.WriteString("spec:\n  template: [unclosed\n  other: 1\n")
	e := loadErr(t, "big.yaml", b.String())
	if e.Pos.Line != lines+2 || e.Pos.Col != 13 {
		t.Errorf("%v, want big.yaml:%d:13", e, lines+2)
	}
}
