package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

const sitesSrc = `package p

type C[T any] struct{}

func (c *C[T]) Get() {
retry:
	for attempt := 0; attempt < 3; attempt++ {
		sleep(1)
		continue retry
	}
}

func (c C[T]) Each(xs []int) {
	for _, x := range xs {
		use(x)
	}
	for {
	}
}

var f = func() {
	for i := 0; i < 2; i++ {
	}
}
`

// TestCodeSites: a finding is placed in its function, named as Go names
// it, and in its loop, the same whether at the loop's label or in its
// body; a finding at a loop covers the header.
func TestCodeSites(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", sitesSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	sites := newCodeSites(fset, []*ast.File{f})
	at := func(substr string) token.Pos {
		i := strings.Index(sitesSrc, substr)
		if i < 0 {
			t.Fatalf("no %q", substr)
		}
		return fset.File(f.Pos()).Pos(i)
	}
	for _, tc := range []struct {
		at, function, loop, header string
	}{
		{"retry:", "(*C).Get", "retry : for attempt := _ ; attempt < _ ; attempt ++", "retry:\n\tfor attempt := 0; attempt < 3; attempt++"},
		{"sleep(1)", "(*C).Get", "retry : for attempt := _ ; attempt < _ ; attempt ++", ""},
		{"use(x)", "C.Each", "for _ , x := range xs", ""},
		{"for {", "C.Each", "for", "for"},
		{"for i", "", "for i := _ ; i < _ ; i ++", "for i := 0; i < 2; i++"},
		{"type C", "", "", ""},
	} {
		s := sites.at(at(tc.at))
		if s.function != tc.function || s.loop != tc.loop {
			t.Errorf("at %q: function %q, loop %q; want %q, %q", tc.at, s.function, s.loop, tc.function, tc.loop)
		}
		if tc.header == "" {
			continue
		}
		if got := sitesSrc[fset.Position(s.header).Offset:fset.Position(s.headerEnd).Offset]; got != tc.header {
			t.Errorf("at %q: header %q, want %q", tc.at, got, tc.header)
		}
	}
}
