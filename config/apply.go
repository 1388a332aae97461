package config

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/retrylint/retrylint/model"
)

// Apply changes findings as the configuration says: a rule set to a
// severity gets it, a rule set to off and a finding in an ignored path are
// removed. wd is the directory the findings' paths are relative to.
func (c *Config) Apply(findings []model.Finding, wd string) []model.Finding {
	out := findings[:0:0]
	for _, f := range findings {
		if l, ok := c.Severity[f.Rule]; ok {
			if l == Off {
				continue
			}
			f.Severity = model.Severity(l)
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
//
// The match runs the pattern as a set of positions over the name's
// segments, once: O(pattern segments × name segments) whatever the
// pattern, where backtracking over several "**" was exponential.
func MatchPath(pattern, name string) bool {
	pattern = strings.TrimPrefix(strings.TrimSuffix(pattern, "/"), "./")
	ps := strings.Split(pattern, "/")
	at := make([]bool, len(ps)+1) // at[j]: the segments so far match ps[:j]
	next := make([]bool, len(ps)+1)
	at[0] = true
	closeOver(ps, at)
	for _, seg := range strings.Split(name, "/") {
		clear(next)
		for j, ok := range at[:len(ps)] {
			switch {
			case !ok:
			case ps[j] == "**":
				next[j] = true // "**" takes this segment and may take more
			default:
				if m, err := path.Match(ps[j], seg); err == nil && m {
					next[j+1] = true
				}
			}
		}
		at, next = next, at
		closeOver(ps, at)
		if at[len(ps)] {
			return true // the name, or the directory so far, matches
		}
	}
	return false
}

// closeOver lets each "**" match no segment at all: a position before one
// is also a position after it.
func closeOver(ps []string, at []bool) {
	for j := range ps {
		if at[j] && ps[j] == "**" {
			at[j+1] = true
		}
	}
}
