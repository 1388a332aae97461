package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/report"

	"github.com/retrylint/retrylint/internal/schematest"
	"github.com/retrylint/retrylint/internal/shareddata"
)

var updateReport = flag.Bool("update-report", false, "rewrite the golden files under testdata/report/golden")

// reportRoot is the repository root, from this package's directory.
var reportRoot = func() string {
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return filepath.Clean(filepath.Join(wd, "..", ".."))
}()

// cli is what one run of the command line did.
type cli struct {
	stdout, stderr string
	code           int
}

// runCmd runs the retrylint command line in dir, as a user would there.
func runCmd(t *testing.T, dir string, args ...string) cli {
	t.Helper()
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return cli{out.String(), errOut.String(), code}
}

// versionRE matches the tool version, which depends on how the binary was
// built, in JSON and SARIF.
var versionRE = regexp.MustCompile(`("name": "retrylint",\s*"version": )"[^"]*"`)

// checkGolden compares got with testdata/report/golden/name (rewritten
// with -update-report).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	got = versionRE.ReplaceAllString(got, `$1"VERSION"`)
	path := filepath.Join(reportRoot, "testdata", "report", "golden", name)
	if *updateReport {
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
		t.Fatalf("%v (go test -update-report creates it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test -update-report rewrites it)\n--- got ---\n%s", name, got)
	}
}

// reportCases are the seed's incidents and the payment client, as the
// report command sees them from the repository root.
var reportCases = []struct {
	name string
	args []string
	code int
}{
	{"incident1", []string{"--topology", "examples/topology/incident1/retrylint.yaml"}, 1},
	{"incident1-fixed", []string{"--topology", "examples/topology/incident1-fixed/retrylint.yaml"}, 0},
	{"incident2", []string{"--topology", "examples/topology/incident2/retrylint.yaml"}, 1},
	{"payment", []string{"--code", "./examples/payment"}, 1},
}

// TestReportGolden holds every format of the report on the seed's
// incidents and the payment client to golden files, and checks that two
// runs give the same bytes.
func TestReportGolden(t *testing.T) {
	for _, c := range reportCases {
		for _, format := range []string{"markdown", "json", "sarif", "dot"} {
			t.Run(c.name+"/"+format, func(t *testing.T) {
				args := append([]string{"report", "--format", format}, c.args...)
				first := runCmd(t, reportRoot, args...)
				if first.code != c.code {
					t.Fatalf("exit %d, want %d; stderr:\n%s", first.code, c.code, first.stderr)
				}
				second := runCmd(t, reportRoot, args...)
				if first.stdout != second.stdout {
					t.Errorf("two runs differ:\n--- first ---\n%s\n--- second ---\n%s", first.stdout, second.stdout)
				}
				checkGolden(t, c.name+"."+ext(format), first.stdout)
			})
		}
	}
}

// TestCodeFormatsGolden holds every format of "retrylint code" on the
// payment client to golden files.
func TestCodeFormatsGolden(t *testing.T) {
	for _, format := range []string{"text", "json", "sarif", "markdown"} {
		t.Run(format, func(t *testing.T) {
			r := runCmd(t, reportRoot, "code", "--format", format, "./examples/payment")
			if r.code != 1 {
				t.Fatalf("exit %d, want 1; stderr:\n%s", r.code, r.stderr)
			}
			checkGolden(t, "code-payment."+ext(format), r.stdout)
		})
	}
}

// ext is a format's file extension.
func ext(format string) string {
	return map[string]string{"markdown": "md", "json": "json", "sarif": "sarif", "dot": "dot", "text": "txt"}[format]
}

// sarifSchema compiles the official SARIF 2.1.0 schema, kept beside the
// repository in shared/schemas.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return schematest.CompileStrict(t, shareddata.Path(t, "schemas/sarif-schema-2.1.0.json"))
}

// TestSARIFValidates checks that the SARIF of both halves is valid against
// the official schema, carries every rule with its metadata, and gives
// each result a location and a fingerprint.
func TestSARIFValidates(t *testing.T) {
	schema := sarifSchema(t)
	runs := map[string][]string{
		"code":     {"code", "--format", "sarif", "./examples/payment"},
		"topology": {"report", "--format", "sarif", "--topology", "examples/topology/incident1/retrylint.yaml"},
		"both":     {"report", "--format", "sarif", "--code", "./examples/payment", "--topology", "examples/topology/incident2/retrylint.yaml"},
	}
	for name, args := range runs {
		t.Run(name, func(t *testing.T) {
			r := runCmd(t, reportRoot, args...)
			if r.code != 1 {
				t.Fatalf("exit %d, want 1; stderr:\n%s", r.code, r.stderr)
			}
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(r.stdout))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(inst); err != nil {
				t.Fatalf("invalid SARIF: %v", err)
			}
			checkSARIFContent(t, r.stdout)
		})
	}
}

// checkSARIFContent checks what code scanning needs beyond the schema.
func checkSARIFContent(t *testing.T, data string) {
	t.Helper()
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string
					Rules   []struct {
						ID                   string
						HelpURI              string
						ShortDescription     struct{ Text string }
						FullDescription      struct{ Text string }
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string
				Level     string
				Locations []struct {
					PhysicalLocation struct{ ArtifactLocation struct{ URI string } }
				}
				PartialFingerprints map[string]string
			}
		}
	}
	if err := json.Unmarshal([]byte(data), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	d := log.Runs[0].Tool.Driver
	if d.Version == "" {
		t.Error("tool.driver.version is empty")
	}
	ids := make(map[string]bool)
	for _, r := range d.Rules {
		ids[r.ID] = true
		if !strings.HasSuffix(r.HelpURI, "/docs/rules/"+r.ID+".md") || r.ShortDescription.Text == "" ||
			r.FullDescription.Text == "" || r.DefaultConfiguration.Level == "" {
			t.Errorf("rule %s lacks metadata: %+v", r.ID, r)
		}
	}
	for _, r := range catalogue() {
		if !ids[r.Name] {
			t.Errorf("rule %s is not in tool.driver.rules", r.Name)
		}
	}
	if len(log.Runs[0].Results) == 0 {
		t.Fatal("no results")
	}
	for _, res := range log.Runs[0].Results {
		if !ids[res.RuleID] {
			t.Errorf("result of unknown rule %s", res.RuleID)
		}
		if len(res.Locations) != 1 || strings.HasPrefix(res.Locations[0].PhysicalLocation.ArtifactLocation.URI, "/") {
			t.Errorf("result %s: want one relative location, got %+v", res.RuleID, res.Locations)
		}
		if res.PartialFingerprints[report.FingerprintKey] == "" {
			t.Errorf("result %s has no fingerprint", res.RuleID)
		}
	}
}

// maxRetriesDir holds the pipeline whose only change is mapping-job's
// maxRetries, 0 in base/ and 3 in head/.
func maxRetriesDir() string {
	return filepath.Join(reportRoot, "testdata", "report", "maxretries")
}

// TestReportBaseDirectory: the change sets a job's maxRetries from 0 to 3.
// The report shows the diagram, the formula, the new finding and the worst
// case going 3 → 12, and the gate fails.
func TestReportBaseDirectory(t *testing.T) {
	maxRetries := asProjectRoot(t, maxRetriesDir())
	r := runCmd(t, filepath.Join(maxRetries, "head"), "report", "--topology", "retrylint.yaml", "--base", "../base")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"**❌ Fails:**",
		"### What changed against `../base`",
		"**mapping-app: 3 → 12**",
		"`(2+1)×(3+1) = 12`",
		"New findings (3):",
		"🔴 `job-max-retries` `mapping-job.yaml:16`",
		"```mermaid\nflowchart LR",
		`n1 ==>|"×4 (3 retries, mapping-job.yaml:16)"| n2`,
		"| mapping-app | **12** | `(2+1)×(3+1) = 12` | `mapping-workflow.yaml:12` × `mapping-job.yaml:16` | mapping-workflow → mapping-job → mapping-app |",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "Fixed findings") {
		t.Errorf("the change fixed nothing, but the report lists fixed findings:\n%s", r.stdout)
	}
	checkGolden(t, "maxretries.md", r.stdout)

	js := runCmd(t, filepath.Join(maxRetries, "head"), "report", "--format", "json", "--topology", "retrylint.yaml", "--base", "../base")
	var res model.Result
	if err := json.Unmarshal([]byte(js.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Changes == nil || len(res.Changes.Attempts) != 1 {
		t.Fatalf("changes: %+v, want mapping-app's worst case only", res.Changes)
	}
	a := res.Changes.Attempts[0]
	if a.Component != "mapping-app" || a.Before.String() != "3" || a.After.String() != "12" {
		t.Errorf("attempt change %s: %s → %s, want mapping-app: 3 → 12", a.Component, a.Before, a.After)
	}

	// In SARIF, the new findings are marked as such for code scanning.
	sarif := runCmd(t, filepath.Join(maxRetries, "head"), "report", "--format", "sarif", "--topology", "retrylint.yaml", "--base", "../base")
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(sarif.stdout))
	if err != nil {
		t.Fatal(err)
	}
	if err := sarifSchema(t).Validate(inst); err != nil {
		t.Errorf("invalid SARIF with --base: %v", err)
	}
	if n := strings.Count(sarif.stdout, `"baselineState": "new"`); n != 3 {
		t.Errorf("%d results are new in SARIF, want 3", n)
	}

	// The other way round, the change fixes the finding and lowers the
	// worst case; nothing fails.
	back := runCmd(t, filepath.Join(maxRetries, "base"), "report", "--topology", "retrylint.yaml", "--base", "../head")
	if back.code != 0 || !strings.Contains(back.stdout, "**mapping-app: 12 → 3**") || !strings.Contains(back.stdout, "Fixed findings (3):") {
		t.Errorf("reverting the change: exit %d, report:\n%s", back.code, back.stdout)
	}
}

// TestReportBaseGitRef compares with a git ref: the base is checked out
// into a temporary worktree, which is gone afterwards.
func TestReportBaseGitRef(t *testing.T) {
	repo, gitIn := newGitRepo(t)
	infra := filepath.Join(repo, "infra")
	copyDir(t, filepath.Join(maxRetriesDir(), "base"), infra)
	gitIn("init", "--quiet", "--initial-branch=main")
	gitIn("add", ".")
	gitIn("commit", "--quiet", "-m", "base")
	copyDir(t, filepath.Join(maxRetriesDir(), "head"), infra)

	r := runCmd(t, repo, "report", "--topology", "infra/retrylint.yaml", "--base", "main")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "**mapping-app: 3 → 12**") || !strings.Contains(r.stdout, "`job-max-retries` `infra/mapping-job.yaml:16`") {
		t.Errorf("the report lacks the change:\n%s", r.stdout)
	}
	out, err := exec.Command("git", "-C", repo, "worktree", "list", "--porcelain").Output()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), "worktree "); n != 1 {
		t.Errorf("%d worktrees after the run, want the main one only:\n%s", n, out)
	}

	bad := runCmd(t, repo, "report", "--topology", "infra/retrylint.yaml", "--base", "no-such-ref")
	if bad.code != 2 || !strings.Contains(bad.stderr, "neither a directory nor a git ref") {
		t.Errorf("unknown ref: exit %d, stderr %q; want 2 and an error", bad.code, bad.stderr)
	}
}

// copyDir copies the files of src into dst.
// newGitRepo makes an empty directory for a git repository and a function
// that runs git in it with a fixed identity, failing the test on an
// error; without git the test is skipped.
func newGitRepo(t *testing.T) (repo string, gitIn func(args ...string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo = t.TempDir()
	return repo, func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// headCopy copies the maxRetries head pipeline into a temporary directory.
func headCopy(t *testing.T) string {
	dir := t.TempDir()
	copyDir(t, filepath.Join(maxRetriesDir(), "head"), dir)
	return dir
}

// writeFile writes a file of the test.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReportSuppression: a YAML ignore comment with a reason removes the
// finding on the next line from the report.
func TestReportSuppression(t *testing.T) {
	dir := headCopy(t)
	job := filepath.Join(dir, "mapping-job.yaml")
	data, _ := os.ReadFile(job)
	writeFile(t, job, strings.Replace(string(data), "          maxRetries: 3",
		"          # retrylint:ignore job-max-retries the job is idempotent and reports nothing\n          maxRetries: 3", 1))
	r := runCmd(t, dir, "report", "--format", "json", "--topology", "retrylint.yaml")
	if r.code != 0 {
		t.Errorf("exit %d, want 0 (the only error is suppressed); stderr:\n%s", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, `"job-max-retries"`) {
		t.Errorf("the suppressed finding is reported:\n%s", r.stdout)
	}
}

// TestReportBaseline: a written baseline accepts the existing findings; a
// finding added later is still reported, and fails the gate.
func TestReportBaseline(t *testing.T) {
	dir := headCopy(t)
	args := []string{"report", "--format", "json", "--topology", "retrylint.yaml", "--baseline", "baseline.json"}
	w := runCmd(t, dir, append(args, "--write-baseline")...)
	if w.code != 0 || !strings.Contains(w.stderr, "baseline.json: recorded 3 findings") {
		t.Fatalf("--write-baseline: exit %d, stderr %q; want 0 and the count", w.code, w.stderr)
	}
	r := runCmd(t, dir, args...)
	var res model.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if r.code != 0 || len(res.Findings) != 0 {
		t.Errorf("with the baseline: exit %d, %d findings; want 0 and none", r.code, len(res.Findings))
	}

	// Lines move (a comment on top): the baseline still matches.
	job := filepath.Join(dir, "mapping-job.yaml")
	data, _ := os.ReadFile(job)
	writeFile(t, job, "# moved down a line\n"+string(data))
	if r := runCmd(t, dir, args...); r.code != 0 {
		t.Errorf("after lines moved: exit %d, want 0:\n%s", r.code, r.stdout)
	}

	// A new problem: the workflow's retry loses its backoff.
	wf := filepath.Join(dir, "mapping-workflow.yaml")
	data, _ = os.ReadFile(wf)
	writeFile(t, wf, strings.Replace(string(data), "          max_retries: 2\n          backoff:\n            initial_delay: 30\n            max_delay: 120\n            multiplier: 2\n",
		"          max_retries: 2\n          backoff:\n            initial_delay: 30\n            max_delay: 30\n            multiplier: 1\n", 1))
	r = runCmd(t, dir, args...)
	res = model.Result{}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Rule != "retry-without-backoff" {
		t.Errorf("after a new problem: findings %+v, want retry-without-backoff only", res.Findings)
	}

	writeFile(t, filepath.Join(dir, "broken.json"), "{\"version\": 1,\n \"findings\": [{\"fingerprint\": 3}]}")
	b := runCmd(t, dir, "report", "--topology", "retrylint.yaml", "--baseline", "broken.json")
	if b.code != 2 || !strings.Contains(b.stderr, "broken.json:2:") {
		t.Errorf("an invalid baseline: exit %d, stderr %q; want 2 and its line", b.code, b.stderr)
	}
}

// TestReportConfig: .retrylint.yaml turns a rule off, changes a severity,
// sets the budget and ignores paths; an unknown key fails the run with its
// line.
func TestReportConfig(t *testing.T) {
	dir := headCopy(t)
	rules := func(r cli) map[string]model.Severity {
		t.Helper()
		var res model.Result
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("%v; stderr:\n%s", err, r.stderr)
		}
		out := make(map[string]model.Severity)
		for _, f := range res.Findings {
			out[f.Rule] = f.Severity
		}
		return out
	}
	args := []string{"report", "--format", "json", "--topology", "retrylint.yaml"}

	writeFile(t, filepath.Join(dir, ".retrylint.yaml"), "severity:\n  job-max-retries: warning\n  multiple-retry-layers: off\nbudget: 4\n")
	r := runCmd(t, dir, args...)
	got := rules(r)
	if r.code != 1 || got["job-max-retries"] != model.Warning || got["multiple-retry-layers"] != "" || got["amplification"] != model.Error {
		t.Errorf("severity and budget: exit %d, findings %v; want job-max-retries a warning, no multiple-retry-layers, amplification an error over budget 4", r.code, got)
	}

	writeFile(t, filepath.Join(dir, ".retrylint.yaml"), "severity:\n  job-max-retries: warning\nignore: [retrylint.yaml]\n")
	r = runCmd(t, dir, args...)
	got = rules(r)
	if r.code != 0 || got["amplification"] != "" || got["job-max-retries"] != model.Warning {
		t.Errorf("ignore: exit %d, findings %v; want no finding in retrylint.yaml and exit 0", r.code, got)
	}

	// The configuration is found from a subdirectory too, and --config
	// names another file.
	other := filepath.Join(dir, "strict.yaml")
	writeFile(t, other, "severity: {amplification: off, job-max-retries: off, multiple-retry-layers: off}\n")
	r = runCmd(t, dir, append(args, "--config", "strict.yaml")...)
	if got := rules(r); r.code != 0 || len(got) != 0 {
		t.Errorf("--config: exit %d, findings %v; want none", r.code, got)
	}

	writeFile(t, filepath.Join(dir, ".retrylint.yaml"), "budget: 4\nseverity:\n  job-max-retries: warning\n  no-such-rule: off\n")
	r = runCmd(t, dir, args...)
	if r.code != 2 || !strings.Contains(r.stderr, ".retrylint.yaml:4:3: severity: unknown rule \"no-such-rule\"") || r.stdout != "" {
		t.Errorf("an unknown rule: exit %d, stdout %q, stderr %q; want 2, nothing written, the line", r.code, r.stdout, r.stderr)
	}
	writeFile(t, filepath.Join(dir, ".retrylint.yaml"), "budget: 4\nbugdet: 5\n")
	r = runCmd(t, dir, args...)
	if r.code != 2 || !strings.Contains(r.stderr, ".retrylint.yaml:2:1: unknown key \"bugdet\"") {
		t.Errorf("an unknown key: exit %d, stderr %q; want 2 and the line", r.code, r.stderr)
	}
}

// TestReportFailOn: --fail-on decides the exit status and the verdict line.
func TestReportFailOn(t *testing.T) {
	dir := filepath.Join(maxRetriesDir(), "head")
	for _, c := range []struct {
		failOn  string
		code    int
		verdict string
	}{
		{"error", 1, "**❌ Fails:** 1 error, 2 warnings (the gate fails on errors)."},
		{"warning", 1, "**❌ Fails:** 1 error, 2 warnings (the gate fails on warnings and errors)."},
		{"never", 0, "**✅ Passes:** 1 error, 2 warnings (the gate never fails)."},
	} {
		r := runCmd(t, dir, "report", "--topology", "retrylint.yaml", "--fail-on", c.failOn)
		if r.code != c.code || !strings.Contains(r.stdout, c.verdict) {
			t.Errorf("--fail-on %s: exit %d, want %d; want the verdict %q in:\n%s", c.failOn, r.code, c.code, c.verdict, r.stdout)
		}
	}
	onlyWarnings := runCmd(t, filepath.Join(maxRetriesDir(), "base"), "report", "--topology", "retrylint.yaml", "--fail-on", "warning")
	if onlyWarnings.code != 0 || !strings.Contains(onlyWarnings.stdout, "**✅ Passes:** no findings") {
		t.Errorf("a clean pipeline: exit %d:\n%s", onlyWarnings.code, onlyWarnings.stdout)
	}
}

// TestReportUsageErrors: a run that cannot be done exits 2 and writes
// nothing.
func TestReportUsageErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report.md")
	for name, args := range map[string][]string{
		"nothing to check":              {"report"},
		"bad format":                    {"report", "--topology", "x.yaml", "--format", "yaml"},
		"missing input":                 {"report", "--topology", "no-such.yaml", "-o", out},
		"write-baseline without a file": {"report", "--topology", "x.yaml", "--write-baseline"},
	} {
		r := runCmd(t, dir, args...)
		if r.code != 2 || r.stdout != "" || r.stderr == "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2, no output, an error", name, r.code, r.stdout, r.stderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written by a failed run", out)
	}
}

// TestCodeConfig: the configuration's severity applies to the code half,
// and its classifiers reach the analyzers.
func TestCodeConfig(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.26\n")
	writeFile(t, filepath.Join(dir, "m.go"), `package m

import (
	"errors"
	"time"
)

var errBusy = errors.New("busy")

func call() error { return errBusy }

// shouldRetry decides from a counter, not from the error.
func shouldRetry(n int) bool { return n < 3 }

func Do() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil {
			return nil
		}
		if !shouldRetry(i) {
			return err
		}
		time.Sleep(time.Duration(1<<i) * time.Second)
	}
	return err
}
`)
	base := runCmd(t, dir, "code", "--format", "json", "./...")
	if !strings.Contains(base.stdout, `"unclassified-retry"`) {
		t.Fatalf("without configuration: want unclassified-retry, got exit %d:\n%s%s", base.code, base.stdout, base.stderr)
	}
	writeFile(t, filepath.Join(dir, ".retrylint.yaml"), "classifiers: [m.shouldRetry]\nseverity: {no-jitter: warning, no-cap: off}\n")
	r := runCmd(t, dir, "code", "--format", "json", "./...")
	if strings.Contains(r.stdout, `"unclassified-retry"`) || strings.Contains(r.stdout, `"no-cap"`) {
		t.Errorf("with classifiers and no-cap off: %s", r.stdout)
	}
	if !strings.Contains(r.stdout, `"rule": "no-jitter",
      "severity": "warning"`) {
		t.Errorf("no-jitter is not a warning: %s", r.stdout)
	}
}

// TestTopologyFormatsAndGate: "retrylint topology" writes every report
// format, and takes the configuration and a baseline like the others.
func TestTopologyFormatsAndGate(t *testing.T) {
	arg := "examples/topology/incident1/retrylint.yaml"
	for _, format := range []string{"sarif", "markdown", "dot"} {
		r := runCmd(t, reportRoot, "topology", "--format", format, arg)
		want := runCmd(t, reportRoot, "report", "--format", format, "--topology", arg)
		if r.code != 1 || r.stdout != want.stdout {
			t.Errorf("topology --format %s: exit %d, and not the output of report:\n%s", format, r.code, r.stdout)
		}
	}

	dir := headCopy(t)
	writeFile(t, filepath.Join(dir, ".retrylint.yaml"), "severity: {job-max-retries: warning}\n")
	if r := runCmd(t, dir, "topology", "retrylint.yaml"); r.code != 0 || !strings.Contains(r.stdout, "job-max-retries") {
		t.Errorf("topology with job-max-retries a warning: exit %d, want 0:\n%s%s", r.code, r.stdout, r.stderr)
	}
	writeFile(t, filepath.Join(dir, ".retrylint.yaml"), "budget: 4\n")
	if r := runCmd(t, dir, "topology", "--format", "json", "retrylint.yaml"); !strings.Contains(r.stdout, "over the budget of 4") {
		t.Errorf("topology with budget 4 in the configuration:\n%s%s", r.stdout, r.stderr)
	}
	writeFile(t, filepath.Join(dir, ".retrylint.yaml"), "budgets: 4\n")
	if r := runCmd(t, dir, "topology", "retrylint.yaml"); r.code != 2 || !strings.Contains(r.stderr, ".retrylint.yaml:1:1: unknown key") {
		t.Errorf("topology with an invalid configuration: exit %d, stderr %q", r.code, r.stderr)
	}
	os.Remove(filepath.Join(dir, ".retrylint.yaml"))
	runCmd(t, dir, "topology", "--baseline", "b.json", "--write-baseline", "retrylint.yaml")
	if r := runCmd(t, dir, "topology", "--baseline", "b.json", "retrylint.yaml"); r.code != 0 {
		t.Errorf("topology with a baseline of every finding: exit %d:\n%s", r.code, r.stdout)
	}
}
