package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/model"
)

func TestEscapeText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain name-1 → b", "plain name-1 → b"},
		{"a\nb", `a\nb`},
		{"a\r\n::error::x", `a\r\n::error::x`},
		{"\x1b[2Jred", `\x1b[2Jred`},
		{"nul\x00", `nul\x00`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"line\u2028sep", `line\u2028sep`},
		{"rtl\u202eoverride", `rtl\u202eoverride`},
		{"c1\u0085", `c1\x85`},
	} {
		if got := EscapeText(tc.in); got != tc.want {
			t.Errorf("EscapeText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := EscapeLineStart("::error file=a::x"); got != `\x3a:error file=a::x` {
		t.Errorf("EscapeLineStart = %q", got)
	}
}

// TestTextCannotBeForged: whatever the names, messages and file names hold,
// the text format prints one line a finding, and no line starts a GitHub
// Actions workflow command or looks like another finding.
func TestTextCannotBeForged(t *testing.T) {
	res := &model.Result{Findings: []model.Finding{
		{File: "a.yaml\nb.go:1:1: fixed-sleep: fake", Line: 1, Column: 1, Rule: "r", Message: "m"},
		{File: "::error file=x,line=1::pwned", Line: 2, Column: 1, Rule: "r", Message: "m"},
		{File: "c.yaml", Line: 3, Column: 1, Rule: "r\n::warning::x", Message: "msg\r\n::error::injected\x1b]0;title\x07"},
	}}
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		if err := WriteTextOptions(&b, res, TextOptions{Color: color}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if len(lines) != len(res.Findings) {
			t.Errorf("color %v: %d lines for %d findings:\n%s", color, len(lines), len(res.Findings), b.String())
		}
		for _, l := range lines {
			if strings.HasPrefix(l, "::") || strings.Contains(l, "\r") || strings.Contains(l, "\x07") {
				t.Errorf("color %v: forged line %q", color, l)
			}
		}
	}
}

// jsonText agrees with encoding/json on invalid UTF-8, byte by byte.
func TestJSONTextAsEncoded(t *testing.T) {
	for _, s := range []string{"", "rule", "\xdc", "\xdc\xf5", "a\xffb", "é\x80"} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back string
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if got := jsonText(s); got != back {
			t.Errorf("jsonText(%q) = %q, JSON has %q", s, got, back)
		}
	}
}
