package workflows

import "testing"

// TestCutShortExpressionsAreErrors: an expression the platform refuses —
// empty, an unclosed parenthesis, bracket or string, an operator without
// operand — is an error at its own column, not an unknown value.
func TestCutShortExpressionsAreErrors(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{`'${}'`, `flow.yaml:4:18: empty expression "${}"`},
		{`'${(x}'`, `flow.yaml:4:22: invalid expression: expected ")", found the end of the expression`},
		{`'${"abc}'`, `flow.yaml:4:20: invalid expression: unterminated string`},
		{`${x +}`, `flow.yaml:4:22: invalid expression: unexpected end of expression`},
		{`"${ [1, 2 }"`, `flow.yaml:4:27: invalid expression: expected "]", found the end of the expression`},
	} {
		src := "main:\n  steps:\n    - b:\n        return: " + tc.expr + "\n"
		_, err := Parse("flow.yaml", []byte(src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v\nwant %s", tc.expr, err, tc.want)
		}
	}
	// Well-formed, and syntax the analysis does not model, still parse.
	for _, expr := range []string{`${x + 1}`, `${"a}b"}`, `${map.get(m, "k")}`, `'${"{\\"a\\": 1}" }'`} {
		src := "main:\n  params: [x, m]\n  steps:\n    - b:\n        return: " + expr + "\n"
		if _, err := Parse("flow.yaml", []byte(src)); err != nil {
			t.Errorf("%s: %v", expr, err)
		}
	}
}
