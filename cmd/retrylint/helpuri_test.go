package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/retrylint/retrylint/analyzer/all"
)

// TestHelpURIsExist checks that every rule's page link, which SARIF's
// helpUri and the Markdown report carry, names a page in the repository.
func TestHelpURIsExist(t *testing.T) {
	prefix := projectURL + "/blob/main/"
	infos := ruleInfos()
	if len(infos) != len(catalogue()) {
		t.Fatalf("%d rule infos for %d rules", len(infos), len(catalogue()))
	}
	for _, r := range infos {
		rel, ok := strings.CutPrefix(r.HelpURI, prefix)
		if !ok {
			t.Errorf("%s: helpUri %q is not a page of %s", r.ID, r.HelpURI, projectURL)
			continue
		}
		b, err := os.ReadFile(filepath.Join(reportRoot, filepath.FromSlash(rel)))
		if err != nil {
			t.Errorf("%s: helpUri %s: %v", r.ID, r.HelpURI, err)
			continue
		}
		if first, _, _ := strings.Cut(string(b), "\n"); first != "# "+r.ID {
			t.Errorf("%s: the page at %s is titled %q", r.ID, rel, first)
		}
	}
}

// TestAnalyzerURLsExist checks the URL that go vet and golangci-lint show
// for each analyzer: a page of the repository, and for an anchor a
// heading of that page.
func TestAnalyzerURLsExist(t *testing.T) {
	prefix := projectURL + "/blob/main/"
	for _, a := range all.WithSettings() {
		rel, ok := strings.CutPrefix(a.URL, prefix)
		if !ok {
			t.Errorf("%s: URL %q is not a page of %s", a.Name, a.URL, projectURL)
			continue
		}
		file, anchor, _ := strings.Cut(rel, "#")
		b, err := os.ReadFile(filepath.Join(reportRoot, filepath.FromSlash(file)))
		if err != nil {
			t.Errorf("%s: URL %s: %v", a.Name, a.URL, err)
			continue
		}
		if anchor != "" && !slices.Contains(headingAnchors(string(b)), anchor) {
			t.Errorf("%s: URL %s: %s has no heading #%s", a.Name, a.URL, file, anchor)
		}
	}
}

// headingAnchors are the anchors GitHub gives a Markdown page's headings:
// lower case, spaces to hyphens, punctuation other than - and _ dropped.
func headingAnchors(page string) []string {
	var out []string
	for line := range strings.Lines(page) {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}
