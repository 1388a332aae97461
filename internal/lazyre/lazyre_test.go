package lazyre

import (
	"regexp"
	"testing"
)

// The lazy expression answers as the compiled one does.
func TestSameAnswers(t *testing.T) {
	const expr = `(?i)^(ab+)(c)?`
	l, re := New(expr), regexp.MustCompile(expr)
	for _, s := range []string{"", "ab", "ABBC", "xab", "abc-abc"} {
		if l.MatchString(s) != re.MatchString(s) {
			t.Errorf("MatchString(%q) differs", s)
		}
		if got, want := l.FindStringSubmatch(s), re.FindStringSubmatch(s); len(got) != len(want) {
			t.Errorf("FindStringSubmatch(%q) = %q, want %q", s, got, want)
		}
		if got, want := l.ReplaceAllString(s, "<$1>"), re.ReplaceAllString(s, "<$1>"); got != want {
			t.Errorf("ReplaceAllString(%q) = %q, want %q", s, got, want)
		}
	}
}

// A bad expression panics where it is first used, as MustCompile would.
func TestBadExpressionPanicsOnUse(t *testing.T) {
	l := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("no panic for an invalid expression")
		}
	}()
	l.MatchString("x")
}
