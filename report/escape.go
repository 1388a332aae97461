package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// EscapeText makes s safe to print on one line of text output: control
// characters (newlines, carriage returns, escape sequences, NUL), invalid
// UTF-8, Unicode line separators and bidirectional overrides are written
// as Go-style escapes (\n, \x1b, \u2028). A name, message or file name
// taken from the input then cannot start a line of its own: no fake
// file:line:col finding, no GitHub Actions ::error command, no terminal
// escape sequence.
func EscapeText(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeFormat(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// EscapeLineStart is EscapeText for what opens a line (a finding's file
// name): a leading "::", which GitHub Actions reads as a workflow
// command, is escaped too.
func EscapeLineStart(s string) string {
	s = EscapeText(s)
	if strings.HasPrefix(s, "::") {
		return `\x3a` + s[1:]
	}
	return s
}

// needsEscape reports whether EscapeText would change s.
func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || unsafeFormat(r) {
			return true
		}
		i += size
	}
	return false
}

// unsafeFormat reports the format characters that break or reorder a line
// on display: line and paragraph separators, bidirectional embeddings,
// overrides and isolates.
func unsafeFormat(r rune) bool {
	return r == 0x2028 || r == 0x2029 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}
