package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/shareddata"
	"github.com/retrylint/retrylint/model"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/topology/golden")

// pkgDir is this package's directory, taken before any test changes the
// working directory.
var pkgDir = func() string {
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return wd
}()

// repoRoot is the repository root, from this package's directory.
func repoRoot(t testing.TB) string {
	return filepath.Clean(filepath.Join(pkgDir, "..", ".."))
}

// corpusDir is the shared GCP corpus beside the repository.
func corpusDir(t testing.TB) string {
	return shareddata.Path(t, "corpus/gcp")
}

// runCLI runs `retrylint topology ARGS` in dir and returns its output and
// exit code as execute would.
func runCLI(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Chdir(dir)
	cmd := newTopologyCmd()
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetArgs(args)
	err := cmd.Execute()
	var ec exitCode
	switch {
	case err == nil:
		code = 0
	case errors.As(err, &ec):
		code = int(ec)
	default:
		code = 2
		errOut.WriteString(err.Error())
	}
	return out.String(), errOut.String(), code
}

// toolVersionRE matches the tool version in JSON output, which depends on
// how the binary was built.
var toolVersionRE = regexp.MustCompile(`("name": "retrylint",\s*"version": )"[^"]*"`)

// golden compares got with the golden file (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	got = toolVersionRE.ReplaceAllString(got, `$1"VERSION"`)
	path := filepath.Join(repoRoot(t), "testdata", "topology", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got ---\n%s", name, got)
	}
}

func TestIncidentExamples(t *testing.T) {
	root := repoRoot(t)
	cases := []struct {
		dir      string
		code     int
		target   string
		attempts int64
		rules    []string
	}{
		{"incident1", 1, "mapping-app", 12, []string{"job-max-retries", "ineffective-retry-predicate", "premature-failure-notification", "amplification", "transient-not-retried", "multiple-retry-layers"}},
		{"incident1-fixed", 0, "mapping-app", 3, nil},
		{"incident2", 1, "order-workflow", 5, []string{"failure-triggers-redelivery", "premature-failure-notification"}},
		{"incident2-fixed", 0, "order-workflow", 5, nil},
		// The same incidents with the infrastructure in Terraform: the same
		// rules and numbers.
		{"terraform/incident1", 1, "mapping-app", 12, []string{"job-max-retries", "ineffective-retry-predicate", "premature-failure-notification", "amplification", "transient-not-retried", "multiple-retry-layers"}},
		{"terraform/incident1-fixed", 0, "mapping-app", 3, nil},
		{"terraform/incident2", 1, "order-workflow", 5, []string{"failure-triggers-redelivery", "premature-failure-notification"}},
		{"terraform/incident2-fixed", 0, "order-workflow", 5, nil},
	}
	for _, c := range cases {
		t.Run(c.dir, func(t *testing.T) {
			arg := "examples/topology/" + c.dir + "/retrylint.yaml"
			name := strings.ReplaceAll(c.dir, "/", "-")
			text, stderr, code := runCLI(t, root, arg)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, c.code, stderr)
			}
			golden(t, name+".txt", text)
			js, _, code := runCLI(t, root, "--format", "json", arg)
			if code != c.code {
				t.Fatalf("json: exit %d, want %d", code, c.code)
			}
			golden(t, name+".json", js)
			var res model.Result
			if err := json.Unmarshal([]byte(js), &res); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, ch := range res.Chains {
				if ch.Target == c.target && ch.Attempts != nil {
					found = true
					if *ch.Attempts != c.attempts {
						t.Errorf("worst case of %s = %d, want %d (%s)", c.target, *ch.Attempts, c.attempts, ch.Formula)
					}
				}
			}
			if !found {
				t.Errorf("no chain for %s", c.target)
			}
			fired := map[string]bool{}
			for _, f := range res.Findings {
				fired[f.Rule] = true
			}
			for _, r := range c.rules {
				if !fired[r] {
					t.Errorf("%s did not fire", r)
				}
			}
			if c.code == 0 && len(res.Findings) > 0 {
				for _, f := range res.Findings {
					if f.Severity != model.Note {
						t.Errorf("fixed version has a finding: %s:%d: %s: %s", f.File, f.Line, f.Rule, f.Message)
					}
				}
			}
		})
	}
}

func TestIncident1Formula(t *testing.T) {
	js, _, _ := runCLI(t, repoRoot(t), "--format", "json", "examples/topology/incident1/retrylint.yaml")
	if !strings.Contains(js, `"formula":"(2+1)×(3+1) = 12"`) {
		t.Errorf("incident 1 does not show (2+1)×(3+1) = 12:\n%s", js)
	}
}

// invalidCorpus are the corpus files that are not valid YAML (an unquoted
// ${…} holding ": "), with where the YAML breaks: Workflows refuses them,
// and so does a run (exit 2).
var invalidCorpus = map[string]string{
	"workflows/bpp-scale-pipeline.yaml":          "workflows/bpp-scale-pipeline.yaml:170:33: invalid YAML",
	"workflows/bpp-genie-sim-import-poller.yaml": "workflows/bpp-genie-sim-import-poller.yaml:46:84: invalid YAML",
}

func TestCorpusGolden(t *testing.T) {
	dir := corpusDir(t)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus not found: %v", err)
	}
	var files, others []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if manifestFile(p) {
			files = append(files, filepath.ToSlash(rel))
		} else {
			others = append(others, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("only %d corpus files found", len(files))
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			js, stderr, code := runCLI(t, dir, "--format", "json", "--fail-on", "never", f)
			if want := invalidCorpus[f]; want != "" {
				if code != 2 || !strings.HasPrefix(stderr, want) {
					t.Errorf("exit %d: %s\nwant exit 2: %s…", code, stderr, want)
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			golden(t, "corpus/"+strings.TrimSuffix(f, filepath.Ext(f))+".json", js)
		})
	}
	// README, SOURCES.tsv, licences: no known kind, skipped, never exit 2.
	for _, f := range others {
		t.Run(f, func(t *testing.T) {
			js, stderr, code := runCLI(t, dir, "--format", "json", f)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(js, `"findings": []`) || !strings.Contains(js, `"chains": []`) {
				t.Errorf("%s is no manifest but gave a result:\n%s", f, js)
			}
		})
	}
	// Files that belong to one topology, loaded together.
	t.Run("pairs/gem-pr-generator", func(t *testing.T) {
		js, stderr, code := runCLI(t, dir, "--format", "json", "--fail-on", "never",
			"workflows/gem-pr-generator-workflow.yaml", "cloudrun/gem-pr-generator-job.yaml")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		golden(t, "corpus/pairs/gem-pr-generator.json", js)
	})
	t.Run("all", func(t *testing.T) {
		args := []string{"--format", "json", "--fail-on", "never", "cloudrun", "pubsub", "eventarc"}
		for _, f := range files {
			if strings.HasPrefix(f, "workflows/") && invalidCorpus[f] == "" {
				args = append(args, f)
			}
		}
		js, stderr, code := runCLI(t, dir, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		golden(t, "corpus/all.json", js)
	})
}

func manifestFile(p string) bool {
	switch filepath.Ext(p) {
	case ".yaml", ".yml", ".json", ".tf":
		return true
	}
	return false
}

func TestBrokenInputs(t *testing.T) {
	root := repoRoot(t)
	cases := []struct{ file, want string }{
		{"bad-yaml.yaml", "bad-yaml.yaml:5:11: invalid YAML"},
		{"wrong-type.yaml", "wrong-type.yaml:10:23: maxRetries: expected an integer"},
		{"unknown-key.topology.yaml", `unknown-key.topology.yaml:5:5: component app: unknown key "retries"`},
		{"include-outside/inner/retrylint.yaml", `retrylint.yaml:2:11: include "../../bad-yaml.yaml" is outside the given paths`},
		{"unclosed-expr.yaml", `unclosed-expr.yaml:6:16: unclosed "${"`},
		{"bad-signal.topology.yaml", `bad-signal.topology.yaml:8:24: component app: calls: on: "flaky" is not a signal`},
		{"wrong-kind-field.topology.yaml", "wrong-kind-field.topology.yaml:5:5: component web: max_retries applies to cloudrun.job"},
		{"sub-bad-attempts.yaml", "sub-bad-attempts.yaml:4:24: maxDeliveryAttempts: expected an integer"},
		{"does-not-exist.yaml", "does-not-exist.yaml: cannot read"},
		{"bad-hcl.tf", "bad-hcl.tf:5:21: Invalid expression"},
		{"bad-heredoc.tf", "bad-heredoc.tf:8:19: invalid YAML"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report.json")
			stdout, stderr, code := runCLI(t, root, "--output", out, "testdata/topology/broken/"+c.file)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stdout %q", code, stdout)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("error %q does not contain %q", stderr, c.want)
			}
			if stdout != "" {
				t.Errorf("output on invalid input: %q", stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("report file written on invalid input")
			}
		})
	}
}

func TestFlags(t *testing.T) {
	root := repoRoot(t)
	arg := "examples/topology/incident1-fixed/retrylint.yaml"
	if _, _, code := runCLI(t, root, "--format", "sarif-ish", arg); code != 2 {
		t.Errorf("bad --format: exit %d, want 2", code)
	}
	if _, _, code := runCLI(t, root, "--fail-on", "sometimes", arg); code != 2 {
		t.Errorf("bad --fail-on: exit %d, want 2", code)
	}
	// Warnings fail the run with --fail-on warning; --budget makes
	// amplification an error.
	bad := "examples/topology/incident1/retrylint.yaml"
	if _, _, code := runCLI(t, root, "--fail-on", "never", bad); code != 0 {
		t.Errorf("--fail-on never: exit %d, want 0", code)
	}
	js, _, _ := runCLI(t, root, "--format", "json", "--budget", "4", arg)
	var res model.Result
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		if f.Rule == "amplification" && f.Severity != model.Error {
			t.Errorf("amplification over --budget is %s, want error", f.Severity)
		}
	}
	out := filepath.Join(t.TempDir(), "r.txt")
	if _, _, code := runCLI(t, root, "--output", out, arg); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "event at mapping-trigger") {
		t.Errorf("--output file: %v %q", err, b)
	}
	_, stderr, _ := runCLI(t, root, "--verbose", "examples/topology/incident2/retrylint.yaml")
	if stderr != "" && !strings.Contains(stderr, "assumed") && !strings.Contains(stderr, "skipped") {
		t.Errorf("unexpected --verbose output %q", stderr)
	}
}

func TestGlobAndDirectory(t *testing.T) {
	root := repoRoot(t)
	_, stderr, code := runCLI(t, root, "--fail-on", "never", "examples/topology/incident2-fixed/*.yaml")
	if code != 0 {
		t.Fatalf("glob: exit %d: %s", code, stderr)
	}
	_, stderr, code = runCLI(t, root, "examples/topology/incident2-fixed")
	if code != 0 {
		t.Fatalf("directory: exit %d: %s", code, stderr)
	}
}

func TestTextTable(t *testing.T) {
	root := repoRoot(t)
	text, stderr, code := runCLI(t, root, "--fail-on", "never", "testdata/topology/cases/saturate.topology.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	flat := strings.Join(strings.Fields(text), " ")
	if !strings.Contains(flat, "layer10 ≥ 9223372036854775807 (99+1)×(99+1)") || !strings.Contains(flat, "= ≥ 9223372036854775807") {
		t.Errorf("saturated count not shown:\n%s", text)
	}
	text, _, code = runCLI(t, root, "testdata/topology/cases/unbounded.yaml")
	if code != 1 {
		t.Errorf("exit %d, want 1 (unbounded-redelivery is an error)", code)
	}
	for _, want := range []string{
		"unbounded-redelivery: subscription orders-push (push) has no dead-letter policy",
		"orders unbounded ∞ = unbounded (≈ 1,008 deliveries in 7 days at the 600 s maximum backoff)",
	} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}

// TestTopologyGuideOutput keeps the output shown in docs/topology.md true.
func TestTopologyGuideOutput(t *testing.T) {
	root := repoRoot(t)
	guide, err := os.ReadFile(filepath.Join(root, "docs", "topology.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(guide), "For incident 2:\n\n```text\n")
	if !ok {
		t.Fatal("docs/topology.md shows no output for incident 2")
	}
	want, _, _ := strings.Cut(after, "```")
	got, _, _ := runCLI(t, root, "examples/topology/incident2/retrylint.yaml")
	if got != want {
		t.Errorf("docs/topology.md shows\n%s\nbut the command prints\n%s", want, got)
	}
}

// TestTerraformIncidentsMatchYAML checks that the incidents written in
// Terraform give the same findings (rule, severity, component) and the same
// worst cases (path, formula, attempts) as their YAML versions.
func TestTerraformIncidentsMatchYAML(t *testing.T) {
	root := repoRoot(t)
	summary := func(dir string) (findings, chains []string) {
		return resultSummary(t, root, "examples/topology/"+dir+"/retrylint.yaml")
	}
	for _, dir := range []string{"incident1", "incident1-fixed", "incident2", "incident2-fixed"} {
		yf, yc := summary(dir)
		tf, tc := summary("terraform/" + dir)
		if strings.Join(yf, "\n") != strings.Join(tf, "\n") {
			t.Errorf("%s: findings differ\nYAML:\n%s\nTerraform:\n%s", dir, strings.Join(yf, "\n"), strings.Join(tf, "\n"))
		}
		if strings.Join(yc, "\n") != strings.Join(tc, "\n") {
			t.Errorf("%s: chains differ\nYAML:\n%s\nTerraform:\n%s", dir, strings.Join(yc, "\n"), strings.Join(tc, "\n"))
		}
	}
}

// The configuration's ignore patterns keep matching files out of a
// directory walk: a broken manifest there no longer ends the run.
func TestTopologyConfigIgnore(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("infra/job.yaml", "apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata:\n  name: etl\nspec:\n  template:\n    spec:\n      template:\n        spec:\n          maxRetries: 0\n")
	write("vendor/broken.yaml", "apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata:\n  name: [\n")
	if _, _, code := runCLI(t, dir, "."); code != 2 {
		t.Fatalf("without the config the broken file must fail the run, got exit %d", code)
	}
	write(".retrylint.yaml", "ignore: [vendor/**]\n")
	stdout, stderr, code := runCLI(t, dir, ".")
	if code != 0 {
		t.Fatalf("with vendor/ ignored: exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "etl") {
		t.Errorf("the job outside vendor/ is not in the report:\n%s", stdout)
	}
}

func TestSkippedFilesAreCounted(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"wf.yaml":                  "main:\n  steps:\n    - done:\n        return: 1\n",
		"chart/templates/job.yaml": "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {{ .Release.Name }}\n",
		"ci.yml":                   "on: [push]\njobs: {test: {steps: [{run: 'a: b'}]}}\n",
		"snippet.yaml":             "retries: 3\n  backoff: 2s\n",
	}
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code := runCLI(t, dir, ".")
	if code != 0 {
		t.Fatalf("exit %d, want 0; stderr %q", code, stderr)
	}
	if want := "skipped 3 files that are not manifests retrylint reads; --verbose lists them"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	_, stderr, _ = runCLI(t, dir, "--verbose", ".")
	for _, want := range []string{"chart/templates/job.yaml: skipped: a template", "snippet.yaml: skipped: not valid YAML", "ci.yml: skipped: no known manifest kind"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("--verbose: stderr %q, want %q", stderr, want)
		}
	}
}

func TestExamplesDirectoryIsEightPipelines(t *testing.T) {
	root := repoRoot(t)
	stdout, stderr, code := runCLI(t, root, "examples/topology")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the incidents fail, their fixes pass); stderr %q", code, stderr)
	}
	out := "\n" + stdout
	for _, want := range []string{"\npipeline examples/topology/incident1:\n", "\npipeline examples/topology/incident2-fixed:\n",
		"\npipeline examples/topology/terraform/incident1:\n", " in 8 pipelines\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// Each pipeline's findings come under its heading, before its tables.
	_, incident1, _ := strings.Cut(out, "\npipeline examples/topology/incident1:\n")
	incident1, _, _ = strings.Cut(incident1, "\npipeline ")
	findings, tables, _ := strings.Cut(incident1, "\nevent at ")
	if !strings.Contains(findings, "examples/topology/incident1/mapping-job.yaml:15:11: error: job-max-retries:") || tables == "" {
		t.Errorf("incident 1's findings are not under its heading, before its tables:\n%s", incident1)
	}
	if strings.Contains(findings, "examples/topology/incident2") {
		t.Errorf("incident 2's findings are under incident 1's heading:\n%s", incident1)
	}
	if strings.Contains(stderr, "declared twice") {
		t.Errorf("stderr %q", stderr)
	}
}

// TestReadmeTopologyExcerpt keeps the incident 1 output the README shows
// (an excerpt: "…" stands for the rest of a line, or for lines left out)
// true to what the command prints, in order.
func TestReadmeTopologyExcerpt(t *testing.T) {
	root := repoRoot(t)
	excerpt := blockAfter(t, readmeText(t), "so that layer is dead:\n", "text")
	got, _, code := runCLI(t, root, "examples/topology/incident1")
	if code != 1 {
		t.Errorf("exit %d, want 1 as the README says", code)
	}
	matchExcerpt(t, "incident 1", excerpt, got)
}

// A small topology file whose many event sources each reach a long row of
// calls asks for about a million chains: the run ends with exit 2 at the
// file, at once, and writes no report.
func TestTooManyChains(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("version: 1\ncomponents:\n")
	const n = 1000
	for i := range n {
		fmt.Fprintf(&b, "  event-%d: {kind: app, calls: [{to: step-%d}]}\n", i, i)
		if i+1 < n {
			fmt.Fprintf(&b, "  step-%d: {kind: app, calls: [{to: step-%d}]}\n", i, i+1)
		} else {
			fmt.Fprintf(&b, "  step-%d: {kind: app}\n", i)
		}
	}
	writeFile(t, filepath.Join(dir, "retrylint.yaml"), b.String())
	out := filepath.Join(dir, "report.json")
	stdout, stderr, code := runCLI(t, dir, "--format", "json", "--output", out, ".")
	if code != 2 {
		t.Fatalf("exit %d, want 2; stderr %q", code, stderr)
	}
	if want := "retrylint.yaml:3:3: 1,000 event sources"; !strings.Contains(stderr, want) {
		t.Errorf("error %q, want %q", stderr, want)
	}
	if stdout != "" {
		t.Errorf("output %q", stdout)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("report written")
	}
}

// Two root modules calling one shared module are two pipelines, each
// reporting the shared module's finding: the text line names its pipeline,
// so the two do not read as one line printed twice.
func TestSharedModuleFindingsNameTheirPipeline(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "modules/sub/main.tf"), `
variable "endpoint" {}
resource "google_pubsub_subscription" "s" {
  name  = "orders"
  topic = "orders"
  push_config {
    push_endpoint = var.endpoint
  }
}
`)
	for _, env := range []string{"stg", "prod"} {
		writeFile(t, filepath.Join(dir, "envs", env, "main.tf"), "module \"sub\" {\n  source   = \"../../modules/sub\"\n  endpoint = \"https://orders-"+env+".a.run.app/push\"\n}\n")
	}
	stdout, stderr, code := runCLI(t, dir, ".")
	if code != 1 && code != 0 {
		t.Fatalf("exit %d; stderr %s", code, stderr)
	}
	var lines []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "modules/sub/main.tf:") {
			lines = append(lines, l)
		}
	}
	if len(lines) < 2 {
		t.Fatalf("want the shared module's finding from both pipelines:\n%s", stdout)
	}
	for _, l := range lines {
		if !strings.HasSuffix(l, "(pipeline envs/prod)") && !strings.HasSuffix(l, "(pipeline envs/stg)") {
			t.Errorf("line %q does not name its pipeline", l)
		}
	}
	js, _, _ := runCLI(t, dir, "--format", "json", ".")
	if strings.Contains(js, "(pipeline envs/") {
		t.Errorf("the JSON message carries the pipeline note; JSON has the pipeline field:\n%s", js)
	}
}

// resultSummary runs `retrylint topology --format json arg` in root and
// lists its findings (severity, rule, component) and its worst cases
// (path, formula, attempts), each sorted, to compare two runs by.
func resultSummary(t *testing.T, root, arg string) (findings, chains []string) {
	t.Helper()
	js, stderr, _ := runCLI(t, root, "--format", "json", arg)
	var res model.Result
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatalf("%s: %v (%s)", arg, err, stderr)
	}
	for _, f := range res.Findings {
		findings = append(findings, string(f.Severity)+" "+f.Rule+" "+f.Component)
	}
	for _, c := range res.Chains {
		n := "unbounded"
		if c.Attempts != nil {
			n = strconv.FormatInt(*c.Attempts, 10)
		}
		chains = append(chains, strings.Join(c.Path, " → ")+" "+c.Formula+" "+n)
	}
	sort.Strings(findings)
	sort.Strings(chains)
	return findings, chains
}
