package report

import (
	"bytes"
	"strings"

	"github.com/retrylint/retrylint/model"
)

// sourceTexts reads the files of a log's findings once each.
type sourceTexts struct {
	read  func(file string) ([]byte, error)
	files map[string]*sourceText
}

func newSourceTexts(read func(string) ([]byte, error)) *sourceTexts {
	return &sourceTexts{read: read, files: map[string]*sourceText{}}
}

// of is the text of file, nil when there is no reader or it cannot be
// read.
func (s *sourceTexts) of(file string) *sourceText {
	if s.read == nil || file == "" {
		return nil
	}
	if t, ok := s.files[file]; ok {
		return t
	}
	var t *sourceText
	if src, err := s.read(file); err == nil {
		t = &sourceText{src: src, byteColumns: strings.HasSuffix(file, ".go")}
	}
	s.files[file] = t
	return t
}

// sourceText is a finding's file, its lines and their hashes worked out
// when first asked for.
type sourceText struct {
	src []byte
	// byteColumns: the findings' columns count bytes (go/token, in a Go
	// file); elsewhere they count characters (the YAML and HCL parsers).
	byteColumns bool
	lines       [][]byte // without their "\n"
	hashes      []string
}

// lineHash is the primaryLocationLineHash of line (1-based), "" when the
// file is unknown or has no such line.
func (t *sourceText) lineHash(line int) string {
	if t == nil {
		return ""
	}
	if t.hashes == nil {
		t.hashes = lineHashes(t.src)
	}
	if line < 1 || line > len(t.hashes) {
		return ""
	}
	return t.hashes[line-1]
}

// line is the text of line (1-based), false when there is none.
func (t *sourceText) line(n int) ([]byte, bool) {
	if t.lines == nil {
		t.lines = bytes.Split(t.src, []byte("\n"))
	}
	if n < 1 || n > len(t.lines) {
		return nil, false
	}
	return t.lines[n-1], true
}

// inUTF16 is f with its columns counted in UTF-16 code units, as the log
// declares them; f itself when its file is unknown.
func (t *sourceText) inUTF16(f model.Finding) model.Finding {
	if t == nil {
		return f
	}
	f.Column = t.utf16Column(f.Line, f.Column)
	f.EndColumn = t.utf16Column(f.EndLine, f.EndColumn)
	return f
}

// utf16Column converts column col of line: the UTF-16 units of the text
// before it, plus one. A column past the end of the line keeps its
// distance from the end; no column, or no such line, stays as it is.
func (t *sourceText) utf16Column(line, col int) int {
	text, ok := t.line(line)
	if !ok || col < 1 {
		return col
	}
	before, past := col-1, 0
	units := 0
	for i := 0; i < len(text) && before > 0; {
		r, size := decodeRune(text[i:])
		units += len(utf16Units(r))
		i += size
		if t.byteColumns {
			before -= size
		} else {
			before--
		}
	}
	if before > 0 {
		past = before
	}
	return units + past + 1
}
