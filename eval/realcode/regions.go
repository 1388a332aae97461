package main

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// span is an inclusive range of lines.
type span struct{ From, To int }

func (s span) has(line int) bool { return s.From <= line && line <= s.To }

// regionOf returns the lines of the loop a label belongs to: the innermost
// for or range statement that holds the label's line, else the innermost
// function (a recursive retry, a library call, a helper that waits), else the
// line alone. One line above is included, where a goto label or a loop's
// label may stand.
func regionOf(fset *token.FileSet, file *ast.File, line int) span {
	best := span{line, line}
	found := false
	var fn span
	fnFound := false
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		s := span{fset.Position(n.Pos()).Line, fset.Position(n.End()).Line}
		if !s.has(line) {
			return true
		}
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			// Inspect goes outside in: the last loop seen is the innermost.
			best, found = s, true
		case *ast.FuncDecl, *ast.FuncLit:
			fn, fnFound = s, true
			found = false // a loop outside this function does not count
		}
		return true
	})
	if !found && fnFound {
		best = fn
	}
	if best.From > 1 {
		best.From--
	}
	return best
}

// fileRegions parses src and returns the region of every given line.
func fileRegions(name string, src []byte, lines []int) ([]span, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	out := make([]span, len(lines))
	for i, l := range lines {
		out[i] = regionOf(fset, file, l)
	}
	return out, nil
}
