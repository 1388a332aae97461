package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/retrylint/retrylint/model"
)

// hostile are names a manifest or a pull request can hold that try to
// pass for a CI command, break a line or ping a team.
var hostile = []string{
	"::error file=a.go,line=1::pwned",
	"  ::warning::indented",
	"\u3000::notice::wide space",
	"a\r::error::after a carriage return",
	"x ##[error]legacy command",
	"##vso[task.setvariable variable=x]y",
	"\x1b[31mred\x1b]0;title\x07",
	"nel\u0085::error::x",
	"ls\u2028::error::x",
	"del\x7f c1\u009b31m",
	"@octo-org/security please look",
}

// forgedResult puts the hostile names in every field a writer prints.
func forgedResult() *model.Result {
	r := &model.Result{Version: 1, Tool: model.Tool{Name: "retrylint", Version: "1"}}
	n := int64(12)
	one := 3
	for i, h := range hostile {
		next := hostile[(i+1)%len(hostile)]
		f := model.Finding{Rule: "r" + h, Severity: []model.Severity{model.Error, model.Warning, model.Note}[i%3], Message: h,
			File: next, Line: i + 1, Column: 1, EndLine: i + 1, EndColumn: 2, Component: h, Fix: "fix " + next}
		r.Findings = append(r.Findings, f)
		r.Chains = append(r.Chains, model.Chain{Root: "root", Target: h, Path: []string{"root", h}, Formula: h, Estimate: next, Attempts: &n,
			Factors: []model.Factor{{From: "root", To: h, Retries: &one, Effective: true, File: next, Line: 3}}})
		r.Chains = append(r.Chains, model.Chain{Root: h, Target: h, Path: []string{h}, Formula: "1", Attempts: new(int64(1))})
	}
	r.Assumed = []string{hostile[0]}
	r.Changes = &model.Changes{Base: hostile[4], New: r.Findings[:3], Fixed: r.Findings[3:6]}
	for _, h := range hostile {
		r.Changes.Attempts = append(r.Changes.Attempts, model.AttemptChange{Component: h, Pipeline: h,
			Before: &model.Worst{Attempts: new(int64(1)), Root: h, Formula: h}, After: &model.Worst{Attempts: &n, Root: h, Formula: h}})
	}
	return r
}

// renderAll renders r in every format.
func renderAll(t *testing.T, r *model.Result) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"text":  func(b *bytes.Buffer) error { return WriteTextOptions(b, r, TextOptions{}) },
		"json":  func(b *bytes.Buffer) error { return WriteJSON(b, r) },
		"sarif": func(b *bytes.Buffer) error { return WriteSARIF(b, r, SARIFOptions{Rules: catalogue}) },
		"markdown": func(b *bytes.Buffer) error {
			return WriteMarkdown(b, r, MarkdownOptions{Rules: catalogue, MaxBytes: -1})
		},
		"dot":         func(b *bytes.Buffer) error { return WriteDOT(b, r) },
		"github":      func(b *bytes.Buffer) error { return WriteGitHub(b, r) },
		"codeclimate": func(b *bytes.Buffer) error { return WriteCodeClimate(b, r) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = b.String()
	}
	return out
}

// ownCommand matches the lines of the github format: its own workflow
// commands, from the first column.
var ownCommand = regexp.MustCompile(`^::(error|warning|notice) `)

// fence and codeSpan match Markdown code, where GitHub mentions no one.
var (
	fence    = regexp.MustCompile("(?s)```.*?```")
	codeSpan = regexp.MustCompile("`[^`]*`")
)

// mention is what GitHub turns into a notification in Markdown.
var mention = regexp.MustCompile(`(^|[^A-Za-z0-9_])@[A-Za-z0-9]`)

// forgeries lists what in out a CI runner or a reader would take for
// something it is not: a line that starts, after white space, with "::"
// (a workflow command; the github format's own commands excepted), "##["
// or "##vso[" anywhere (legacy logging commands), a control character
// other than newline and tab, a Unicode line separator, and in Markdown
// an @mention.
func forgeries(format, out string) []string {
	var bad []string
	for line := range strings.SplitSeq(strings.ReplaceAll(out, "\r", "\n"), "\n") {
		if format == "github" && ownCommand.MatchString(line) {
			continue
		}
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
			bad = append(bad, fmt.Sprintf("a line starts a workflow command: %q", line))
		}
	}
	for _, cmd := range []string{"##[", "##vso["} {
		if i := strings.Index(out, cmd); i >= 0 {
			bad = append(bad, fmt.Sprintf("%s raw: %q", cmd, out[max(i-20, 0):min(i+20, len(out))]))
		}
	}
	for i, r := range out {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 || r == 0x85 {
			bad = append(bad, fmt.Sprintf("control character %U raw: %q", r, out[max(i-20, 0):min(i+20, len(out))]))
			break
		}
	}
	if format == "markdown" {
		// GitHub leaves code, fenced or in a span, unmentioned.
		prose := codeSpan.ReplaceAllString(fence.ReplaceAllString(out, ""), "")
		if m := mention.FindString(prose); m != "" {
			bad = append(bad, fmt.Sprintf("mention %q", m))
		}
	}
	return bad
}

// TestNoFormatCanBeForged: whatever names, messages, file names, rules,
// fixes and pipelines hold, no format writes a CI command, a raw control
// character or, in Markdown, a mention.
func TestNoFormatCanBeForged(t *testing.T) {
	for format, out := range renderAll(t, forgedResult()) {
		for _, b := range forgeries(format, out) {
			t.Errorf("%s: %s", format, b)
		}
	}
}

// TestDefuseLines: a line that a runner would read as a command is
// rewritten; what only looks alike is left as it is.
func TestDefuseLines(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a::b\n", "a::b\n"},
		{"::error::x\n", `\x3a:error::x` + "\n"},
		{"ok\n \t::warning::x\n", "ok\n \t" + `\x3a:warning::x` + "\n"},
		{"a\r::x", "a\r" + `\x3a:x`},
		{"see ##[group]x", `see #\x23[group]x`},
		{"##vso[x]", `#\x23vso[x]`},
		{"# #[", "# #["},
	} {
		if got := string(defuse([]byte(tc.in), textEscapes)); got != tc.want {
			t.Errorf("defuse(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
