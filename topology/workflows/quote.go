package workflows

import (
	"bytes"
	"strings"

	"github.com/retrylint/retrylint/internal/lazyre"
)

// unquotedExpr finds a block value that starts with an unquoted "${",
// after "key: " and/or "- ".
var unquotedExpr = lazyre.New(`^\s*(?:-\s+)*(?:(?:"[^"]*"|'[^']*'|[^\s'"#{}\[\],&*!|>%@` + "`" + `][^#{}\[\],]*?)\s*:\s+)?\$\{`)

// QuoteHint says how to write the value a YAML syntax error (msg) at line
// of src broke on, when it is a ": " inside an unquoted "${…}" value on
// that line: a plain YAML scalar ends at ": ", so an expression holding one
// must be quoted as a whole, as Workflows itself requires. "" otherwise.
func QuoteHint(src []byte, line int, msg string) string {
	if line < 1 || !strings.Contains(msg, "mapping values are not allowed") {
		return ""
	}
	for i := 1; i < line; i++ {
		nl := bytes.IndexByte(src, '\n')
		if nl < 0 {
			return ""
		}
		src = src[nl+1:]
	}
	if nl := bytes.IndexByte(src, '\n'); nl >= 0 {
		src = src[:nl]
	}
	if !unquotedExpr.Regexp().Match(src) {
		return ""
	}
	return `; a value holding ": " is read by YAML as a mapping: quote the expression as a whole, e.g. text: '${"failed: " + e.message}'`
}
