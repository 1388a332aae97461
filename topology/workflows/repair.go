package workflows

import (
	"strings"

	"github.com/retrylint/retrylint/internal/lazyre"
)

// exprValueStart finds a block value that is an unquoted "${": after "key: " and/or "- ".
var exprValueStart = lazyre.New(`^(\s*(?:-\s+)*(?:(?:"[^"]*"|'[^']*'|[^\s'"#{}\[\],&*!|>%@` + "`" + `][^#]*?)\s*:\s+)?)\$\{`)

// quoteExprScalars single-quotes unquoted "${...}" values. Expressions such as
// ${"a: " + b} are common in real sources, but a ": " inside a plain YAML scalar is a syntax
// error; quoting keeps the value and the line numbers. It is used only when the source does not
// parse as it is. It reports whether anything changed.
func quoteExprScalars(src []byte) ([]byte, bool) {
	lines := strings.Split(string(src), "\n")
	changed := false
	for i := 0; i < len(lines); i++ {
		m := exprValueStart.FindStringSubmatchIndex(lines[i])
		if m == nil {
			continue
		}
		start := m[3] // offset of "${" in the line
		base := indentOf(lines[i])
		endLine, endCol := closeExpr(lines, i, start, base)
		if endLine < 0 {
			continue
		}
		for j := i; j <= endLine; j++ {
			from, to := 0, len(lines[j])
			if j == i {
				from = start
			}
			if j == endLine {
				to = endCol + 1
			}
			body := strings.ReplaceAll(lines[j][from:to], "'", "''")
			pre, post := lines[j][:from], lines[j][to:]
			if j == i {
				body = "'" + body
			}
			if j == endLine {
				body += "'"
			}
			lines[j] = pre + body + post
		}
		changed = true
		i = endLine
	}
	return []byte(strings.Join(lines, "\n")), changed
}

// closeExpr finds the "}" that closes the expression starting at lines[i][start:]. Continuation
// lines must be indented deeper than base. It returns -1 when there is no clear end.
func closeExpr(lines []string, i, start, base int) (int, int) {
	depth := 0
	inStr := byte(0)
	for j := i; j < len(lines) && j < i+200; j++ {
		l := lines[j]
		from := 0
		if j == i {
			from = start + 1 // past '$'
		} else if t := strings.TrimSpace(l); t != "" && indentOf(l) <= base {
			if !strings.HasPrefix(t, "}") && !strings.HasPrefix(t, ")") && !strings.HasPrefix(t, "]") {
				return -1, -1
			}
			// A closing bracket at the key's indentation: indent it so it continues the scalar.
			lines[j] = strings.Repeat(" ", base+1) + t
			l = lines[j]
		}
		for k := from; k < len(l); k++ {
			c := l[k]
			switch {
			case inStr != 0:
				if c == '\\' {
					k++
				} else if c == inStr {
					inStr = 0
				}
			case c == '"' || c == '\'':
				inStr = c
			case c == '{':
				depth++
			case c == '}':
				depth--
				if depth == 0 {
					if rest := strings.TrimSpace(l[k+1:]); rest == "" || strings.HasPrefix(rest, "#") {
						return j, k
					}
					return lastBrace(l, j, i)
				}
			}
		}
		if j == i && inStr != 0 {
			return lastBrace(l, j, i)
		}
	}
	return -1, -1
}

// lastBrace falls back to the last "}" of a single-line expression the scanner could not follow.
func lastBrace(l string, j, i int) (int, int) {
	if j != i {
		return -1, -1
	}
	t := strings.TrimRight(l, " \t")
	if strings.HasSuffix(t, "}") {
		return j, len(t) - 1
	}
	return -1, -1
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }
