package terraform

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// maxSourceDepth bounds how many locals and variables Source follows, and how deeply it renders
// nested template directives.
const maxSourceDepth = 32

// Source is the text of a string argument as Terraform produces it, with a map from places in
// the text back to the file that holds them. A heredoc or quoted template has its escapes
// ("$${", "%%{") undone and its interpolations rendered; file() gives the file's text as it is
// (Terraform does not process it); templatefile() renders the file as a template;
// jsonencode(yamldecode(X)) is read as X. Locals and variables are followed to their definition. An unknown
// interpolation or template variable stands as Wildcard; where a bare Wildcard would begin a
// YAML plain scalar (and be read as an alias) it is written as a double-quoted scalar instead.
// Unknown %{if} conditions render the true branch, and %{for} loops over unknown collections
// render their body once.
type Source struct {
	Text string
	// File is the display name of the file the text comes from: the .tf file of a heredoc, the
	// file read by file() or templatefile().
	File string
	// Known is false when the text is not known statically (an unknown variable, an unreadable
	// file); Text is then empty.
	Known bool
	// Partial: some parts were unknown and stand as Wildcard, or a directive was approximated.
	Partial bool
	// Note says why the text is not known, when it is not.
	Note string
	// Pos is where the argument's expression starts.
	Pos Pos
	// Refs are the resource addresses the rendered parts refer to.
	Refs []string

	src      *srcFile
	runs     []run
	outLines []int
}

// run maps n bytes of the text from out on to the file: byte by byte from src, or all to src
// when fixed (rendered values map to their interpolation).
type run struct {
	out, src, n int
	fixed       bool
	file        *srcFile // the file src counts in, when not the Source's (a join of several files)
}

// Source returns the text of the string argument at path (see Attr for paths), or nil when the
// path names no argument.
func (b *Block) Source(path string) (s *Source) {
	if b == nil || b.body == nil {
		return nil
	}
	defer func() {
		if recover() != nil {
			s = nil
		}
	}()
	steps := strings.Split(path, ".")
	if len(steps) > 1 {
		parent := b.BlockAt(strings.Join(steps[:len(steps)-1], "."))
		if parent == nil {
			return nil
		}
		return parent.Source(steps[len(steps)-1])
	}
	a := b.body.Attributes[path]
	if a == nil {
		return nil
	}
	s = b.mod.sourceOf(a.Expr, 0)
	if err := b.mod.st.err; err != nil {
		// An evaluation past the caps left parts out: the text is not known.
		return unknownSource(a.Expr.Range(), err.Msg)
	}
	return s
}

// Map returns the place in File that line and col (1-based, col counting characters) of Text
// come from. Text produced from a rendered value maps to the value's interpolation.
func (s *Source) Map(line, col int) Pos {
	if !s.Known || s.src == nil || len(s.runs) == 0 {
		return s.Pos
	}
	off := s.offset(line, col)
	i := sort.Search(len(s.runs), func(i int) bool { return s.runs[i].out+s.runs[i].n > off })
	if i == len(s.runs) {
		i = len(s.runs) - 1
		off = s.runs[i].out + s.runs[i].n - 1
	}
	r := s.runs[i]
	src := r.src
	if !r.fixed && off >= r.out {
		src += off - r.out
	}
	if r.file != nil {
		return r.file.pos(src)
	}
	return s.src.pos(src)
}

// Offsets returns the line and column offsets that map the start of Text into File, for
// parsers that take constant offsets; Map is exact where they are not (a flush heredoc's
// trimmed indentation, rendered values of another length).
func (s *Source) Offsets() (line, col int) {
	p := s.Map(1, 1)
	return p.Line - 1, p.Col - 1
}

// offset turns a line and column of Text into a byte offset.
func (s *Source) offset(line, col int) int {
	if s.outLines == nil {
		s.outLines = lineStarts([]byte(s.Text))
	}
	if line < 1 {
		line, col = 1, 1
	}
	if line > len(s.outLines) {
		return len(s.Text)
	}
	off := s.outLines[line-1]
	for c := 1; c < col && off < len(s.Text) && s.Text[off] != '\n'; c++ {
		_, size := utf8.DecodeRuneInString(s.Text[off:])
		off += size
	}
	return off
}

func lineStarts(b []byte) []int {
	starts := []int{0}
	for i, c := range b {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// pos turns a byte offset of the file into a position.
func (f *srcFile) pos(off int) Pos {
	if f.lines == nil {
		f.lines = lineStarts(f.data)
	}
	if off < 0 {
		off = 0
	}
	if off > len(f.data) {
		off = len(f.data)
	}
	i := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return Pos{File: f.name, Line: i + 1, Col: utf8.RuneCount(f.data[f.lines[i]:off]) + 1}
}

func unknownSource(at hcl.Range, note string) *Source {
	return &Source{Pos: rangePos(at), File: at.Filename, Note: note}
}

// sourceOf follows expr to the text it stands for.
func (m *module) sourceOf(expr hclsyntax.Expression, depth int) *Source {
	if depth > maxSourceDepth {
		return unknownSource(expr.Range(), "the text is reached through too many locals or variables")
	}
	switch e := expr.(type) {
	case *hclsyntax.TemplateWrapExpr:
		return m.sourceOf(e.Wrapped, depth+1)
	case *hclsyntax.ParenthesesExpr:
		return m.sourceOf(e.Expression, depth+1)
	case *hclsyntax.TemplateExpr:
		return m.render(m, e, m.st.files[e.Range().Filename], e.Range())
	case *hclsyntax.ScopeTraversalExpr:
		if s := m.traversalSource(e, depth); s != nil {
			return s
		}
	case *hclsyntax.FunctionCallExpr:
		switch {
		case e.Name == "file" && len(e.Args) == 1:
			return m.fileSource(e)
		case e.Name == "templatefile" && len(e.Args) == 2:
			return m.templateSource(e)
		case e.Name == "join" && len(e.Args) == 2:
			if s := m.joinSource(e, depth); s != nil {
				return s
			}
		case (e.Name == "jsonencode" || e.Name == "yamlencode") && len(e.Args) == 1:
			// jsonencode(yamldecode(X)) is the document X holds, re-encoded:
			// the same Workflows source, read from X with X's positions.
			if in, ok := e.Args[0].(*hclsyntax.FunctionCallExpr); ok && len(in.Args) == 1 &&
				(in.Name == "yamldecode" || in.Name == "jsondecode") {
				return m.sourceOf(in.Args[0], depth+1)
			}
		}
	}
	return m.valueSource(expr)
}

// joinSource is the text of join(sep, [a, b, …]) over a list written out:
// the parts' texts with sep between them, each part keeping the positions
// of its own file (a workflow and its subworkflows read from several
// files). nil when the list is not written out or sep is not known.
func (m *module) joinSource(e *hclsyntax.FunctionCallExpr, depth int) *Source {
	list, ok := e.Args[1].(*hclsyntax.TupleConsExpr)
	if !ok {
		return nil
	}
	sepv, sepRefs := m.eval(e.Args[0], modeReal)
	if !sepv.IsKnown() || sepv.IsNull() || sepv.Type() != cty.String {
		return nil
	}
	sep, sepAt := sepv.AsString(), e.Args[0].Range()
	out := &Source{Known: true, Pos: rangePos(e.Range()), Refs: sepRefs}
	var text strings.Builder
	for i, x := range list.Exprs {
		if i > 0 && sep != "" {
			out.runs = append(out.runs, run{out: text.Len(), src: sepAt.Start.Byte, n: len(sep), fixed: true, file: m.st.files[sepAt.Filename]})
			text.WriteString(sep)
		}
		p := m.sourceOf(x, depth+1)
		if !p.Known {
			return p
		}
		if out.src == nil {
			out.src, out.File = p.src, p.File
		}
		for _, r := range p.runs {
			r.out += text.Len()
			if r.file == nil {
				r.file = p.src
			}
			out.runs = append(out.runs, r)
		}
		text.WriteString(p.Text)
		out.Partial = out.Partial || p.Partial
		out.Refs = append(out.Refs, p.Refs...)
	}
	if out.src == nil {
		out.src, out.File = m.st.files[sepAt.Filename], sepAt.Filename
	}
	out.Text = text.String()
	out.Refs = uniq(out.Refs)
	return out
}

// traversalSource follows local.X and var.X to the expression that defines them.
func (m *module) traversalSource(e *hclsyntax.ScopeTraversalExpr, depth int) *Source {
	t := e.Traversal
	name, ok := attrStep(t, 1)
	if !ok || len(t) != 2 {
		return nil
	}
	switch t.RootName() {
	case "local":
		if a := m.locals[name]; a != nil {
			return m.sourceOf(a.Expr, depth+1)
		}
	case "var":
		v := m.vars[name]
		switch {
		case v == nil:
		case v.input != nil:
			return v.input.mod.sourceOf(v.input.expr, depth+1)
		case v.def != nil:
			return m.sourceOf(v.def, depth+1)
		default:
			return unknownSource(e.Range(), fmt.Sprintf("var.%s has no default", name))
		}
	}
	return nil
}

// valueSource is the text of an expression of no special form: its value when it is a known
// string, mapped to the expression's start.
func (m *module) valueSource(expr hclsyntax.Expression) *Source {
	at := expr.Range()
	v, refs := m.eval(expr, modeReal)
	text, partial := "", false
	switch {
	case v.IsWhollyKnown() && !v.IsNull() && v.Type() == cty.String:
		text = v.AsString()
	default:
		pv, _ := m.eval(expr, modePattern)
		text = patternText(pv)
		if text == Wildcard {
			s := unknownSource(at, "the text is not known statically")
			s.Refs = refs
			return s
		}
		partial = true
	}
	f := m.st.files[at.Filename]
	s := &Source{Text: text, File: at.Filename, Known: true, Partial: partial, Pos: rangePos(at), Refs: refs, src: f}
	if f != nil && len(text) > 0 {
		s.runs = []run{{out: 0, src: at.Start.Byte, n: len(text), fixed: true}}
	}
	return s
}

// fileSource is the text file() reads: the file itself, positions identical.
func (m *module) fileSource(e *hclsyntax.FunctionCallExpr) *Source {
	p, _ := m.eval(e.Args[0], modeReal)
	if !p.IsKnown() || p.IsNull() || p.Type() != cty.String {
		return unknownSource(e.Range(), "file(): path not known statically")
	}
	f, err := m.st.readFile(m, p.AsString())
	if err != nil {
		return unknownSource(e.Range(), "file(): "+err.Error())
	}
	if !utf8.Valid(f.data) {
		return unknownSource(e.Range(), "file(): "+f.name+" is not UTF-8 text")
	}
	s := &Source{Text: string(f.data), File: f.name, Known: true, Pos: rangePos(e.Range()), src: f}
	if len(f.data) > 0 {
		s.runs = []run{{out: 0, src: 0, n: len(f.data)}}
	}
	return s
}

// templateSource renders the file templatefile() reads, positions in that file.
func (m *module) templateSource(e *hclsyntax.FunctionCallExpr) *Source {
	p, _ := m.eval(e.Args[0], modeReal)
	if !p.IsKnown() || p.IsNull() || p.Type() != cty.String {
		return unknownSource(e.Range(), "templatefile(): path not known statically")
	}
	f, err := m.st.readFile(m, p.AsString())
	if err != nil {
		return unknownSource(e.Range(), "templatefile(): "+err.Error())
	}
	tpl, err := m.st.template(f)
	if err != nil {
		return unknownSource(e.Range(), "templatefile(): "+err.Error())
	}
	real, refs := m.eval(e.Args[1], modeReal)
	pat, _ := m.eval(e.Args[1], modePattern)
	s := m.render(&templateScope{module: m, vars: [2]cty.Value{real, pat}}, tpl, f, tpl.Range())
	s.Pos = rangePos(e.Range())
	s.Refs = uniq(append(s.Refs, refs...))
	return s
}

// template parses a file as a template, once.
func (st *state) template(f *srcFile) (hclsyntax.Expression, error) {
	if t, ok := st.templates[f.name]; ok {
		return t.expr, t.err
	}
	t := &parsedTemplate{}
	st.templates[f.name] = t
	if err := templateNestingError(f); err != nil {
		t.err = err
		return nil, err
	}
	expr, diags := hclsyntax.ParseTemplate(f.data, f.name, hcl.InitialPos)
	if err := diagError(f.name, diags); err != nil {
		t.err = err
		return nil, err
	}
	t.expr = expr
	return expr, nil
}

// render renders a template expression from file f.
func (m *module) render(sc scope, e hclsyntax.Expression, f *srcFile, at hcl.Range) *Source {
	b := &builder{sc: sc, src: f}
	b.expr(e, 0)
	b.close()
	return &Source{Text: string(b.out), File: at.Filename, Known: true, Partial: b.partial,
		Pos: rangePos(at), Refs: uniq(b.refs), src: f, runs: b.runs}
}

// builder renders template parts and records where each byte comes from.
type builder struct {
	sc      scope
	src     *srcFile
	out     []byte
	runs    []run
	refs    []string
	partial bool
	quote   bool // inside a double-quoted scalar opened for an unknown part
}

func (b *builder) emit(c byte, src int, fixed bool) {
	n := len(b.out)
	b.out = append(b.out, c)
	if k := len(b.runs) - 1; k >= 0 {
		r := &b.runs[k]
		if r.out+r.n == n && r.fixed == fixed && (fixed && r.src == src || !fixed && r.src+r.n == src) {
			r.n++
			return
		}
	}
	b.runs = append(b.runs, run{out: n, src: src, n: 1, fixed: fixed})
}

// put writes one byte, escaping it inside an opened quoted scalar, which ends at the line end
// or before a ": " (a mapping key). next is the byte after c when known, else -1.
func (b *builder) put(c byte, next int, src int, fixed bool) {
	if !b.quote {
		b.emit(c, src, fixed)
		return
	}
	switch {
	case c == '\n' || c == '\r' || c == ':' && (next == ' ' || next == '\n' || next == '\r'):
		b.emit('"', src, true)
		b.quote = false
	case c == '"' || c == '\\':
		b.emit('\\', src, true)
	}
	b.emit(c, src, fixed)
}

func (b *builder) close() {
	if b.quote {
		src := 0
		if k := len(b.runs) - 1; k >= 0 {
			src = b.runs[k].src
		}
		b.emit('"', src, true)
		b.quote = false
	}
}

func (b *builder) expr(e hclsyntax.Expression, depth int) {
	if depth > maxSourceDepth {
		b.value(Wildcard, e.Range(), true)
		return
	}
	switch e := e.(type) {
	case *hclsyntax.TemplateExpr:
		for _, p := range e.Parts {
			b.part(p, depth+1)
		}
	case *hclsyntax.TemplateWrapExpr:
		b.part(e.Wrapped, depth+1)
	default:
		b.part(e, depth+1)
	}
}

// part renders one template part.
func (b *builder) part(p hclsyntax.Expression, depth int) {
	switch p := p.(type) {
	case *hclsyntax.LiteralValueExpr:
		if p.Val.IsKnown() && !p.Val.IsNull() && p.Val.Type() == cty.String {
			b.literal(p.Val.AsString(), p.SrcRange)
			return
		}
	case *hclsyntax.TemplateExpr:
		b.expr(p, depth)
		return
	case *hclsyntax.ConditionalExpr:
		c, refs := evaluate(b.sc, p.Condition, modeReal)
		b.refs = append(b.refs, refs...)
		if c.IsKnown() && !c.IsNull() && c.Type() == cty.Bool {
			if c.True() {
				b.expr(p.TrueResult, depth)
			} else {
				b.expr(p.FalseResult, depth)
			}
			return
		}
		b.partial = true
		b.expr(p.TrueResult, depth)
		return
	case *hclsyntax.TemplateJoinExpr:
		v, refs := evaluate(b.sc, p, modeReal)
		b.refs = append(b.refs, refs...)
		if v.IsWhollyKnown() && !v.IsNull() && v.Type() == cty.String {
			b.value(v.AsString(), p.Range(), false)
			return
		}
		if f, ok := p.Tuple.(*hclsyntax.ForExpr); ok {
			b.partial = true
			b.expr(f.ValExpr, depth)
			return
		}
	}
	v, refs := evaluate(b.sc, p, modeReal)
	b.refs = append(b.refs, refs...)
	if s := asString(v, modeReal); s.IsKnown() {
		b.value(s.AsString(), p.Range(), false)
		return
	}
	pv, _ := evaluate(b.sc, p, modePattern)
	b.partial = true
	b.value(patternText(asString(pv, modePattern)), p.Range(), true)
}

// literal writes a literal part, aligning its (unescaped, possibly de-indented) text with the
// bytes written in the file so every byte maps to where it is written.
func (b *builder) literal(val string, at hcl.Range) {
	if b.src == nil {
		for i := 0; i < len(val); i++ {
			b.put(val[i], nextByte(val, i), 0, true)
		}
		return
	}
	data := b.src.data
	start, end := clamp(at.Start.Byte, len(data)), clamp(at.End.Byte, len(data))
	j := start
	for i := 0; i < len(val); i++ {
		c := val[i]
		k := j
		for k < end && data[k] != c && (k-j < 8 || data[k] == ' ' || data[k] == '\t') {
			k++
		}
		if k < end && data[k] == c {
			b.put(c, nextByte(val, i), k, false)
			j = k + 1
			continue
		}
		fix := j
		if fix >= end && end > start {
			fix = end - 1
		}
		b.put(c, nextByte(val, i), fix, true)
	}
}

func nextByte(s string, i int) int {
	if i+1 < len(s) {
		return int(s[i+1])
	}
	return -1
}

func clamp(i, n int) int {
	if i < 0 {
		return 0
	}
	if i > n {
		return n
	}
	return i
}

// value writes a rendered value; all its bytes map to the interpolation that produced it.
func (b *builder) value(text string, at hcl.Range, unknown bool) {
	if st := b.sc.state(); len(b.out)+len(text) > maxValueSize || st.err != nil {
		if st.err == nil {
			st.err = budgetError(weight{out: int64(len(b.out) + len(text))}, at)
		}
		return
	}
	src := 0
	if b.src != nil {
		src = clamp(at.Start.Byte, len(b.src.data))
		if src >= 2 && string(b.src.data[src-2:src]) == "${" {
			src -= 2
		}
	}
	if unknown && strings.HasPrefix(text, Wildcard) && !b.quote {
		if start, flow := b.plainStart(); start {
			b.emit('"', src, true)
			if flow {
				for i := 0; i < len(text); i++ {
					b.put(text[i], -1, src, true)
				}
				b.emit('"', src, true)
				return
			}
			b.quote = true
		}
	}
	for i := 0; i < len(text); i++ {
		b.put(text[i], -1, src, true)
	}
}

// plainStart reports whether text written now would begin a YAML plain scalar, and whether in
// a flow collection.
func (b *builder) plainStart() (start, flow bool) {
	line := b.out
	if i := bytes.LastIndexByte(b.out, '\n'); i >= 0 {
		line = b.out[i+1:]
	}
	t := strings.TrimRight(string(line), " \t")
	if t == "" {
		return true, false
	}
	switch last := t[len(t)-1]; {
	case last == '[' || last == '{' || last == ',':
		return true, true
	case len(t) == len(line):
		return false, false // no blank before: inside a scalar
	case last == ':' || last == '?':
		return true, false
	case last == '-':
		return len(t) == 1 || t[len(t)-2] == ' ' || t[len(t)-2] == '\t', false
	}
	return false, false
}
