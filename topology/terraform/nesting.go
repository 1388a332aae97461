package terraform

import "fmt"

// maxNesting bounds how deeply an expression may nest before it is parsed: HCL's parser and
// every walk of the syntax tree recurse once per level, and a file of 100,000 "(" or "!"
// would overflow the stack.
const maxNesting = 1000

// A nesting scan measures, in one pass over the text and without building anything, how
// deeply the syntax tree the parser would build nests. A level is counted for each bracket,
// quoted string, heredoc and interpolation open at a place, for each %{if} and %{for} open
// around it in a template, and for each operator met since the start of the expression at
// that bracket level: a chain a + b + c, !!!x or a ? b : c ? d : e nests once per operator,
// and x[a][b] once per index. Strings and comments nest nothing but their interpolations.
// The count never undercounts the tree's depth; it may overcount it, by little.

// frameKind is what opened a level.
type frameKind byte

const (
	frameCode     frameKind = iota // ( [ { or the top of a file
	frameInterp                    // ${ or %{, closed by }
	frameQuoted                    // "…", a quoted template
	frameHeredoc                   // <<EOF … EOF
	frameTemplate                  // the top of a template file or of a JSON string
)

type frame struct {
	kind   frameKind
	open   byte   // the bracket of a code frame
	base   int    // the level at the frame's start
	outer  int    // the enclosing frame's level when this one opened
	marker string // a heredoc's closing marker
}

// nesting is one scan.
type nesting struct {
	src   []byte
	i     int
	stack []frame
	level int
	end   bool // the last token ends an operand: a "[" after it indexes
	at    int  // where the level first passed maxNesting, or -1
}

// nestingError rejects a configuration file nested more deeply than maxNesting.
func nestingError(f *srcFile) *Error {
	return f.nestingAt(scanNesting(f.data, frameCode))
}

// templateNestingError rejects a template file nested more deeply than maxNesting.
func templateNestingError(f *srcFile) *Error {
	return f.nestingAt(scanNesting(f.data, frameTemplate))
}

func (f *srcFile) nestingAt(off int) *Error {
	if off < 0 {
		return nil
	}
	return &Error{Pos: f.pos(off), Msg: fmt.Sprintf("expression nested deeper than %d levels (brackets, operators, interpolations); not read", maxNesting)}
}

// scanNesting returns the offset in src at which the nesting first passes maxNesting, or -1.
func scanNesting(src []byte, top frameKind) int {
	s := &nesting{src: src, stack: []frame{{kind: top}}, at: -1}
	for s.i < len(s.src) && s.at < 0 {
		switch s.top().kind {
		case frameQuoted, frameHeredoc, frameTemplate:
			s.template()
		default:
			s.code()
		}
	}
	return s.at
}

func (s *nesting) top() *frame { return &s.stack[len(s.stack)-1] }

func (s *nesting) peek(k int) byte {
	if s.i+k < len(s.src) {
		return s.src[s.i+k]
	}
	return 0
}

// raise adds n levels at the current place.
func (s *nesting) raise(n int) {
	s.level += n
	if s.level > maxNesting && s.at < 0 {
		s.at = s.i
	}
}

func (s *nesting) push(f frame) {
	f.outer = s.level
	s.raise(1)
	f.base = s.level
	s.stack = append(s.stack, f)
	s.end = false
}

func (s *nesting) pop() {
	if len(s.stack) > 1 {
		s.level = s.top().outer
		s.stack = s.stack[:len(s.stack)-1]
	}
}

// restart begins a new expression at the current bracket level (after "," "=" or a newline
// that ends an argument).
func (s *nesting) restart() {
	s.level = s.top().base
	s.end = false
}

func (s *nesting) operator(width int) {
	s.raise(1)
	s.i += width
	s.end = false
}

// code scans one token of an expression.
func (s *nesting) code() {
	c := s.src[s.i]
	switch {
	case c == ' ' || c == '\t' || c == '\r':
		s.i++
	case c == '\n':
		if f := s.top(); f.kind == frameCode && f.open != '(' && f.open != '[' {
			s.restart()
		}
		s.i++
	case c == '#' || c == '/' && s.peek(1) == '/':
		for s.i < len(s.src) && s.src[s.i] != '\n' {
			s.i++
		}
	case c == '/' && s.peek(1) == '*':
		s.i += 2
		for s.i < len(s.src) && !(s.src[s.i] == '*' && s.peek(1) == '/') {
			s.i++
		}
		s.i += 2
	case c == '"':
		s.push(frame{kind: frameQuoted})
		s.i++
	case c == '<' && s.peek(1) == '<' && s.heredoc():
	case c == '(' || c == '[' || c == '{':
		if c == '[' && s.end {
			s.raise(1) // an index nests its collection
		}
		s.push(frame{kind: frameCode, open: c})
		s.i++
	case c == ')' || c == ']' || c == '}':
		if s.top().kind == frameCode || s.top().kind == frameInterp && c == '}' {
			s.pop()
		}
		s.i++
		s.end = true
	case c == ',':
		s.restart()
		s.i++
	case c == '=' && s.peek(1) != '=' && s.peek(1) != '>':
		s.restart()
		s.i++
	case c == '&' && s.peek(1) == '&', c == '|' && s.peek(1) == '|', c == '=', s.peek(1) == '=' && (c == '!' || c == '<' || c == '>'):
		s.operator(2)
	case c == '+' || c == '-' || c == '*' || c == '/' || c == '%' || c == '!' || c == '?' || c == '<' || c == '>' || c == '&' || c == '|':
		s.operator(1)
	case c == '.' || c == ':':
		s.i++
		s.end = false
	default:
		for s.i < len(s.src) && wordByte(s.src[s.i]) {
			s.i++
		}
		if s.i < len(s.src) && !wordByte(s.src[s.i]) && s.src[s.i] == c {
			s.i++ // a byte that is no token: skip it
		}
		s.end = true
	}
}

// wordByte reports whether c continues a name or a number (a-b is one name in HCL, 1e-5 one
// number, so a "-" inside a word is no operator); bytes of UTF-8 letters are taken as name
// bytes.
func wordByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// heredoc opens a heredoc at "<<": "<<EOF" or "<<-EOF" and the end of the line. It reports
// false, consuming nothing, when no marker follows (two "<" operators).
func (s *nesting) heredoc() bool {
	j := s.i + 2
	if j < len(s.src) && s.src[j] == '-' {
		j++
	}
	k := j
	for k < len(s.src) && wordByte(s.src[k]) {
		k++
	}
	if k == j {
		return false
	}
	marker := string(s.src[j:k])
	for k < len(s.src) && s.src[k] != '\n' {
		k++
	}
	s.push(frame{kind: frameHeredoc, marker: marker})
	s.i = k + 1
	s.closeHeredoc()
	return true
}

// closeHeredoc ends the heredoc at the start of the current line when the line is its marker.
func (s *nesting) closeHeredoc() {
	f := s.top()
	if f.kind != frameHeredoc {
		return
	}
	j := s.i
	for j < len(s.src) && (s.src[j] == ' ' || s.src[j] == '\t') {
		j++
	}
	k := j
	for k < len(s.src) && s.src[k] != '\n' && s.src[k] != '\r' {
		k++
	}
	if string(s.src[j:k]) == f.marker {
		s.pop()
		s.i = k
		s.end = true
	}
}

// template scans one token of a template: literal text, an escape, an interpolation or a
// directive, or the end of a quoted string.
func (s *nesting) template() {
	c := s.src[s.i]
	f := s.top()
	switch {
	case c == '\\' && f.kind == frameQuoted:
		s.i += 2
	case c == '"' && f.kind == frameQuoted:
		s.pop()
		s.i++
		s.end = true
	case c == '\n':
		s.i++
		s.closeHeredoc()
	case (c == '$' || c == '%') && s.peek(1) == c && s.peek(2) == '{':
		s.i += 3 // $${ and %%{ are literal text
	case c == '$' && s.peek(1) == '{':
		s.push(frame{kind: frameInterp})
		s.i += 2
	case c == '%' && s.peek(1) == '{':
		s.directive()
	default:
		s.i++
	}
}

// directive opens %{ … }: an if or for nests what follows in the template until its end.
func (s *nesting) directive() {
	j := s.i + 2
	for j < len(s.src) && (s.src[j] == '~' || s.src[j] == ' ' || s.src[j] == '\t') {
		j++
	}
	k := j
	for k < len(s.src) && wordByte(s.src[k]) {
		k++
	}
	switch string(s.src[j:k]) {
	case "if", "for":
		s.raise(1)
	case "endif", "endfor":
		if s.level > s.top().base {
			s.level--
		}
	}
	s.push(frame{kind: frameInterp})
	s.i += 2
}
