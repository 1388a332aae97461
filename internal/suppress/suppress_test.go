package suppress

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		text   string
		ok     bool
		rules  []string
		reason string
	}{
		{"retrylint:ignore fixed-sleep the poller is single", true, []string{"fixed-sleep"}, "the poller is single"},
		{" retrylint:ignore a,b  two   rules ", true, []string{"a", "b"}, "two rules"},
		{"retrylint:ignore\tjob-max-retries\tidempotent", true, []string{"job-max-retries"}, "idempotent"},
		{"retrylint:ignore", true, nil, ""},
		{"retrylint:ignore fixed-sleep", true, []string{"fixed-sleep"}, ""},
		{"retrylint:ignored x y", false, nil, ""},
		{"nolint", false, nil, ""},
	} {
		d, ok := Parse(tc.text)
		if ok != tc.ok || !reflect.DeepEqual(d.Rules, tc.rules) || d.Reason != tc.reason {
			t.Errorf("Parse(%q) = %+v, %v; want %v %q, %v", tc.text, d, ok, tc.rules, tc.reason, tc.ok)
		}
	}
}

func TestUnknownAndCovers(t *testing.T) {
	d, _ := Parse("retrylint:ignore fixed-slep,all,no-cap reason")
	known := func(r string) bool { return r == "no-cap" || r == "fixed-sleep" }
	if got := d.Unknown(known); !reflect.DeepEqual(got, []string{"fixed-slep"}) {
		t.Errorf("Unknown = %v", got)
	}
	if !d.Covers("anything") {
		t.Error("all covers every rule")
	}
	if d, _ := Parse("retrylint:ignore no-cap r"); d.Covers("fixed-sleep") || !d.Covers("no-cap") || !d.Valid() {
		t.Errorf("%+v", d)
	}
}
