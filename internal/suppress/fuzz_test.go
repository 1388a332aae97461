package suppress

import (
	"strings"
	"testing"
)

// FuzzCheck: no comment text makes Parse or Check fail, and Check passes
// exactly the valid directives that name rules of the half.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"retrylint:ignore fixed-sleep the reason", "retrylint:ignore", "retrylint:ignore no-jiter",
		"Retrylint-Ignore:x", "retrylint:ignore a,,b c", "retrylint:ignore\tx\ty", "retrylint \u00e9", "retrylint:ignore all,retrylint r",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, ok := Parse(text)
		msg := Check(text, Code)
		known := true
		for _, r := range d.Rules {
			known = known && (Wildcard(r) || strings.Contains(","+strings.Join(CodeRules, ",")+",", ","+r+","))
		}
		if ok && (msg == "") != (d.Valid() && known) {
			t.Errorf("Check(%q) = %q for %+v", text, msg, d)
		}
		if !ok && msg != "" {
			t.Errorf("Check(%q) = %q for no directive", text, msg)
		}
	})
}
