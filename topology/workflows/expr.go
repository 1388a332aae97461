package workflows

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxExprDepth bounds the nesting of a parsed expression.
const maxExprDepth = 100

// tokKind classifies a token of a Workflows expression.
type tokKind int

const (
	tokEOF tokKind = iota
	tokIdent
	tokString
	tokNumber
	tokOp
)

// token is one lexical element of an expression; off is its byte offset.
type token struct {
	kind tokKind
	text string // identifier, operator, number text, or decoded string value
	off  int
}

// tokenize splits the inside of "${...}" into tokens.
func tokenize(src string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"' || c == '\'':
			s, n, err := scanString(src[i:])
			if err != nil {
				return nil, fmt.Errorf("offset %d: %v", i, err)
			}
			toks = append(toks, token{tokString, s, i})
			i += n
		case isDigit(c):
			j := i
			for j < len(src) && (isDigit(src[j]) || src[j] == '.' || src[j] == 'e' || src[j] == 'E' ||
				((src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E'))) {
				j++
			}
			toks = append(toks, token{tokNumber, src[i:j], i})
			i = j
		case isIdentStart(c):
			j := i
			for j < len(src) && (isIdentStart(src[j]) || isDigit(src[j])) {
				j++
			}
			toks = append(toks, token{tokIdent, src[i:j], i})
			i = j
		default:
			op := ""
			for _, cand := range []string{"//", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "<", ">", "(", ")", "[", "]", "{", "}", ",", ".", ":"} {
				if strings.HasPrefix(src[i:], cand) {
					op = cand
					break
				}
			}
			if op == "" {
				r, _ := utf8.DecodeRuneInString(src[i:])
				return nil, fmt.Errorf("offset %d: unexpected character %q", i, r)
			}
			toks = append(toks, token{tokOp, op, i})
			i += len(op)
		}
	}
	return append(toks, token{tokEOF, "", len(src)}), nil
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// scanString decodes a quoted string at the start of s and reports how many bytes it spans.
func scanString(s string) (string, int, error) {
	quote := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == quote:
			return b.String(), i + 1, nil
		case c == '\\':
			if i+1 >= len(s) {
				return "", 0, fmt.Errorf("unterminated string")
			}
			i++
			switch e := s[i]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'u':
				if i+4 < len(s) {
					if v, err := strconv.ParseUint(s[i+1:i+5], 16, 32); err == nil {
						b.WriteRune(rune(v))
						i += 4
						continue
					}
				}
				b.WriteByte('u')
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, fmt.Errorf("unterminated string")
}

// errOffset splits a parse error "offset N: msg" into N and msg; an error
// without an offset is at 0.
func errOffset(err error) (int, string) {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "offset "); ok {
		if num, text, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil {
				return n, text
			}
		}
	}
	return 0, msg
}

// exprAST is a parsed Workflows expression.
type exprAST interface{ exprNode() }

type (
	// litExpr is a string, number, boolean or null literal.
	litExpr struct{ val value }
	// identExpr is a bare name: a variable, a subworkflow or a library namespace.
	identExpr struct{ name string }
	// selExpr is x.name.
	selExpr struct {
		x    exprAST
		name string
	}
	// indexExpr is x[i].
	indexExpr struct{ x, i exprAST }
	// callExpr is fn(args...).
	callExpr struct {
		fn   exprAST
		args []exprAST
	}
	// unaryExpr is "not x" or "-x".
	unaryExpr struct {
		op string
		x  exprAST
	}
	// binaryExpr is x op y.
	binaryExpr struct {
		op   string
		x, y exprAST
	}
	// listExpr is [a, b, ...].
	listExpr struct{ elems []exprAST }
	// mapExpr is {"k": v, ...}.
	mapExpr struct{ keys, vals []exprAST }
)

func (litExpr) exprNode()    {}
func (identExpr) exprNode()  {}
func (selExpr) exprNode()    {}
func (indexExpr) exprNode()  {}
func (callExpr) exprNode()   {}
func (unaryExpr) exprNode()  {}
func (binaryExpr) exprNode() {}
func (listExpr) exprNode()   {}
func (mapExpr) exprNode()    {}

// parseExpr parses the text between "${" and "}".
func parseExpr(src string) (exprAST, error) {
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &exprParser{toks: toks}
	e, err := p.parseOr(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, fmt.Errorf("offset %d: unexpected %q", t.off, t.text)
	}
	return e, nil
}

type exprParser struct {
	toks []token
	pos  int
}

func (p *exprParser) peek() token { return p.toks[p.pos] }

func (p *exprParser) next() token {
	t := p.toks[p.pos]
	if t.kind != tokEOF {
		p.pos++
	}
	return t
}

// isKeyword reports whether t is the keyword kw (identifiers are case-sensitive, keywords too).
func (t token) isKeyword(kw string) bool { return t.kind == tokIdent && t.text == kw }
func (t token) isOp(op string) bool      { return t.kind == tokOp && t.text == op }

func (p *exprParser) expectOp(op string) error {
	if t := p.next(); !t.isOp(op) {
		if t.kind == tokEOF {
			return fmt.Errorf("offset %d: expected %q, found the end of the expression", t.off, op)
		}
		return fmt.Errorf("offset %d: expected %q, found %q", t.off, op, t.text)
	}
	return nil
}

func depthErr(d int) error {
	if d > maxExprDepth {
		return fmt.Errorf("expression nested too deeply")
	}
	return nil
}

func (p *exprParser) parseOr(d int) (exprAST, error) {
	if err := depthErr(d); err != nil {
		return nil, err
	}
	x, err := p.parseAnd(d + 1)
	for err == nil && p.peek().isKeyword("or") {
		p.next()
		var y exprAST
		if y, err = p.parseAnd(d + 1); err == nil {
			x = binaryExpr{"or", x, y}
		}
	}
	return x, err
}

func (p *exprParser) parseAnd(d int) (exprAST, error) {
	x, err := p.parseNot(d + 1)
	for err == nil && p.peek().isKeyword("and") {
		p.next()
		var y exprAST
		if y, err = p.parseNot(d + 1); err == nil {
			x = binaryExpr{"and", x, y}
		}
	}
	return x, err
}

func (p *exprParser) parseNot(d int) (exprAST, error) {
	if err := depthErr(d); err != nil {
		return nil, err
	}
	if t := p.peek(); t.isKeyword("not") && !p.toks[p.pos+1].isOp("(") {
		p.next()
		x, err := p.parseNot(d + 1)
		if err != nil {
			return nil, err
		}
		return unaryExpr{"not", x}, nil
	}
	return p.parseCompare(d + 1)
}

func (p *exprParser) parseCompare(d int) (exprAST, error) {
	x, err := p.parseAdd(d + 1)
	for err == nil {
		t := p.peek()
		op := ""
		switch {
		case t.kind == tokOp && (t.text == "==" || t.text == "!=" || t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">="):
			op = t.text
		case t.isKeyword("in"):
			op = "in"
		}
		if op == "" {
			break
		}
		p.next()
		var y exprAST
		if y, err = p.parseAdd(d + 1); err == nil {
			x = binaryExpr{op, x, y}
		}
	}
	return x, err
}

func (p *exprParser) parseAdd(d int) (exprAST, error) {
	x, err := p.parseMul(d + 1)
	for err == nil && (p.peek().isOp("+") || p.peek().isOp("-")) {
		op := p.next().text
		var y exprAST
		if y, err = p.parseMul(d + 1); err == nil {
			x = binaryExpr{op, x, y}
		}
	}
	return x, err
}

func (p *exprParser) parseMul(d int) (exprAST, error) {
	x, err := p.parseUnary(d + 1)
	for err == nil {
		t := p.peek()
		if !(t.isOp("*") || t.isOp("/") || t.isOp("%") || t.isOp("//")) {
			break
		}
		p.next()
		var y exprAST
		if y, err = p.parseUnary(d + 1); err == nil {
			x = binaryExpr{t.text, x, y}
		}
	}
	return x, err
}

func (p *exprParser) parseUnary(d int) (exprAST, error) {
	if err := depthErr(d); err != nil {
		return nil, err
	}
	if p.peek().isOp("-") {
		p.next()
		x, err := p.parseUnary(d + 1)
		if err != nil {
			return nil, err
		}
		return unaryExpr{"-", x}, nil
	}
	return p.parsePostfix(d + 1)
}

func (p *exprParser) parsePostfix(d int) (exprAST, error) {
	x, err := p.parsePrimary(d + 1)
	for err == nil {
		t := p.peek()
		switch {
		case t.isOp("."):
			p.next()
			n := p.next()
			if n.kind != tokIdent {
				return nil, fmt.Errorf("offset %d: expected a name after '.'", n.off)
			}
			x = selExpr{x, n.text}
		case t.isOp("["):
			p.next()
			var i exprAST
			if i, err = p.parseOr(d + 1); err != nil {
				return nil, err
			}
			if err = p.expectOp("]"); err != nil {
				return nil, err
			}
			x = indexExpr{x, i}
		case t.isOp("("):
			p.next()
			var args []exprAST
			if args, err = p.parseList(")", d+1); err != nil {
				return nil, err
			}
			x = callExpr{x, args}
		default:
			return x, nil
		}
	}
	return x, err
}

// parseList parses comma-separated expressions up to the closing operator.
func (p *exprParser) parseList(closing string, d int) ([]exprAST, error) {
	var out []exprAST
	for !p.peek().isOp(closing) {
		e, err := p.parseOr(d + 1)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if !p.peek().isOp(",") {
			break
		}
		p.next()
	}
	return out, p.expectOp(closing)
}

func (p *exprParser) parsePrimary(d int) (exprAST, error) {
	if err := depthErr(d); err != nil {
		return nil, err
	}
	t := p.next()
	switch t.kind {
	case tokString:
		return litExpr{strVal(t.text)}, nil
	case tokNumber:
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, fmt.Errorf("offset %d: bad number %q", t.off, t.text)
		}
		return litExpr{numVal(f)}, nil
	case tokIdent:
		switch strings.ToLower(t.text) {
		case "true":
			return litExpr{boolVal(true)}, nil
		case "false":
			return litExpr{boolVal(false)}, nil
		case "null":
			return litExpr{value{kind: valNull}}, nil
		}
		return identExpr{t.text}, nil
	case tokOp:
		switch t.text {
		case "(":
			e, err := p.parseOr(d + 1)
			if err != nil {
				return nil, err
			}
			return e, p.expectOp(")")
		case "[":
			elems, err := p.parseList("]", d+1)
			return listExpr{elems}, err
		case "{":
			return p.parseMap(d + 1)
		}
	case tokEOF:
		return nil, fmt.Errorf("offset %d: unexpected end of expression", t.off)
	}
	return nil, fmt.Errorf("offset %d: unexpected %q", t.off, t.text)
}

func (p *exprParser) parseMap(d int) (exprAST, error) {
	var m mapExpr
	for !p.peek().isOp("}") {
		var k exprAST
		if t := p.peek(); t.kind == tokIdent && p.toks[p.pos+1].isOp(":") {
			p.next()
			k = litExpr{strVal(t.text)}
		} else {
			var err error
			if k, err = p.parseOr(d + 1); err != nil {
				return nil, err
			}
		}
		if err := p.expectOp(":"); err != nil {
			return nil, err
		}
		v, err := p.parseOr(d + 1)
		if err != nil {
			return nil, err
		}
		m.keys = append(m.keys, k)
		m.vals = append(m.vals, v)
		if !p.peek().isOp(",") {
			break
		}
		p.next()
	}
	return m, p.expectOp("}")
}

// dottedName returns "a.b.c" for a selector chain rooted at an identifier, or "".
// It walks the chain once and joins once: a chain of n names costs O(n).
func dottedName(e exprAST) string {
	var names []string
	for {
		switch x := e.(type) {
		case identExpr:
			names = append(names, x.name)
			slices.Reverse(names)
			return strings.Join(names, ".")
		case selExpr:
			names = append(names, x.name)
			e = x.x
		default:
			return ""
		}
	}
}

// rootIdent returns the identifier at the root of a selector/index chain.
func rootIdent(e exprAST) (string, bool) {
	for {
		switch x := e.(type) {
		case identExpr:
			return x.name, true
		case selExpr:
			e = x.x
		case indexExpr:
			e = x.x
		default:
			return "", false
		}
	}
}

// varRefs calls f for every variable reference in e: an identifier used as a value, not as a
// function name or library namespace. path is the dotted field path read from it (e.g. "event.data").
func varRefs(e exprAST, f func(name, path string)) {
	var walk func(e exprAST, d int)
	walk = func(e exprAST, d int) {
		if d > maxExprDepth*4 {
			return
		}
		switch x := e.(type) {
		case identExpr:
			f(x.name, x.name)
		case selExpr:
			if p := dottedName(x); p != "" {
				root, _ := rootIdent(x)
				f(root, p)
				return
			}
			walk(x.x, d+1)
		case indexExpr:
			walk(x.x, d+1)
			walk(x.i, d+1)
		case callExpr:
			// The callee is a function name (default, sys.get_env, text.split...), not a read.
			if _, ok := x.fn.(identExpr); !ok {
				if dottedName(x.fn) == "" {
					walk(x.fn, d+1)
				}
			}
			for _, a := range x.args {
				walk(a, d+1)
			}
		case unaryExpr:
			walk(x.x, d+1)
		case binaryExpr:
			walk(x.x, d+1)
			walk(x.y, d+1)
		case listExpr:
			for _, a := range x.elems {
				walk(a, d+1)
			}
		case mapExpr:
			for i := range x.keys {
				walk(x.keys[i], d+1)
				walk(x.vals[i], d+1)
			}
		}
	}
	walk(e, 0)
}

// exprSpan locates the expression in a scalar that starts with "${". It returns the inner text.
// ok is false when the scalar is not an expression. unclosed reports a "${" with no closing "}".
func exprSpan(s string) (inner string, ok, unclosed bool) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "${") {
		return "", false, false
	}
	depth := 1
	for i := 2; i < len(t); i++ {
		switch c := t[i]; c {
		case '"', '\'':
			_, n, err := scanString(t[i:])
			if err != nil {
				i = len(t)
				break
			}
			i += n - 1
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				if strings.TrimSpace(t[i+1:]) == "" {
					return t[2:i], true, false
				}
				i = len(t)
			}
		}
	}
	// The scanner lost track (odd escapes, text after the expression): a scalar that still ends
	// with "}" is taken whole, as the platform does.
	if strings.HasSuffix(t, "}") {
		return t[2 : len(t)-1], true, false
	}
	return "", false, true
}
