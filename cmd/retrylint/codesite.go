package main

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/scanner"
	"go/token"
	"sort"
	"strings"
)

// codeSites place the findings of a package in its syntax: the function
// each is in, the loop it is in or at, and that loop's header. The
// baseline keys a finding on the first two, not on its line or message;
// a finding about a loop as a whole covers its header.
type codeSites struct {
	fset   *token.FileSet
	syntax []*ast.File
	files  map[*token.File]*fileSites
}

func newCodeSites(fset *token.FileSet, syntax []*ast.File) *codeSites {
	return &codeSites{fset: fset, syntax: syntax, files: map[*token.File]*fileSites{}}
}

// fileSites are the functions and loops of one file, in order of position;
// each knows the one it is in.
type fileSites struct {
	nodes   []ast.Node
	parents []int // index in nodes of the enclosing one, -1 for none
}

// labelOf is the labeled statement of the loop nodes[i], or the loop
// itself when it has no label: a finding at the label and one in the body
// are in one loop.
func (fs *fileSites) labelOf(i int) ast.Node {
	if p := fs.parents[i]; p >= 0 {
		if l, ok := fs.nodes[p].(*ast.LabeledStmt); ok && l.Stmt == fs.nodes[i] {
			return l
		}
	}
	return fs.nodes[i]
}

// codeSite is where a finding is.
type codeSite struct {
	function  string    // F, T.M, (*T).M; "" outside any function
	loop      string    // the loop's shape; "" outside any loop
	header    token.Pos // the start of the loop's header: its label or "for"
	headerEnd token.Pos // the end of its header, before "{"
}

// at is the site of pos.
func (s *codeSites) at(pos token.Pos) codeSite {
	fs := s.fileOf(pos)
	if fs == nil {
		return codeSite{}
	}
	i := sort.Search(len(fs.nodes), func(i int) bool { return fs.nodes[i].Pos() > pos }) - 1
	for i >= 0 && fs.nodes[i].End() <= pos {
		i = fs.parents[i]
	}
	var site codeSite
	for ; i >= 0; i = fs.parents[i] {
		switch n := fs.nodes[i].(type) {
		case *ast.FuncDecl:
			site.function = funcName(n)
			return site
		case *ast.ForStmt, *ast.RangeStmt, *ast.LabeledStmt:
			if site.loop == "" {
				loop := fs.labelOf(i)
				site.header, site.headerEnd = loop.Pos(), headerEnd(loop)
				site.loop = loopShape(s.fset, loop)
			}
		}
	}
	return site
}

// fileOf is the index of the file that holds pos, built when first asked
// for; nil when pos is in none of the package's files.
func (s *codeSites) fileOf(pos token.Pos) *fileSites {
	tf := s.fset.File(pos)
	if tf == nil {
		return nil
	}
	if fs, ok := s.files[tf]; ok {
		return fs
	}
	var fs *fileSites
	for _, f := range s.syntax {
		if s.fset.File(f.FileStart) == tf {
			fs = indexSites(f)
			break
		}
	}
	s.files[tf] = fs
	return fs
}

// indexSites lists the function declarations and loops of f; a labeled
// statement stands for its loop, or for a loop of goto.
func indexSites(f *ast.File) *fileSites {
	fs := &fileSites{}
	var stack []int // the enclosing sites of the node being visited; -2 for other nodes
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		parent := -1
		for j := len(stack) - 1; j >= 0; j-- {
			if stack[j] >= 0 {
				parent = stack[j]
				break
			}
		}
		switch n.(type) {
		case *ast.FuncDecl, *ast.ForStmt, *ast.RangeStmt, *ast.LabeledStmt:
			fs.nodes = append(fs.nodes, n)
			fs.parents = append(fs.parents, parent)
			stack = append(stack, len(fs.nodes)-1)
		default:
			stack = append(stack, -2)
		}
		return true
	})
	return fs
}

// funcName names a function declaration as Go does in a stack trace:
// F, T.M or (*T).M, without type parameters.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = true, s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	recv := "?"
	if id, ok := t.(*ast.Ident); ok {
		recv = id.Name
	}
	if star {
		return "(*" + recv + ")." + fd.Name.Name
	}
	return recv + "." + fd.Name.Name
}

// headerEnd is where the header of a loop ends: after its clauses (or
// "for" alone), before "{". A label's header is its loop's; a label
// of a goto loop is the label and its colon.
func headerEnd(n ast.Node) token.Pos {
	switch n := n.(type) {
	case *ast.ForStmt:
		// A clause left out is a nil interface here.
		for _, part := range []ast.Node{n.Post, n.Cond, n.Init} {
			if part != nil {
				return part.End()
			}
		}
		return n.For + token.Pos(len("for"))
	case *ast.RangeStmt:
		return n.X.End()
	case *ast.LabeledStmt:
		switch n.Stmt.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return headerEnd(n.Stmt)
		}
		return n.Colon + 1
	}
	return n.End()
}

// loopShape is what identifies a loop in its function whatever its
// numbers: the tokens of its header with every literal written "_",
// "for attempt := _ ; attempt < _ ; attempt ++", after its label if it has
// one. Changing how many attempts it makes or how long it waits keeps
// its shape.
func loopShape(fset *token.FileSet, n ast.Node) string {
	label := ""
	if l, ok := n.(*ast.LabeledStmt); ok {
		label = l.Label.Name + " :"
		n = l.Stmt
	}
	var header ast.Node
	switch n := n.(type) {
	case *ast.ForStmt:
		c := *n
		c.Body = &ast.BlockStmt{}
		header = &c
	case *ast.RangeStmt:
		c := *n
		c.Body = &ast.BlockStmt{}
		header = &c
	default:
		return label
	}
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, header); err != nil {
		return label
	}
	return strings.TrimSpace(label + " " + shapeTokens(b.Bytes()))
}

// shapeTokens is the Go source src as its tokens separated by spaces,
// literals written "_", braces and comments left out.
func shapeTokens(src []byte) string {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	var toks []string
	for {
		_, tok, lit := sc.Scan()
		switch {
		case tok == token.EOF:
			return strings.Join(toks, " ")
		case tok == token.LBRACE, tok == token.RBRACE, tok == token.SEMICOLON && lit == "\n":
		case tok.IsLiteral() && tok != token.IDENT:
			toks = append(toks, "_")
		case lit != "":
			toks = append(toks, lit)
		default:
			toks = append(toks, tok.String())
		}
	}
}
