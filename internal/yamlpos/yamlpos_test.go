package yamlpos

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/growth"
)

func TestLocate(t *testing.T) {
	cases := []struct {
		name, src string
		line, col int
	}{
		{"second mapping value on a line", "a: 1\nb: x: y\n", 2, 5},
		{"key indented less than its siblings", "a:\n  b: 1\n c: 2\n", 3, 2},
		{"tab as indentation", "a:\n\tb: 1\n", 2, 1},
		{"unterminated quote", "a: \"unterminated\nb: 2\n", 1, 4},
		{"list item out of line", "- a: 1\n  b: 2\n - c\n", 3, 2},
		{"key after a list at its indentation", "a:\n  - b\n  c: d\n", 3, 3},
		{"unquoted expression with a colon", "main:\n  steps:\n    - x:\n        assign:\n          - a: ${\"x: y\"}\n", 5, 20},
		{"continuation that is a mapping", "key: value\n  other: 1\n", 2, 8},
		{"character that starts no token", "a: 1\nb: @x\n", 2, 4},
		{"unclosed flow sequence", "a: [1, 2\n", 1, 4},
		{"unclosed flow sequence in a block", "main:\n  steps:\n    - a:\n        call: [x\n", 4, 15},
		{"non-ASCII before the break", "é: ü: x\n", 1, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var n yaml.Node
			err := yaml.Unmarshal([]byte(c.src), &n)
			if err == nil {
				t.Fatal("no error")
			}
			line, col, msg := Locate([]byte(c.src), err)
			if line != c.line || col != c.col {
				t.Errorf("%d:%d (%s), want %d:%d", line, col, msg, c.line, c.col)
			}
		})
	}
}

// padded is src after n lines of comment, the first of which holds a U+0085 (a line end for
// YAML 1.1, not for an editor): the same error, n lines down.
func padded(n int, src string) string { return "# \u0085\n" + strings.Repeat("# padding\n", n-1) + src }

// TestLocateLargeFiles: an error at the end of a file of 100,000 lines is found at its line
// and column, past the size the decoder was once replayed on, and the decoder's own line
// (that of the enclosing block, and one less for the parser's errors) is not taken.
func TestLocateLargeFiles(t *testing.T) {
	const n = 150000 // over 1 MiB of padding
	for _, c := range []struct {
		name, src string
		line, col int
	}{
		{"key indented less than its siblings", "a:\n  b: 1\n c: 2\n", 3, 2},
		{"unclosed flow sequence", "a: [1, 2\n", 1, 4},
		{"second mapping value on a line", "a: 1\nb: x: y\n", 2, 5},
		{"list item out of line", "- a: 1\n  b: 2\n - c\n", 3, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := padded(n, c.src)
			var v yaml.Node
			err := yaml.Unmarshal([]byte(src), &v)
			if err == nil {
				t.Fatal("no error")
			}
			line, col, msg := Locate([]byte(src), err)
			if line != n+c.line || col != c.col {
				t.Errorf("%d:%d (%s), want %d:%d", line, col, msg, n+c.line, c.col)
			}
		})
	}
}

// TestLocateAfterLineSeparators: U+0085 and U+2028 in a value are no line ends for an editor
// (YAML 1.1 counts them): the error after them is on the line the file shows.
func TestLocateAfterLineSeparators(t *testing.T) {
	for _, sep := range []string{"\u0085", "\u2028", "\u2029"} {
		src := "a: \"one" + sep + "two\"\nb: 1\nc: x: y\n"
		var v yaml.Node
		err := yaml.Unmarshal([]byte(src), &v)
		if err == nil {
			t.Fatal("no error")
		}
		if line, col, msg := Locate([]byte(src), err); line != 3 || col != 5 {
			t.Errorf("%U: %d:%d (%s), want 3:5", []rune(sep)[0], line, col, msg)
		}
	}
}

// TestLocateDecodesOnce: finding the place costs one decode of the source more, however
// large it is and wherever the error lies, not a replay of its prefixes.
func TestLocateDecodesOnce(t *testing.T) {
	src := []byte(padded(20000, "a:\n  b: 1\n c: 2\n"))
	var v yaml.Node
	err := yaml.Unmarshal(src, &v)
	before := decodes.Load()
	Locate(src, err)
	if d := decodes.Load() - before; d != 1 {
		t.Errorf("%d decodes, want 1", d)
	}
}

// TestLocateLinear: locating an error at the end of a file of 4n lines allocates about 4
// times what n lines do.
func TestLocateLinear(t *testing.T) {
	growth.Linear(t, 5000, func(n int) []byte { return []byte(padded(n, "a:\n  b: 1\n c: 2\n")) }, func(src []byte) {
		var v yaml.Node
		if line, _, _ := Locate(src, yaml.Unmarshal(src, &v)); line < 3 {
			t.Fatal("not located")
		}
	})
}

// TestLocateUnknownAnchor: an alias to no anchor, which the decoder reports without a place,
// is found where it is written.
func TestLocateUnknownAnchor(t *testing.T) {
	src := "a: 1\nb:\n  c: *nothing\n  d: *missing\n"
	var v yaml.Node
	err := yaml.Unmarshal([]byte(src), &v)
	if line, col, msg := Locate([]byte(src), err); line != 3 || col != 6 {
		t.Errorf("%d:%d (%s), want 3:6", line, col, msg)
	}
}

// FuzzLocate: whatever the input, an error is placed on one of its lines, and the positions
// of what decodes are on its lines too (or just past the last, where the decoder puts an
// empty document).
func FuzzLocate(f *testing.F) {
	for _, s := range []string{"a: 1\nb: x: y\n", "a: [1, 2\n", "a: \"x\u0085y\"\nb: *c\n", "\ufeffa:\r b\r\n  c: [d\u2028]\n", "- a\n - b\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		lines := strings.Count(src, "\n") + 1
		var n yaml.Node
		err := yaml.Unmarshal([]byte(src), &n)
		if err != nil {
			line, col, _ := Locate([]byte(src), err)
			if line < 1 || line > lines || col < 1 {
				t.Fatalf("%d:%d, want a place on one of %d lines", line, col, lines)
			}
			return
		}
		Fix([]byte(src), &n)
		Duplicate(&n)
		var walk func(*yaml.Node)
		walk = func(n *yaml.Node) {
			if n.Line > lines+1 || n.Line < 0 || n.Line > 0 && n.Column < 1 {
				t.Fatalf("node at %d:%d, want a place on one of %d lines", n.Line, n.Column, lines)
			}
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(&n)
	})
}
