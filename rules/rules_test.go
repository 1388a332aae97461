package rules

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/retrylint/retrylint/codelayer"
	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

var wantRE = regexp.MustCompile(`#\s*want\s+([a-z-]+)`)

// wants collects `# want RULE` comments: file:line → rules.
func wants(t *testing.T, dir string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			for _, m := range wantRE.FindAllStringSubmatch(sc.Text(), -1) {
				key := filepath.ToSlash(p) + ":" + itoa(line)
				out[key] = append(out[key], m[1])
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func itoa(i int) string { return fmtInt(i) }

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func run(t *testing.T, dir string) []model.Finding {
	t.Helper()
	wd, _ := os.Getwd()
	code := &codelayer.Loader{Analyse: func(dir string, patterns []string) (*codelayer.Index, error) {
		return codelayer.Analyse(dir, patterns, wd)
	}}
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: wd, Code: code})
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	findings, _ := Run(g, Options{})
	return findings
}

// TestRules runs every rule over testdata/RULE/fire (each finding of the
// rule must sit on a line with `# want RULE`, and every such line must get
// one) and testdata/RULE/pass (no finding of the rule).
func TestRules(t *testing.T) {
	for _, info := range Catalog() {
		t.Run(info.ID, func(t *testing.T) {
			fire := filepath.Join("testdata", info.ID, "fire")
			pass := filepath.Join("testdata", info.ID, "pass")
			if _, err := os.Stat(fire); err != nil {
				t.Fatalf("no must-fire case: %v", err)
			}
			if _, err := os.Stat(pass); err != nil {
				t.Fatalf("no must-not-fire case: %v", err)
			}
			want := wants(t, fire)
			got := map[string]bool{}
			for _, f := range run(t, fire) {
				if f.Rule != info.ID {
					continue
				}
				key := f.File + ":" + itoa(f.Line)
				got[key] = true
				found := false
				for _, r := range want[key] {
					found = found || r == info.ID
				}
				if !found {
					t.Errorf("unexpected finding %s: %s: %s", key, f.Rule, f.Message)
				}
			}
			for key, rs := range want {
				for _, r := range rs {
					if r == info.ID && !got[key] {
						t.Errorf("%s: missing finding of %s", key, r)
					}
				}
			}
			for _, f := range run(t, pass) {
				if f.Rule == info.ID && f.Severity != model.Note {
					t.Errorf("must not fire: %s:%d:%d: %s: %s", f.File, f.Line, f.Column, f.Rule, f.Message)
				}
			}
		})
	}
}

func TestCatalog(t *testing.T) {
	seen := map[string]bool{}
	for _, info := range Catalog() {
		if info.ID == "" || info.Summary == "" || info.Remediation == "" || info.Severity == "" {
			t.Errorf("incomplete rule info: %+v", info)
		}
		if seen[info.ID] {
			t.Errorf("duplicate rule %s", info.ID)
		}
		seen[info.ID] = true
		{
			if _, err := os.Stat(filepath.Join("..", info.Doc)); err != nil {
				t.Errorf("%s: no doc page: %v", info.ID, err)
			}
		}
	}
	for _, id := range []string{"job-max-retries", "failure-triggers-redelivery", "timeout-shorter-than-retries",
		"ineffective-retry-predicate", "premature-failure-notification", "unbounded-redelivery", "retry-cycle",
		"amplification", "multiple-retry-layers", "transient-not-retried", "retry-without-backoff", "unresolved-reference",
		"topology-code-drift"} {
		if !seen[id] {
			t.Errorf("rule %s missing from the catalogue", id)
		}
	}
}

func TestExplicitBudgetIsError(t *testing.T) {
	wd, _ := os.Getwd()
	g, err := topology.Load([]string{"testdata/amplification/fire"}, topology.Options{WorkDir: wd})
	if err != nil {
		t.Fatal(err)
	}
	findings, _ := Run(g, Options{Budget: 5})
	n := 0
	for _, f := range findings {
		if f.Rule == "amplification" {
			n++
			if f.Severity != model.Error {
				t.Errorf("severity %s, want error over an explicit budget", f.Severity)
			}
		}
	}
	if n == 0 {
		t.Error("no amplification finding over budget 5")
	}
}
