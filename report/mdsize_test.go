package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/retrylint/retrylint/model"
)

// hugeResult has what a large monorepo gives: many events with long
// tables and large diagrams, many rules and findings, a long comparison.
func hugeResult() *model.Result {
	r := &model.Result{Changes: &model.Changes{Base: "origin/main"}}
	for root := 0; root < 40; root++ {
		rootName := fmt.Sprintf("trigger-%02d", root)
		for i := 0; i < 400; i++ {
			n := int64(i + 1)
			target := fmt.Sprintf("component-%02d-%04d", root, i)
			if i == 0 {
				target = rootName
			}
			prev := rootName
			if i > 1 {
				prev = fmt.Sprintf("component-%02d-%04d", root, i-1)
			}
			r.Chains = append(r.Chains, model.Chain{Root: rootName, Target: target, Path: []string{rootName, prev, target},
				Factors: []model.Factor{{From: prev, To: target, Effective: true}}, Formula: fmt.Sprintf("(%d+1) = %d", i, i+1), Attempts: &n})
		}
	}
	for i := 0; i < 3000; i++ {
		r.Findings = append(r.Findings, model.Finding{Rule: fmt.Sprintf("rule-%02d", i%25), Severity: model.Error, File: fmt.Sprintf("svc/%04d/main.go", i), Line: i + 1, Column: 1,
			Message: strings.Repeat("a long message with `code`, *stars* and | pipes ", 4), Fix: fmt.Sprintf("fix %d", i)})
		b, a := &model.Worst{Attempts: ptr(int64(1))}, &model.Worst{Attempts: ptr(int64(i + 2)), Formula: "(1+1) = 2", Root: "r"}
		r.Changes.Attempts = append(r.Changes.Attempts, model.AttemptChange{Component: fmt.Sprintf("component-%04d", i), Before: b, After: a})
	}
	r.Changes.New = r.Findings[:2000]
	r.Changes.Fixed = r.Findings[1000:]
	return r
}

// TestMarkdownFitsAPullRequestComment: the whole report, not only the
// findings, stays under the 65,536 characters of a GitHub comment, and
// nothing is cut mid-fence or mid-fold.
func TestMarkdownFitsAPullRequestComment(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, hugeResult(), MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	checkCommentSize(t, out)
	for _, want := range []string{"not listed", "### Event at", "#### "} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// checkCommentSize fails t unless the Markdown report out fits a GitHub
// comment (65,536 characters) whole: no code fence or fold left open.
func checkCommentSize(t *testing.T, out string) {
	t.Helper()
	if n := utf8.RuneCountInString(out); n > 65536 {
		t.Errorf("report is %d characters, more than a pull-request comment holds", n)
	}
	if n := strings.Count(out, "```"); n%2 != 0 {
		t.Errorf("%d code fences: one is cut", n)
	}
	if open, closed := strings.Count(out, "<details>"), strings.Count(out, "</details>"); open != closed {
		t.Errorf("%d <details> but %d </details>", open, closed)
	}
}
