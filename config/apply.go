package config

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/retrylint/retrylint/report"
)

// Apply changes findings as the configuration says: a rule set to a
// severity gets it, a rule set to off and a finding in an ignored path are
// removed. wd is the directory the findings' paths are relative to.
func (c *Config) Apply(findings []report.Finding, wd string) []report.Finding {
	out := findings[:0:0]
	for _, f := range findings {
		if l, ok := c.Severity[f.Rule]; ok {
			if l == Off {
				continue
			}
			f.Severity = report.Severity(l)
		}
		if f.File != "" && c.Ignored(filepath.Join(wd, filepath.FromSlash(f.File))) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// Ignored reports whether the file or directory at abs matches an ignore
// pattern. Patterns are relative to the configuration file's directory
// (the working directory when there is no file).
func (c *Config) Ignored(abs string) bool {
	if len(c.Ignore) == 0 {
		return false
	}
	rel := abs
	if c.Dir != "" {
		r, err := filepath.Rel(c.Dir, abs)
		if err != nil || !filepath.IsLocal(r) {
			return false
		}
		rel = r
	}
	rel = filepath.ToSlash(rel)
	for _, pat := range c.Ignore {
		if MatchPath(pat, rel) {
			return true
		}
	}
	return false
}

// MatchPath reports whether the slash-separated relative path name, or a
// directory above it, matches pattern. A pattern is matched segment by
// segment as path.Match does; "**" matches any number of segments; a
// trailing "/" is ignored; "./" in front is ignored.
func MatchPath(pattern, name string) bool {
	pattern = strings.TrimPrefix(strings.TrimSuffix(pattern, "/"), "./")
	ps := strings.Split(pattern, "/")
	ns := strings.Split(name, "/")
	for n := len(ns); n >= 1; n-- { // name itself, then its directories
		if matchSegments(ps, ns[:n]) {
			return true
		}
	}
	return false
}

// matchSegments matches pattern segments against name segments.
func matchSegments(ps, ns []string) bool {
	for len(ps) > 0 {
		if ps[0] == "**" {
			for i := 0; i <= len(ns); i++ {
				if matchSegments(ps[1:], ns[i:]) {
					return true
				}
			}
			return false
		}
		if len(ns) == 0 {
			return false
		}
		if ok, err := path.Match(ps[0], ns[0]); err != nil || !ok {
			return false
		}
		ps, ns = ps[1:], ns[1:]
	}
	return len(ns) == 0
}
