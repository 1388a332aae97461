package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/retrylint/retrylint/eval/internal/checkout"
)

// silent is the rule of a label that marks a look-alike: a loop on which no
// rule may fire.
const silent = "-"

// rules are the code rules a label may name.
var rules = []string{
	"fixed-sleep", "no-jitter", "no-cap", "unbounded-retry",
	"unclassified-retry", "retry-permanent", "sleep-ignores-context", "nested-retry",
}

var header = []string{"repo", "commit", "path", "line", "rule", "note"}

// A label is one expected finding (or, with rule "-", a loop that must stay
// silent) in a public repository at a commit.
type label struct {
	Repo   string // owner/name
	Commit string
	Path   string // relative to the repository root, with /
	Line   int
	Rule   string
	Note   string
	Src    int // line in the labels file
}

func isCommit(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

func knownRule(r string) bool {
	for _, k := range rules {
		if k == r {
			return true
		}
	}
	return false
}

// parseLabels reads the tab-separated labels. Blank lines and lines starting
// with # are skipped. Errors name the file and line.
func parseLabels(name string, r io.Reader) ([]label, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var out []label
	n := 0
	commits := map[string]string{}
	seen := map[string]int{}
	for sc.Scan() {
		n++
		text := sc.Text()
		if n == 1 {
			if text != strings.Join(header, "\t") {
				return nil, fmt.Errorf("%s:1:1: header must be %q", name, strings.Join(header, "\t"))
			}
			continue
		}
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != len(header) {
			return nil, fmt.Errorf("%s:%d:1: want %d tab-separated fields, got %d", name, n, len(header), len(f))
		}
		line, err := strconv.Atoi(f[3])
		if err != nil || line < 1 {
			return nil, fmt.Errorf("%s:%d: line %q is not a positive number", name, n, f[3])
		}
		l := label{Repo: f[0], Commit: f[1], Path: f[2], Line: line, Rule: f[4], Note: f[5], Src: n}
		switch {
		case strings.Count(l.Repo, "/") != 1:
			return nil, fmt.Errorf("%s:%d: repo %q is not owner/name", name, n, l.Repo)
		case !isCommit(l.Commit) && !checkout.IsModuleVersion(l.Commit):
			return nil, fmt.Errorf("%s:%d: commit %q is neither 40 hex digits nor a module version", name, n, l.Commit)
		case l.Rule != silent && !knownRule(l.Rule):
			return nil, fmt.Errorf("%s:%d: unknown rule %q (want - or one of %s)", name, n, l.Rule, strings.Join(rules, ", "))
		case strings.TrimSpace(l.Note) == "":
			return nil, fmt.Errorf("%s:%d: note is empty", name, n)
		}
		if c, ok := commits[l.Repo]; ok && c != l.Commit {
			return nil, fmt.Errorf("%s:%d: %s at commit %s, but at %s above", name, n, l.Repo, l.Commit, c)
		}
		commits[l.Repo] = l.Commit
		key := fmt.Sprintf("%s\t%s\t%d\t%s", l.Repo, l.Path, l.Line, l.Rule)
		if prev, ok := seen[key]; ok {
			return nil, fmt.Errorf("%s:%d: duplicate of line %d", name, n, prev)
		}
		seen[key] = n
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("%s:1:1: empty file, want the header %q", name, strings.Join(header, "\t"))
	}
	return out, nil
}
