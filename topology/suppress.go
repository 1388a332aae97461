package topology

import (
	"regexp"
	"strings"
)

// Suppressions holds the `# retrylint:ignore RULE[,RULE] reason` comments
// of the loaded files.
type Suppressions struct {
	byFile map[string]map[int]Directive
	// Invalid lists directives without a reason: they suppress nothing and
	// are reported.
	Invalid []Directive
	scanned map[string]bool
}

// Directive is one ignore comment.
type Directive struct {
	Pos    Pos
	Rules  []string
	Reason string
}

var ignoreRE = regexp.MustCompile(`#\s*retrylint:ignore(?:\s+([A-Za-z0-9_,-]+))?(?:[ \t]+(.*))?`)

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
		m := ignoreRE.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		d := Directive{Pos: Pos{File: file, Line: i + 1, Col: m[0] + 1}}
		if m[2] >= 0 {
			for _, r := range strings.Split(line[m[2]:m[3]], ",") {
				if r = strings.TrimSpace(r); r != "" {
					d.Rules = append(d.Rules, r)
				}
			}
		}
		if m[4] >= 0 {
			reason := line[m[4]:m[5]]
			if i := strings.Index(reason, "#"); i >= 0 { // a further comment is no reason
				reason = reason[:i]
			}
			d.Reason = strings.TrimSpace(reason)
		}
		if len(d.Rules) == 0 || d.Reason == "" {
			s.Invalid = append(s.Invalid, d)
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
		for _, r := range d.Rules {
			if r == rule || r == "all" {
				return true
			}
		}
	}
	return false
}
