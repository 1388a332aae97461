package topology

import (
	"strings"

	"github.com/retrylint/retrylint/internal/lazyre"
	"github.com/retrylint/retrylint/internal/suppress"
)

// Suppressions holds the `# retrylint:ignore RULE[,RULE] reason` comments
// of the loaded files (the grammar of package internal/suppress).
type Suppressions struct {
	byFile map[string]map[int]Directive
	// Invalid lists directives without a rule or a reason: they suppress
	// nothing and are reported.
	Invalid []Directive
	// Valid lists the other directives, in file and line order; one that
	// names a rule no rule has is reported too.
	Valid   []Directive
	scanned map[string]bool
}

// Directive is one ignore comment.
type Directive struct {
	Pos    Pos
	Rules  []string
	Reason string
}

// ignoreRE finds the comment marker of a directive.
var ignoreRE = lazyre.New(`#\s*retrylint:ignore`)

// scan records the ignore comments of one file, once.
func (s *Suppressions) scan(file string, src []byte) {
	if s.scanned[file] {
		return
	}
	if s.scanned == nil {
		s.scanned = map[string]bool{}
	}
	s.scanned[file] = true
	if !strings.Contains(string(src), "retrylint:ignore") {
		return
	}
	for i, line := range strings.Split(string(src), "\n") {
		m := ignoreRE.FindStringIndex(line)
		if m == nil {
			continue
		}
		text := line[m[0]+1:]
		if j := strings.Index(text[1:], "#"); j >= 0 { // a further comment is no reason
			text = text[:j+1]
		}
		sd, ok := suppress.Parse(text)
		if !ok {
			continue
		}
		d := Directive{Pos: Pos{File: file, Line: i + 1, Col: m[0] + 1}, Rules: sd.Rules, Reason: sd.Reason}
		if !sd.Valid() {
			s.Invalid = append(s.Invalid, d)
			continue
		}
		s.Valid = append(s.Valid, d)
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
