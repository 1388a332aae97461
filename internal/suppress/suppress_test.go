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
		{"retrylint:ignored x y", true, nil, ""}, // a near miss: malformed
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

func TestParseNearMisses(t *testing.T) {
	for _, tc := range []struct {
		text      string
		ok        bool
		malformed bool
	}{
		{"retrylint:ignore: fixed-sleep reason", true, true},
		{"retrylint:ignore:fixed-sleep reason", true, true},
		{"retrylint-ignore fixed-sleep reason", true, true},
		{"retrylint:ingore fixed-sleep reason", true, true},
		{"Retrylint:ignore fixed-sleep reason", true, true},
		{"retrylint ignore fixed-sleep reason", true, true},
		{"retrylint:ignored fixed-sleep reason", true, true},
		{"retrylint:ignore fixed-sleep, no-cap reason", true, true},
		{"retrylint:ignore ,fixed-sleep reason", true, true},
		{"retrylint:ignore fixed-sleep,,no-cap reason", true, true},
		{"retrylint:ignore fixed-sleep,no-cap reason", true, false},
		{"retrylint ignores generated files", false, false},
		{"retrylint checks this package", false, false},
		{"retrylint", false, false},
		{"retrylint:", false, false},
		{"retry loops below", false, false},
	} {
		d, ok := Parse(tc.text)
		if ok != tc.ok || (d.Malformed != "") != tc.malformed {
			t.Errorf("Parse(%q) = %+v, %v; want ok %v, malformed %v", tc.text, d, ok, tc.ok, tc.malformed)
		}
		if tc.malformed && d.Valid() {
			t.Errorf("Parse(%q): a malformed directive is valid", tc.text)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		text string
		want string
	}{
		{"retrylint:ignore no-jitter the schedule is the server's", ""},
		{"retrylint:ignore all the schedule is the server's", ""},
		{"retrylint:ignore fixed-sleep,no-cap the schedule is the server's", ""},
		{"a remark", ""},
		{"retrylint:ignore no-jiter",
			`retrylint:ignore suppresses nothing: "no-jiter" is no rule (did you mean no-jitter?) and it gives no reason; write //retrylint:ignore no-jitter REASON, the reason saying why the finding does not apply`},
		{"retrylint:ignore nojitter why", `retrylint:ignore suppresses nothing: "nojitter" is no rule (did you mean no-jitter?)`},
		{"retrylint:ignore jitter why", `retrylint:ignore suppresses nothing: "jitter" is no rule (did you mean no-jitter?)`},
		{"retrylint:ignore fixed-sleep,fixed-slep why", `retrylint:ignore suppresses fixed-sleep only: "fixed-slep" is no rule (did you mean fixed-sleep?)`},
		{"retrylint:ignore job-max-retries why", `retrylint:ignore suppresses nothing: "job-max-retries" is a topology rule, with no finding in Go code`},
		{"retrylint:ignore the server paces us", `retrylint:ignore suppresses nothing: "the" is no rule (retrylint rules lists them)`},
		{"retrylint:ignore",
			"retrylint:ignore suppresses nothing: it names no rule and it gives no reason; write //retrylint:ignore RULE REASON, the reason saying why the finding does not apply"},
		{"retrylint:ignore fixed-sleep",
			"retrylint:ignore suppresses nothing: it gives no reason; write //retrylint:ignore fixed-sleep REASON, the reason saying why the finding does not apply"},
		{"retrylint-ignore fixed-sleep why", `"retrylint-ignore" is not retrylint:ignore, so it suppresses nothing; write //retrylint:ignore RULE REASON`},
	} {
		if got := Check(tc.text, Code); got != tc.want {
			t.Errorf("Check(%q)\n got %q\nwant %q", tc.text, got, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	for name, want := range map[string]string{
		"no-jiter": "no-jitter", "NoJitter": "no-jitter", "no_cap": "no-cap", "sleepignorescontext": "sleep-ignores-context",
		"unbounded": "unbounded-retry", "fixed": "fixed-sleep", "sleep": "", "x": "", "retry": "", "nested-retries": "nested-retry",
	} {
		if got := Nearest(name, CodeRules); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"", "ab", 2}, {"kitten", "sitting", 3}, {"no-jiter", "no-jitter", 1}, {"abc", "abc", 0}} {
		if got := Distance(tc.a, tc.b); got != tc.d || Distance(tc.b, tc.a) != tc.d {
			t.Errorf("Distance(%q, %q) = %d, want %d both ways", tc.a, tc.b, got, tc.d)
		}
	}
}
