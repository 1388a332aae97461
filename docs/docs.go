// Package docs holds retrylint's rule pages, one Markdown file per rule in
// rules/, embedded in the binary for "retrylint explain".
//
// A page starts with a level-one heading naming the rule ("# fixed-sleep"),
// followed by a one-paragraph summary.
package docs

import (
	"embed"
	"io/fs"
	"strings"
)

//go:embed rules/*.md
var rulePages embed.FS

// Rule returns the Markdown page of the named rule, and whether there is one.
func Rule(name string) ([]byte, bool) {
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return nil, false
	}
	page, err := rulePages.ReadFile("rules/" + name + ".md")
	if err != nil {
		return nil, false
	}
	return page, true
}

// Rules lists the names of the rules that have a page, sorted.
func Rules() []string {
	entries, err := fs.ReadDir(rulePages, "rules")
	if err != nil {
		panic(err) // the directory is embedded: it exists
	}
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".md"); ok {
			names = append(names, name)
		}
	}
	return names
}

// Summary returns the one-paragraph summary of the named rule's page,
// joined into one line: the first paragraph after the title. It is ""
// when there is no such page.
func Summary(name string) string {
	page, ok := Rule(name)
	if !ok {
		return ""
	}
	var para []string
	inPara := false
	for line := range strings.Lines(string(page)) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "# ") && !inPara && len(para) == 0:
			// The title.
		case line == "":
			if inPara {
				return strings.Join(para, " ")
			}
		case strings.HasPrefix(line, "#"):
			return strings.Join(para, " ")
		default:
			inPara = true
			para = append(para, line)
		}
	}
	return strings.Join(para, " ")
}

// Fix returns the first paragraph of the "Fix" section of the named rule's
// page, joined into one line, or "".
func Fix(name string) string {
	page, ok := Rule(name)
	if !ok {
		return ""
	}
	var para []string
	in := false
	for line := range strings.Lines(string(page)) {
		line = strings.TrimSpace(line)
		switch {
		case line == "## Fix":
			in = true
		case !in:
		case strings.HasPrefix(line, "#"):
			return strings.Join(para, " ")
		case line == "":
			if len(para) > 0 {
				return strings.Join(para, " ")
			}
		default:
			para = append(para, line)
		}
	}
	return strings.Join(para, " ")
}

// AnalyzerDoc is the Doc of a code rule's analyzer, taken from its page so
// that go vet's help, retrylint explain and the page say the same: the
// summary, then the fix.
func AnalyzerDoc(name string) string {
	return Summary(name) + "\n\n" + Fix(name)
}
