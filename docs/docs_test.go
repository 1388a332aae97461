package docs

import (
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"
)

func TestPagesHaveTitleAndSummary(t *testing.T) {
	names := Rules()
	if len(names) == 0 {
		t.Fatal("no rule pages embedded")
	}
	for _, name := range names {
		page, ok := Rule(name)
		if !ok {
			t.Errorf("Rules lists %s but Rule(%q) finds no page", name, name)
			continue
		}
		if first, _, _ := strings.Cut(string(page), "\n"); first != "# "+name {
			t.Errorf("%s.md: first line %q, want %q", name, first, "# "+name)
		}
		if s := Summary(name); s == "" || strings.HasPrefix(s, "#") {
			t.Errorf("%s.md: summary %q, want the paragraph after the title", name, s)
		}
	}
}

// TestCodeRulePages holds the code-rule pages to their structure, and
// their Go examples to valid Go.
func TestCodeRulePages(t *testing.T) {
	sections := []string{"## What it flags", "## Why it hurts", "## Bad", "## Good", "## Fix"}
	codeBlock := regexp.MustCompile("(?s)```go\n(.*?)```")
	n := 0
	for _, name := range Rules() {
		page, _ := Rule(name)
		if !strings.Contains(string(page), "Half: code") {
			continue
		}
		n++
		text := string(page)
		last := -1
		for _, s := range sections {
			i := strings.Index(text, "\n"+s+"\n")
			if i < 0 || i < last {
				t.Errorf("%s.md: section %q missing or out of order", name, s)
			}
			last = i
		}
		for _, m := range codeBlock.FindAllStringSubmatch(text, -1) {
			src := "package p\n\n" + m[1]
			if _, err := parser.ParseFile(token.NewFileSet(), name+".md", src, 0); err != nil {
				t.Errorf("%s.md: Go example does not parse: %v\n%s", name, err, m[1])
			}
		}
	}
	if n == 0 {
		t.Error(`no page says "Half: code"`)
	}
}

func TestRuleRejectsPaths(t *testing.T) {
	for _, name := range []string{"", "../docs", "rules/fixed-sleep", "fixed-sleep.md", `..\x`} {
		if _, ok := Rule(name); ok {
			t.Errorf("Rule(%q) found a page", name)
		}
	}
	if _, ok := Rule("fixed-sleep"); !ok {
		t.Error(`Rule("fixed-sleep") found no page`)
	}
}

func TestSummary(t *testing.T) {
	want := "A retry loop waits the same time before every attempt, so clients that failed together retry together."
	if got := Summary("fixed-sleep"); got != want {
		t.Errorf("Summary(fixed-sleep) = %q, want %q", got, want)
	}
	if got := Summary("no-such-rule"); got != "" {
		t.Errorf("Summary(no-such-rule) = %q, want \"\"", got)
	}
}
