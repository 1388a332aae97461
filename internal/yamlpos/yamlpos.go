// Package yamlpos finds where a YAML syntax error is, and puts the positions of decoded
// nodes on the lines an editor shows.
//
// The decoder's message names a line only, and often the line where the enclosing block
// began rather than the one that breaks it (one less for the parser's errors, which count
// from 0). The decoder keeps the exact place, the mark of the problem and of its context, in
// its state after it fails; Locate decodes the source once more and reads them there.
//
// The decoder counts lines by YAML 1.1's line breaks, among them U+0085, U+2028, U+2029 and
// a lone carriage return; an editor, git and retrylint's other readers count line feeds only.
// Positions are turned into the latter.
package yamlpos

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/lazyre"
)

var lineRE = lazyre.New(`^line (\d+): `)

// Message splits a decoder error into its line (0 when none is named) and
// the message without the "yaml: line N:" prefix.
func Message(err error) (int, string) {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n, strings.TrimSpace(msg[len(m[0]):])
	}
	return 0, strings.TrimSpace(msg)
}

// Locate returns the 1-based line and column of the syntax error err that decoding src gave,
// and the message without its position. The place is where the token that breaks the
// document begins; for an unclosed quote or flow collection, where it opens.
func Locate(src []byte, err error) (line, col int, msg string) {
	line, msg = Message(err)
	marks, ok := failure(src)
	if ok && marks.problem == msg {
		if off, found := marks.place(src); found {
			line, col = position(src, off)
			return line, col, msg
		}
	}
	// An error of the document's composition has no marks: an unknown anchor is where it is
	// first referred to; else the line the message names, at its first character that is not
	// blank.
	if m := unknownAnchor.FindStringSubmatch(msg); m != nil {
		if off := alias(src, m[1]); off >= 0 {
			line, col = position(src, off)
			return line, col, msg
		}
	}
	line, col = fallback(src, line)
	return line, col, msg
}

var unknownAnchor = lazyre.New(`^unknown anchor '(.*)' referenced$`)

// alias is the byte offset of the first alias *name in src, -1 when there is none.
func alias(src []byte, name string) int {
	ref := []byte("*" + name)
	for from := 0; ; {
		i := bytes.Index(src[from:], ref)
		if i < 0 {
			return -1
		}
		at, end := from+i, from+i+len(ref)
		if (at == 0 || bytes.IndexByte([]byte(" \t\n\r[{,:-"), src[at-1]) >= 0) &&
			(end == len(src) || bytes.IndexByte([]byte(" \t\n\r]},:"), src[end]) >= 0) {
			return at
		}
		from = at + 1
	}
}

// fallback is the column of the first character of line n that is not blank.
func fallback(src []byte, n int) (int, int) {
	if n < 1 {
		n = 1
	}
	start := 0
	for l := 1; l < n; l++ {
		i := bytes.IndexByte(src[start:], '\n')
		if i < 0 {
			return n, 1
		}
		start += i + 1
	}
	l := src[start:]
	if i := bytes.IndexByte(l, '\n'); i >= 0 {
		l = l[:i]
	}
	return n, utf8.RuneCount(l[:len(l)-len(bytes.TrimLeft(l, " \t"))]) + 1
}

// marks are what the decoder keeps of a failure: the problem, and the character index of
// its place and of its context's (the block or quote it breaks); -1 when unset.
type marks struct {
	problem   string
	problemAt int
	contextAt int
	simpleKey bool // the scanner found no ":" after a key
	reached   bool // the problem is at the end of the input
}

// place is the byte offset at which the error is reported: where the token that breaks the
// document begins. That is the problem's mark, except:
//   - a key without its ":" (a simple key) is reported where the key begins;
//   - an input that ends inside a quote, where that opens; an unclosed flow collection, at
//     its bracket;
//   - a block that does not go on as it began, at the first character of the line that
//     breaks it: that line's first token is what breaks it, though the parser notices only
//     at its ":".
func (m marks) place(src []byte) (int, bool) {
	if m.problemAt < 0 {
		return 0, false
	}
	at := offset(src, m.problemAt)
	switch {
	case m.contextAt >= 0 && (m.simpleKey || m.reached):
		at = offset(src, m.contextAt)
	case m.contextAt >= 0 && (strings.HasSuffix(m.problem, "or ']'") || strings.HasSuffix(m.problem, "or '}'")):
		at = offset(src, m.contextAt)
	case strings.HasPrefix(m.problem, "did not find expected key") || strings.HasPrefix(m.problem, "did not find expected '-' indicator"):
		start := bytes.LastIndexByte(src[:at], '\n') + 1
		at = start + len(src[start:at]) - len(bytes.TrimLeft(src[start:at], " \t"))
	}
	return at, true
}

// decodes counts the decodes made to locate errors: a measure of the work.
var decodes atomic.Int64

// failure decodes every document of src and returns the marks of the error it fails with;
// ok is false when it does not fail, or fails without marks.
func failure(src []byte) (m marks, ok bool) {
	decodes.Add(1)
	dec := yaml.NewDecoder(bytes.NewReader(src))
	defer func() {
		if r := recover(); r != nil {
			ok = false
		}
	}()
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return m, false
		}
		if err != nil {
			_, msg := Message(err)
			return readMarks(dec, msg, src)
		}
	}
}

// readMarks reads the marks from the decoder's state: its fields are not exported, and reading
// them through reflection is the one way to learn the place the decoder knows. When the
// decoder's layout is not the expected one, or it records no error, ok is false.
func readMarks(dec *yaml.Decoder, msg string, src []byte) (m marks, ok bool) {
	p := reflect.ValueOf(dec).Elem().FieldByName("parser")
	if !p.IsValid() || p.Kind() != reflect.Pointer || p.IsNil() {
		return m, false
	}
	st := p.Elem().FieldByName("parser")
	kind, okKind := intField(st, "error")
	problem := st.FieldByName("problem")
	if !okKind || kind == 0 || !problem.IsValid() || problem.Kind() != reflect.String || problem.String() != msg {
		return m, false
	}
	m.problem = msg
	m.problemAt, ok = markIndex(st, "problem_mark")
	if !ok {
		return m, false
	}
	m.contextAt = -1
	if context := st.FieldByName("context"); context.IsValid() && context.Kind() == reflect.String && context.String() != "" {
		m.contextAt, _ = markIndex(st, "context_mark")
		m.simpleKey = kind == scannerError && context.String() == "while scanning a simple key"
	}
	m.reached = m.problemAt >= utf8.RuneCount(withoutBOM(src))
	return m, true
}

// scannerError is yaml_SCANNER_ERROR among the decoder's error kinds.
const scannerError = 3

func intField(v reflect.Value, name string) (int, bool) {
	f := v.FieldByName(name)
	if !f.IsValid() || !f.CanInt() {
		return 0, false
	}
	return int(f.Int()), true
}

// markIndex is the character index of a mark.
func markIndex(st reflect.Value, name string) (int, bool) {
	f := st.FieldByName(name)
	if !f.IsValid() || f.Kind() != reflect.Struct {
		return 0, false
	}
	return intField(f, "index")
}

var bom = []byte("\uFEFF")

func withoutBOM(src []byte) []byte { return bytes.TrimPrefix(src, bom) }

// offset turns a character index of the decoder (which skips a byte-order mark) into a byte
// offset of src.
func offset(src []byte, index int) int {
	off := len(src) - len(withoutBOM(src))
	for ; index > 0 && off < len(src); index-- {
		_, w := utf8.DecodeRune(src[off:])
		off += w
	}
	return off
}

// position is the line and column (in characters) of byte offset off, lines ended by "\n".
func position(src []byte, off int) (line, col int) {
	start := len(src) - len(withoutBOM(src))
	off = min(max(off, start), len(src))
	line = 1 + bytes.Count(src[:off], []byte{'\n'})
	if i := bytes.LastIndexByte(src[:off], '\n'); i >= 0 {
		start = i + 1
	}
	return line, utf8.RuneCount(src[start:off]) + 1
}

// Fix moves the Line and Column of every node of docs, the documents of src in their order,
// from the decoder's count of lines to the lines of the file, which a YAML 1.1 line break
// other than "\n" and "\r\n" (U+0085, U+2028, U+2029, a lone "\r") does not end. It costs
// nothing when src holds none.
func Fix(src []byte, docs ...*yaml.Node) {
	if !hasOtherBreaks(src) {
		return
	}
	lm := newLineMap(src)
	for _, doc := range docs {
		walk(doc, func(n *yaml.Node) bool {
			if n.Line > 0 {
				n.Line, n.Column = lm.at(n.Line, n.Column)
			}
			return true
		})
	}
}

// walk visits n and the nodes under it in the order of the source, without recursion (the
// decoder lets documents nest ten thousand deep), until visit returns false.
func walk(n *yaml.Node, visit func(*yaml.Node) bool) bool {
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil {
			continue
		}
		if !visit(n) {
			return false
		}
		for i := len(n.Content) - 1; i >= 0; i-- {
			stack = append(stack, n.Content[i])
		}
	}
	return true
}

// Duplicate finds the first key written twice in one mapping of docs, as strict Kubernetes
// decoding refuses it: the second key and the first; nil when there is none. Merge keys
// ("<<") may repeat.
func Duplicate(docs ...*yaml.Node) (second, first *yaml.Node) {
	for _, doc := range docs {
		walk(doc, func(n *yaml.Node) bool {
			if n.Kind != yaml.MappingNode || len(n.Content) < 4 {
				return true
			}
			seen := make(map[[2]string]*yaml.Node, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
					continue
				}
				key := [2]string{k.ShortTag(), k.Value}
				if f := seen[key]; f != nil {
					second, first = k, f
					return false
				}
				seen[key] = k
			}
			return true
		})
		if second != nil {
			return second, first
		}
	}
	return nil, nil
}

// hasOtherBreaks reports whether src holds a YAML 1.1 line break other than "\n" and "\r\n".
func hasOtherBreaks(src []byte) bool {
	if bytes.Contains(src, []byte("\u0085")) || bytes.Contains(src, []byte("\u2028")) || bytes.Contains(src, []byte("\u2029")) {
		return true
	}
	for i := bytes.IndexByte(src, '\r'); i >= 0; {
		if i+1 >= len(src) || src[i+1] != '\n' {
			return true
		}
		j := bytes.IndexByte(src[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// lineMap turns the decoder's (line, column) into the file's. Nodes come in the order of the
// source, so it moves a cursor forward rather than counting from a line's start each time.
type lineMap struct {
	src    []byte
	starts []int // byte offsets at which the decoder's lines start
	// The cursor: a byte offset, the decoder's line and column there, and the file's.
	off, yline, ycol, line, col int
}

func newLineMap(src []byte) *lineMap {
	first := len(src) - len(withoutBOM(src))
	lm := &lineMap{src: src, starts: []int{first}, off: first, yline: 1, ycol: 1, line: 1, col: 1}
	for i := first; i < len(src); {
		r, w := utf8.DecodeRune(src[i:])
		i += w
		switch {
		case r == '\r' && i < len(src) && src[i] == '\n':
			i++
		case r == '\r' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029:
		default:
			continue
		}
		lm.starts = append(lm.starts, i)
	}
	return lm
}

// at is the file's line and column of the decoder's line and column.
func (lm *lineMap) at(yline, ycol int) (int, int) {
	if yline < 1 {
		return yline, ycol
	}
	if past := yline - len(lm.starts); past > 0 {
		// Past the last line (an empty node at the end): as many lines past the file's last.
		last := lm.starts[len(lm.starts)-1]
		return 1 + bytes.Count(lm.src[:last], []byte{'\n'}) + past, ycol
	}
	from, c := lm.starts[yline-1], 1
	if yline == lm.yline && ycol >= lm.ycol {
		from, c = lm.off, lm.ycol
	}
	target := from
	for ; c < ycol && target < len(lm.src); c++ {
		_, w := utf8.DecodeRune(lm.src[target:])
		target += w
	}
	if target < lm.off {
		// Back before the cursor: count from the start of the file's line.
		lm.off = lm.starts[0]
		if j := bytes.LastIndexByte(lm.src[:target], '\n'); j >= 0 {
			lm.off = j + 1
		}
		lm.line, lm.col = 1+bytes.Count(lm.src[:lm.off], []byte{'\n'}), 1
	}
	for lm.off < target {
		r, w := utf8.DecodeRune(lm.src[lm.off:])
		lm.off += w
		if r == '\n' {
			lm.line, lm.col = lm.line+1, 1
		} else {
			lm.col++
		}
	}
	lm.yline, lm.ycol = yline, ycol
	return lm.line, lm.col
}
