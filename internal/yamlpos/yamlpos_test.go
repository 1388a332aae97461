package yamlpos

import (
	"testing"

	"go.yaml.in/yaml/v3"
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
