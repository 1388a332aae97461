package topology

import (
	"path/filepath"
	"strings"

	"github.com/retrylint/retrylint/internal/lazyre"
	"github.com/retrylint/retrylint/internal/suppress"
)

// Suppressions holds the `# retrylint:ignore RULE[,RULE] reason` comments
// of the loaded files (the grammar of package internal/suppress).
type Suppressions struct {
	byFile map[string]map[int]Directive
	// Invalid lists the directives that are wrong in whole or in part — no
	// rule, no reason, a rule name no topology rule has, a misspelt
	// keyword — in file and line order, each with its Problem: they are
	// reported.
	Invalid []Directive
	scanned map[string]bool
}

// Directive is one ignore comment.
type Directive struct {
	Pos    Pos
	Rules  []string
	Reason string
	// Problem says what is wrong with the directive and what to write;
	// "" for a valid one.
	Problem string
}

// ignoreRE finds the comment marker of a directive, or of a near miss
// ("# Retrylint-ignore"); hclIgnoreRE also finds HCL's other comment
// marker, //.
var (
	ignoreRE    = lazyre.New(`#\s*(?i:retrylint)`)
	hclIgnoreRE = lazyre.New(`(?:#|//)\s*(?i:retrylint)`)
)

// scan records the ignore comments of one file, once.
func (s *Suppressions) scan(file string, src []byte) {
	if s.scanned[file] {
		return
	}
	if s.scanned == nil {
		s.scanned = map[string]bool{}
	}
	s.scanned[file] = true
	if !strings.Contains(strings.ToLower(string(src)), "retrylint") {
		return
	}
	marker := ignoreRE
	if strings.EqualFold(filepath.Ext(file), ".tf") {
		marker = hclIgnoreRE
	}
	for i, line := range strings.Split(string(src), "\n") {
		m := marker.FindStringIndex(line)
		if m == nil {
			continue
		}
		text := strings.TrimLeft(line[m[0]:], "#/")
		if j := strings.Index(text, "#"); j >= 0 { // a further comment is no reason
			text = text[:j]
		}
		sd, ok := suppress.Parse(text)
		if !ok {
			continue
		}
		d := Directive{Pos: Pos{File: file, Line: i + 1, Col: m[0] + 1}, Rules: sd.Rules, Reason: sd.Reason,
			Problem: suppress.Check(text, suppress.Topology)}
		if d.Problem != "" {
			s.Invalid = append(s.Invalid, d)
		}
		if !sd.Valid() {
			continue
		}
		if s.byFile == nil {
			s.byFile = map[string]map[int]Directive{}
		}
		if s.byFile[file] == nil {
			s.byFile[file] = map[int]Directive{}
		}
		s.byFile[file][i+1] = d
	}
}

// Suppressed reports whether a finding of rule at p is ignored by a
// directive on its line or the line above.
func (s *Suppressions) Suppressed(rule string, p Pos) bool {
	if s == nil || s.byFile == nil {
		return false
	}
	lines := s.byFile[p.File]
	for _, l := range []int{p.Line, p.Line - 1} {
		d, ok := lines[l]
		if !ok {
			continue
		}
		if (suppress.Directive{Rules: d.Rules}).Covers(rule) {
			return true
		}
	}
	return false
}
