package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/model"
)

var known = Options{KnownRule: func(r string) bool {
	return r == "fixed-sleep" || r == "no-jitter" || r == "job-max-retries"
}}

func TestParseEveryKey(t *testing.T) {
	src := `# every setting
budget: 4
severity:
  no-jitter: warning
  job-max-retries: off
ignore:
  - vendor/
  - "**/testdata/**"
classifiers: [mypkg.IsTransient, example.com/x/mypkg.Client.Retryable]
retry_helpers:
  - mypkg.Do
  - {func: example.com/x/retry.Run, attempts: arg 2}
  - func: mypkg.Three
    attempts: 3
`
	cfg, err := Parse(".retrylint.yaml", []byte(src), known)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Budget:      4,
		Severity:    map[string]Level{"no-jitter": Level(model.Warning), "job-max-retries": Off},
		Ignore:      []string{"vendor/", "**/testdata/**"},
		Classifiers: []string{"mypkg.IsTransient", "example.com/x/mypkg.Client.Retryable"},
		RetryHelpers: []RetryHelper{
			{Func: "mypkg.Do"},
			{Func: "example.com/x/retry.Run", Attempts: "arg 2"},
			{Func: "mypkg.Three", Attempts: "3"},
		},
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("Parse:\n got %+v\nwant %+v", cfg, want)
	}
	if got := cfg.HelperNames(); !reflect.DeepEqual(got, []string{"mypkg.Do", "example.com/x/retry.Run", "mypkg.Three"}) {
		t.Errorf("HelperNames = %v", got)
	}
}

func TestParseErrors(t *testing.T) {
	for src, want := range map[string]string{
		"budget: 4\nbugdet: 5\n":                         `c.yaml:2:1: unknown key "bugdet" (want budget, severity, ignore, classifiers, retry_helpers)`,
		"budget: many\n":                                 `c.yaml:1:9: budget: want a positive number of executions, got "many"`,
		"budget: 0\n":                                    `c.yaml:1:9: budget: want a positive number`,
		"severity:\n  fixed-sleep: fatal\n":              `c.yaml:2:16: severity of fixed-sleep: want error, warning, note or off, got "fatal"`,
		"severity:\n  fixed-sleeps: off\n":               `c.yaml:2:3: severity: unknown rule "fixed-sleeps"`,
		"severity: [fixed-sleep]\n":                      `c.yaml:1:11: severity: want a mapping`,
		"ignore: {a: b}\n":                               `c.yaml:1:9: ignore: want a list`,
		"ignore: ['[']\n":                                `c.yaml:1:10: ignore: bad pattern "["`,
		"classifiers: [IsTransient]\n":                   `c.yaml:1:15: classifiers: want a function as pkg.Func`,
		"retry_helpers: [{func: a.B, tries: 3}]\n":       `c.yaml:1:29: retry_helpers: unknown key "tries" (want func, attempts)`,
		"retry_helpers: [{func: a.B, attempts: lots}]\n": `c.yaml:1:39: retry_helpers: attempts: want a number or "arg N"`,
		"retry_helpers:\n  - {attempts: 2}\n":            `c.yaml:2:5: retry_helpers: func is missing`,
		"budget: 4\nbudget: 5\n":                         `c.yaml:2:1: budget is set twice`,
		"- budget\n":                                     `c.yaml:1:1: want a mapping of settings`,
		"budget: [\n":                                    `c.yaml:`,
		"budget: 4\n---\nbudget: 5\n":                    `one YAML document`,
	} {
		_, err := Parse("c.yaml", []byte(src), known)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", src, err, want)
		}
	}
}

func TestParseEmpty(t *testing.T) {
	for _, src := range []string{"", "# nothing\n", "~\n"} {
		cfg, err := Parse("c.yaml", []byte(src), known)
		if err != nil || cfg.Budget != 0 || cfg.Severity != nil {
			t.Errorf("Parse(%q) = %+v, %v; want no settings", src, cfg, err)
		}
	}
}

func TestLoadFindsUpward(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, FileName), []byte("budget: 7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load("", sub, known)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Budget != 7 || cfg.Dir != root {
		t.Errorf("Load from a subdirectory: budget %d dir %s, want 7 and %s", cfg.Budget, cfg.Dir, root)
	}

	none := t.TempDir()
	cfg, err = Load("", none, known)
	if err != nil || cfg.File != "" || cfg.Dir != none {
		t.Errorf("no file: %+v, %v", cfg, err)
	}
	if _, err := Load(filepath.Join(none, "missing.yaml"), none, known); err == nil || !strings.Contains(err.Error(), "missing.yaml: cannot read") {
		t.Errorf("--config of a missing file: %v", err)
	}
}

func TestMatchPath(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"vendor/", "vendor/x/y.go", true},
		{"vendor", "vendor/x/y.go", true},
		{"vendor", "a/vendor/y.go", false},
		{"**/testdata/**", "a/b/testdata/c.yaml", true},
		{"**/testdata", "testdata/c.yaml", true},
		{"infra/*.yaml", "infra/job.yaml", true},
		{"infra/*.yaml", "infra/sub/job.yaml", false},
		{"infra/**/*.yaml", "infra/sub/job.yaml", true},
		{"infra/**/*.yaml", "infra/job.yaml", true},
		{"./jobs/legacy-*", "jobs/legacy-report/job.yaml", true},
		{"jobs/legacy-*", "jobs/new/job.yaml", false},
	} {
		if got := MatchPath(c.pattern, c.name); got != c.want {
			t.Errorf("MatchPath(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}

func TestApply(t *testing.T) {
	dir := t.TempDir()
	cfg := &Config{
		Dir:      dir,
		Severity: map[string]Level{"no-jitter": Level(model.Warning), "fixed-sleep": Off},
		Ignore:   []string{"gen/"},
	}
	in := []model.Finding{
		{Rule: "fixed-sleep", Severity: model.Error, File: "a.go"},
		{Rule: "no-jitter", Severity: model.Error, File: "a.go"},
		{Rule: "no-cap", Severity: model.Error, File: "gen/b.go"},
		{Rule: "no-cap", Severity: model.Error, File: "c.go"},
	}
	got := cfg.Apply(in, dir)
	want := []model.Finding{
		{Rule: "no-jitter", Severity: model.Warning, File: "a.go"},
		{Rule: "no-cap", Severity: model.Error, File: "c.go"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Apply:\n got %+v\nwant %+v", got, want)
	}
	if in[1].Severity != model.Error {
		t.Error("Apply changed its input")
	}
	// From a subdirectory, paths are still matched from the file's directory.
	if got := cfg.Apply([]model.Finding{{Rule: "no-cap", File: "b.go"}}, filepath.Join(dir, "gen")); len(got) != 0 {
		t.Errorf("from gen/: %+v, want b.go ignored", got)
	}
}
