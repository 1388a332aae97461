// Package lazyre holds regular expressions that compile on first use.
//
// A package-level regexp.MustCompile runs at program start in every
// process, and go vet starts retrylint once per package: expressions the
// run never needs (the topology's, under go vet) cost each start their
// compilation.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled the first time it is used.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// New returns expr, to be compiled on first use; like regexp.MustCompile,
// that use panics if expr is not a valid expression.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// Regexp returns the compiled expression.
func (l *Regexp) Regexp() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

// String returns the source text of the expression.
func (l *Regexp) String() string { return l.expr }

// MatchString is (*regexp.Regexp).MatchString.
func (l *Regexp) MatchString(s string) bool { return l.Regexp().MatchString(s) }

// FindStringSubmatch is (*regexp.Regexp).FindStringSubmatch.
func (l *Regexp) FindStringSubmatch(s string) []string { return l.Regexp().FindStringSubmatch(s) }

// FindStringSubmatchIndex is (*regexp.Regexp).FindStringSubmatchIndex.
func (l *Regexp) FindStringSubmatchIndex(s string) []int {
	return l.Regexp().FindStringSubmatchIndex(s)
}

// FindStringIndex is (*regexp.Regexp).FindStringIndex.
func (l *Regexp) FindStringIndex(s string) []int { return l.Regexp().FindStringIndex(s) }

// ReplaceAllString is (*regexp.Regexp).ReplaceAllString.
func (l *Regexp) ReplaceAllString(src, repl string) string {
	return l.Regexp().ReplaceAllString(src, repl)
}
