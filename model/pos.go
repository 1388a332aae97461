package model

import "fmt"

// Pos is a place in an input file (a Go file, a manifest, a topology
// file); lines and columns count from 1. It is the one position type of
// retrylint: the topology loaders, the Terraform and Workflows readers and
// the rules all use it.
type Pos struct {
	File string
	Line int
	Col  int
	// EndCol is the column just past the token on Line, when known (0
	// otherwise).
	EndCol int
}

// IsValid reports whether the position names a file.
func (p Pos) IsValid() bool { return p.File != "" }

// String renders "file:line:col", or the file alone when no line is known.
func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}
