package report

import (
	"bytes"
	"io"
	"unicode"
	"unicode/utf8"
)

// commandEscapes are how a format writes ':' and '#' without the
// characters themselves, to break up what a CI runner would read as a
// command.
type commandEscapes struct{ colon, hash string }

var (
	textEscapes   = commandEscapes{`\x3a`, `\x23`}
	htmlEscapes   = commandEscapes{"&#58;", "&#35;"} // Markdown, and DOT labels
	jsonEscapes   = commandEscapes{`\u003a`, `\u0023`}
	githubEscapes = commandEscapes{"%3A", "%23"} // shown as written: the runner decodes neither in a message
)

// defuse rewrites in out what a CI runner would read as a command: a line
// that starts, after white space, with "::" (a GitHub Actions workflow
// command; the runner trims the line first) and "##[" or "##vso[" anywhere
// in a line (the legacy GitHub and the Azure Pipelines logging commands).
// Lines end at "\n" and at "\r", as the runner splits them. Values are
// escaped by each format already; this is the last line of defence, over
// the whole output, for what an escape missed.
func defuse(out []byte, esc commandEscapes) []byte {
	if !needsDefuse(out) {
		return out
	}
	var b bytes.Buffer
	lineStart := true
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRune(out[i:])
		switch {
		case r == '\n' || r == '\r':
			lineStart = true
		case lineStart && unicode.IsSpace(r):
		case lineStart && r == ':' && bytes.HasPrefix(out[i:], []byte("::")):
			b.WriteString(esc.colon)
			i += size
			lineStart = false
			continue
		case r == '#' && (bytes.HasPrefix(out[i:], []byte("##[")) || bytes.HasPrefix(out[i:], []byte("##vso["))):
			b.WriteString("#" + esc.hash)
			i += 2
			lineStart = false
			continue
		default:
			lineStart = false
		}
		b.Write(out[i : i+size])
		i += size
	}
	return b.Bytes()
}

// needsDefuse reports whether out may hold a command defuse rewrites.
func needsDefuse(out []byte) bool {
	return bytes.Contains(out, []byte("::")) || bytes.Contains(out, []byte("##"))
}

// DefuseText is defuse for text output: commands are broken up with the
// escapes EscapeText writes (\x3a, \x23).
func DefuseText(s string) string { return string(defuse([]byte(s), textEscapes)) }

// writeDefused writes out to w with its commands defused.
func writeDefused(w io.Writer, out []byte, esc commandEscapes) error {
	_, err := w.Write(defuse(out, esc))
	return err
}

// LineGuard is a writer that defuses what passes through it line by line
// (DefuseText): for standard error, where messages quote the input.
// Flush writes a last line without a newline.
type LineGuard struct {
	w    io.Writer
	line []byte
}

// NewLineGuard returns a LineGuard writing to w.
func NewLineGuard(w io.Writer) *LineGuard { return &LineGuard{w: w} }

// Write implements io.Writer: complete lines go through at once.
func (g *LineGuard) Write(p []byte) (int, error) {
	g.line = append(g.line, p...)
	i := bytes.LastIndexAny(g.line, "\n\r")
	if i < 0 {
		return len(p), nil
	}
	if _, err := g.w.Write(defuse(g.line[:i+1], textEscapes)); err != nil {
		return 0, err
	}
	g.line = append(g.line[:0], g.line[i+1:]...)
	return len(p), nil
}

// Flush writes what is left of a line.
func (g *LineGuard) Flush() error {
	if len(g.line) == 0 {
		return nil
	}
	_, err := g.w.Write(defuse(g.line, textEscapes))
	g.line = g.line[:0]
	return err
}

// jsonControls escapes in JSON text the control characters encoding/json
// leaves raw (DEL and the C1 controls U+0080 to U+009F, NEL among them),
// and defuses commands (jsonEscapes). Outside strings, JSON holds none of
// these, so the bytes can be rewritten as they are.
func jsonControls(out []byte) []byte {
	out = defuse(out, jsonEscapes)
	if !bytes.ContainsFunc(out, isC1) {
		return out
	}
	var b bytes.Buffer
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRune(out[i:])
		if isC1(r) {
			b.WriteString(`\u00` + string("0123456789abcdef"[r>>4]) + string("0123456789abcdef"[r&0xf]))
		} else {
			b.Write(out[i : i+size])
		}
		i += size
	}
	return b.Bytes()
}

// isC1 reports DEL and the C1 control characters.
func isC1(r rune) bool { return r == 0x7f || r >= 0x80 && r <= 0x9f }
