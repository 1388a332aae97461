package all_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/analyzer/all"
	"github.com/retrylint/retrylint/docs"
)

// TestOneDocSource holds every code rule to one documentation source, its
// page in docs/rules: the analyzer's Doc (what go vet help and the driver
// print) is the page's summary and fix, the package documentation's
// "name: summary" line repeats the summary, and the analyzer's URL is the
// page.
func TestOneDocSource(t *testing.T) {
	for _, r := range all.Rules() {
		a := r.Analyzer
		summary, fix := docs.Summary(r.Name), docs.Fix(r.Name)
		if summary == "" || fix == "" {
			t.Errorf("%s: docs/rules/%s.md lacks a summary or a Fix section", r.Name, r.Name)
			continue
		}
		if a.Doc != summary+"\n\n"+fix {
			t.Errorf("%s: Doc is not the page's summary and fix:\n%s", r.Name, a.Doc)
		}
		if want := "https://github.com/retrylint/retrylint/blob/main/docs/rules/" + r.Name + ".md"; a.URL != want {
			t.Errorf("%s: URL %q, want %q", r.Name, a.URL, want)
		}
		file := filepath.Join("..", a.Name, "doc.go")
		src, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("%s: %v", r.Name, err)
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil || f.Doc == nil {
			t.Errorf("%s: %s has no package documentation (%v)", r.Name, file, err)
			continue
		}
		if text := f.Doc.Text(); !strings.Contains(text, "\n"+a.Name+": "+summary+"\n") {
			t.Errorf("%s: %s does not carry the line %q", r.Name, file, a.Name+": "+summary)
		}
		if !strings.Contains(f.Doc.Text(), "The rule's name is "+r.Name+".") {
			t.Errorf("%s: %s does not name the rule", r.Name, file)
		}
	}
}
