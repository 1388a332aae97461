package main

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/analyzer/all"
	"github.com/retrylint/retrylint/docs"
	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/rules"
)

func TestEveryRuleHasAPageAndEveryPageARule(t *testing.T) {
	var listed []string
	for _, r := range catalogue() {
		listed = append(listed, r.Name)
		if _, ok := docs.Rule(r.Name); !ok {
			t.Errorf("rule %s (%s) has no page docs/rules/%s.md", r.Name, r.Half, r.Name)
		}
	}
	for _, name := range docs.Rules() {
		if !slices.Contains(listed, name) {
			t.Errorf("docs/rules/%s.md is the page of no rule", name)
		}
	}
}

func TestCatalogue(t *testing.T) {
	list := catalogue()
	codeRules := all.Rules()
	if len(list) < len(codeRules) {
		t.Fatalf("catalogue has %d rules, fewer than the %d code rules", len(list), len(codeRules))
	}
	seen := make(map[string]bool)
	for i, r := range list {
		if seen[r.Name] {
			t.Errorf("rule %s listed twice", r.Name)
		}
		seen[r.Name] = true
		if !regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`).MatchString(r.Name) {
			t.Errorf("rule name %q is not kebab-case", r.Name)
		}
		if r.Summary == "" || strings.Contains(r.Summary, "\n") {
			t.Errorf("rule %s: summary %q, want one non-empty line", r.Name, r.Summary)
		}
		if r.Severity.Rank() == 0 {
			t.Errorf("rule %s: default severity %q is not error, warning or note", r.Name, r.Severity)
		}
		wantHalf := "topology"
		if i < len(codeRules) {
			wantHalf = "code"
			if _, ok := rules.Lookup(r.Name); ok {
				wantHalf = "both"
			}
			if r.Name != codeRules[i].Name || r.Severity != all.Severity(r.Name) {
				t.Errorf("catalogue[%d] = %s %s, want code rule %s with severity %s", i, r.Name, r.Severity, codeRules[i].Name, all.Severity(r.Name))
			}
		}
		if r.Half != wantHalf {
			t.Errorf("rule %s: half %q, want %q", r.Name, r.Half, wantHalf)
		}
	}
}

func TestRulesCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"rules"}, &stdout, &stderr); code != 0 {
		t.Fatalf("retrylint rules: exit %d, stderr %q", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	list := catalogue()
	if len(lines) != len(list) {
		t.Fatalf("retrylint rules printed %d lines, want %d:\n%s", len(lines), len(list), stdout.String())
	}
	for i, line := range lines {
		fields := strings.Fields(line)
		r := list[i]
		if len(fields) < 4 || fields[0] != r.Name || fields[1] != r.Half || fields[2] != string(r.Severity) ||
			strings.Join(fields[3:], " ") != strings.Join(strings.Fields(r.Summary), " ") {
			t.Errorf("line %d = %q, want %s %s %s %s", i+1, line, r.Name, r.Half, r.Severity, r.Summary)
		}
	}
}

func TestExplainCommand(t *testing.T) {
	for _, r := range catalogue() {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"explain", r.Name}, &stdout, &stderr); code != 0 {
			t.Errorf("retrylint explain %s: exit %d, stderr %q", r.Name, code, stderr.String())
			continue
		}
		if page, _ := docs.Rule(r.Name); !bytes.Equal(stdout.Bytes(), page) {
			t.Errorf("retrylint explain %s did not print the rule's page", r.Name)
		}
	}
}

func TestExplainUnknownRule(t *testing.T) {
	for _, args := range [][]string{{"explain", "no-such-rule"}, {"explain", "../docs"}, {"explain"}} {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		if code != 2 || stdout.Len() != 0 || stderr.Len() == 0 {
			t.Errorf("retrylint %q: exit %d, stdout %q, stderr %q; want exit 2 and an error only",
				args, code, stdout.String(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	run([]string{"explain", "no-such-rule"}, &stdout, &stderr)
	if !strings.Contains(stderr.String(), `unknown rule "no-such-rule"`) {
		t.Errorf("stderr = %q, want it to name the unknown rule", stderr.String())
	}
}

func TestSummaryLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"A retry loop waits the same time.", "a retry loop waits the same time"},
		{"HTTP 400 is retried.", "HTTP 400 is retried"},
		{"already a clause", "already a clause"},
		{"A function that has a context.Context.", "a function that has a context.Context"},
		{"", ""},
	} {
		if got := summaryLine(tc.in); got != tc.want {
			t.Errorf("summaryLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestInvalidSuppressionInBothHalves: invalid-suppression is one rule of
// both halves, listed once, a warning in each, and explained.
func TestInvalidSuppressionInBothHalves(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"rules"}, &stdout, &stderr); code != 0 {
		t.Fatalf("retrylint rules: exit %d, stderr %q", code, stderr.String())
	}
	var lines []string
	for _, line := range strings.Split(stdout.String(), "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == "invalid-suppression" {
			lines = append(lines, line)
		}
	}
	if len(lines) != 1 || !strings.HasPrefix(strings.Join(strings.Fields(lines[0]), " "), "invalid-suppression both warning ") {
		t.Errorf("retrylint rules lists invalid-suppression as %q, want one line: both, warning", lines)
	}
	if info, ok := rules.Lookup("invalid-suppression"); !ok || info.Severity != model.Warning || all.Severity("invalid-suppression") != model.Warning {
		t.Errorf("invalid-suppression: topology %+v, code %s; want a warning in both", info, all.Severity("invalid-suppression"))
	}
	stdout.Reset()
	if code := run([]string{"explain", "invalid-suppression"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "did you mean") {
		t.Errorf("retrylint explain invalid-suppression: exit %d, page %q", code, stdout.String())
	}
}
