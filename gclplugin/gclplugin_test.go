package gclplugin

import (
	"flag"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/analyzer/retryconfig"
	"github.com/retrylint/retrylint/internal/growth"
)

// settingsOf decodes YAML as golangci-lint hands settings to a plugin: a
// map of keys to values, lists and maps.
func settingsOf(t *testing.T, src string) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// build returns the plugin's analyzer for the settings, and restores the
// configuration analyzer's flags when the test ends.
func build(t *testing.T, settings any) *analysis.Analyzer {
	t.Helper()
	target := retryconfig.Analyzer
	saved := make(map[string]string)
	target.Flags.VisitAll(func(f *flag.Flag) { saved[f.Name] = f.Value.String() })
	t.Cleanup(func() {
		for name, v := range saved {
			target.Flags.Set(name, v)
		}
	})
	p, err := New(settings)
	if err != nil {
		t.Fatal(err)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want type information", p.GetLoadMode())
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || as[0].Name != Name {
		t.Fatalf("BuildAnalyzers gave %v, want one analyzer named %s", as, Name)
	}
	if err := analysis.Validate(as); err != nil {
		t.Fatal(err)
	}
	return as[0]
}

func TestRegistered(t *testing.T) {
	if _, err := register.GetPlugin(Name); err != nil {
		t.Fatal(err)
	}
}

// TestSettingsReachTheRules runs the plugin's analyzer with the settings
// of the fixture's .golangci.yml: a classifier that only the settings
// name, and no-cap turned off.
func TestSettingsReachTheRules(t *testing.T) {
	a := build(t, settingsOf(t, "classifiers: [p.Client.retryable]\nseverity: {no-cap: off}\n"))
	if strings.Contains(a.Doc, "no-cap") {
		t.Errorf("no-cap is off but the analyzer runs it: %s", a.Doc)
	}
	analysistest.Run(t, analysistest.TestData(), a, "p")
}

// TestInvalidSuppressionIsARule: the plugin runs invalid-suppression with
// the other rules (TestNoSettings sees its finding), and severity off
// turns it off as any other.
func TestInvalidSuppressionIsARule(t *testing.T) {
	if a := build(t, nil); !strings.Contains(a.Doc, "invalid-suppression") {
		t.Errorf("the plugin does not run invalid-suppression: %s", a.Doc)
	}
	if a := build(t, settingsOf(t, "severity: {invalid-suppression: off}\n")); strings.Contains(a.Doc, "invalid-suppression") {
		t.Errorf("invalid-suppression is off but the plugin runs it: %s", a.Doc)
	}
}

// TestNoSettings runs every rule with no settings at all.
func TestNoSettings(t *testing.T) {
	a := build(t, nil)
	analysistest.Run(t, analysistest.TestData(), a, "q")
}

func TestBadSettings(t *testing.T) {
	for src, want := range map[string]string{
		"bugdet: 4\n":                               `unknown key "bugdet"`,
		"classifiers: [IsTransient]\n":              "want a function as pkg.Func",
		"severity: {job-max-retries: off}\n":        `unknown rule "job-max-retries"`,
		"severity: {no-jitter: warning}\n":          "only off has a meaning here",
		"budget: 4\n":                               "golangci-lint runs the code rules only",
		"ignore: [vendor/]\n":                       "linters.exclusions.paths",
		"tests: yes please\n":                       "tests: want true or false",
		"retry_helpers: [{func: p.Do, tries: 2}]\n": `unknown key "tries"`,
	} {
		_, err := New(settingsOf(t, src))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "settings of retrylint: ") {
			t.Errorf("%q: error %v, want one that says %q", src, err, want)
		}
	}
	if _, err := New([]any{"classifiers"}); err == nil {
		t.Error("a list of settings was accepted")
	}
}

// TestSettingsThatAreNoValues: golangci-lint hands over whatever its
// configuration decoder made; a value no YAML can hold (a channel, a
// function, a map that holds itself) is an error naming where it is, never
// a panic.
func TestSettingsThatAreNoValues(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["severity"] = cyclic
	for name, c := range map[string]struct {
		settings any
		want     string
	}{
		"channel":       {map[string]any{"classifiers": make(chan int)}, "classifiers: a chan int is not a setting"},
		"function":      {map[string]any{"retry_helpers": []any{map[string]any{"func": func() {}}}}, "retry_helpers[0].func: a func() is not a setting"},
		"complex":       {map[string]any{"budget": complex(1, 2)}, "budget: a complex128 is not a setting"},
		"holds itself":  {cyclic, "nested deeper than"},
		"deeply nested": {nested(10000), "nested deeper than"},
	} {
		t.Run(name, func(t *testing.T) {
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("panic: %v", r)
					}
				}()
				_, err = New(c.settings)
			}()
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "settings of retrylint: ") {
				t.Errorf("error %v, want one that says %q", err, c.want)
			}
		})
	}
}

// nested is settings whose classifiers hold a list inside a list, n deep.
func nested(n int) any {
	var v any = "p.IsTransient"
	for range n {
		v = []any{v}
	}
	return map[string]any{"classifiers": v}
}

// TestNestedSettingsLinear: refusing settings nested n deep costs O(n) at
// most, not the O(n²) of indenting each level once more.
func TestNestedSettingsLinear(t *testing.T) {
	growth.Linear(t, 2000, nested, func(s any) {
		if _, err := New(s); err == nil {
			t.Fatal("settings nested deeply were accepted")
		}
	})
}

// TestSettingsOfAStruct: the fields of a struct are settings too, and
// refused alike when they hold no value.
func TestSettingsOfAStruct(t *testing.T) {
	type helper struct{ Func func() }
	_, err := New(map[string]any{"retry_helpers": []any{helper{}}})
	if err == nil || !strings.Contains(err.Error(), "retry_helpers[0].Func: a func() is not a setting") {
		t.Errorf("error %v", err)
	}
}
