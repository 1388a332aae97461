package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
