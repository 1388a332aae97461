package main

// End-to-end tests: build the retrylint binary once, then run it the two
// ways a user does, "retrylint code" and "go vet -vettool", on the testdata
// module testdata/e2e (no dependencies, so no network):
//
//	bad/     a fixed-sleep retry loop (and another in bad_test.go)
//	clean/   jittered, capped, classified backoff that stops with ctx
//	broken/  a type error

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// binary is the retrylint binary built by TestMain.
var binary string

func TestMain(m *testing.M) {
	if job := os.Getenv(helperEnv); job != "" {
		os.Exit(runHelper(job)) // this binary re-run as a helper process
	}
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "retrylint-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	binary = filepath.Join(dir, "retrylint")
	build := exec.Command("go", "build", "-o", binary, ".")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building retrylint: %v\n%s", err, out)
		return 2
	}
	return m.Run()
}

// e2eEnv is the environment of the commands run on the testdata module:
// no workspace, no toolchain switch, no network.
func e2eEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=")
}

// result is what a command did.
type result struct {
	stdout, stderr string
	code           int
}

// runIn runs name with args in dir and returns its output and exit status.
func runIn(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = e2eEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return result{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
}

// retrylint runs the binary in the testdata module, as at a project's
// root.
func retrylint(t *testing.T, args ...string) result {
	t.Helper()
	return runIn(t, asProjectRoot(t, e2eDir(t)), binary, args...)
}

// sleepLine is the line of the fixed sleep in bad/bad.go.
func sleepLine(t *testing.T) int {
	return lineOf(t, filepath.Join(e2eDir(t), "bad", "bad.go"), "time.Sleep(time.Second)")
}

// decodeReport checks the SPEC §6 JSON shape of a code report and returns
// its findings.
func decodeReport(t *testing.T, data string) []map[string]any {
	t.Helper()
	var doc map[string]json.RawMessage
	if err := json.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, data)
	}
	if keys := sortedKeys(doc); !slices.Equal(keys, []string{"chains", "findings", "tool", "version"}) {
		t.Errorf("report keys = %q, want chains, findings, tool, version", keys)
	}
	var head struct {
		Version int
		Tool    struct{ Name, Version string }
		Chains  []any
	}
	if err := json.Unmarshal([]byte(data), &head); err != nil {
		t.Fatal(err)
	}
	if head.Version != 1 || head.Tool.Name != "retrylint" || head.Tool.Version == "" {
		t.Errorf("report header: version %d, tool %+v; want 1, retrylint and a version", head.Version, head.Tool)
	}
	if string(doc["chains"]) != "[]" {
		t.Errorf("chains = %s, want [] from the code half", doc["chains"])
	}
	var findings []map[string]any
	if err := json.Unmarshal(doc["findings"], &findings); err != nil || findings == nil {
		t.Fatalf("findings = %s, want an array (%v)", doc["findings"], err)
	}
	required := []string{"column", "end_column", "end_line", "file", "line", "message", "rule", "severity"}
	for _, f := range findings {
		for _, k := range required {
			if _, ok := f[k]; !ok {
				t.Errorf("finding %v lacks %q", f, k)
			}
		}
		for k := range f {
			if !slices.Contains(required, k) && k != "fix" {
				t.Errorf("finding %v has unexpected field %q", f, k)
			}
		}
	}
	return findings
}

func sortedKeys[V any](m map[string]V) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// findingsOf selects the findings of rule in file.
func findingsOf(findings []map[string]any, rule, file string) []map[string]any {
	var out []map[string]any
	for _, f := range findings {
		if f["rule"] == rule && f["file"] == file {
			out = append(out, f)
		}
	}
	return out
}

func TestE2ECodeJSONFindings(t *testing.T) {
	r := retrylint(t, "code", "--format", "json", "./bad")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (findings); stderr %q", r.code, r.stderr)
	}
	if r.stderr != "" {
		t.Errorf("stderr %q, want nothing", r.stderr)
	}
	findings := decodeReport(t, r.stdout)
	got := findingsOf(findings, "fixed-sleep", "bad/bad.go")
	if len(got) != 1 {
		t.Fatalf("%d fixed-sleep findings in bad/bad.go, want 1; all: %v", len(got), findings)
	}
	f := got[0]
	if line := sleepLine(t); f["line"] != float64(line) {
		t.Errorf("fixed-sleep at line %v, want %d, the sleep's line", f["line"], line)
	}
	if f["severity"] != "error" {
		t.Errorf("severity %v, want error", f["severity"])
	}
	msg, _ := f["message"].(string)
	if msg == "" || strings.HasPrefix(msg, "fixed-sleep") {
		t.Errorf("message %q, want the message without its rule prefix", msg)
	}
	if n := len(findingsOf(findings, "fixed-sleep", "bad/bad_test.go")); n != 0 {
		t.Errorf("%d findings in bad_test.go without --tests, want 0", n)
	}
}

func TestE2ECodeTests(t *testing.T) {
	r := retrylint(t, "code", "--tests", "--format", "json", "./bad")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1; stderr %q", r.code, r.stderr)
	}
	findings := decodeReport(t, r.stdout)
	if n := len(findingsOf(findings, "fixed-sleep", "bad/bad_test.go")); n != 1 {
		t.Errorf("--tests: %d fixed-sleep findings in bad_test.go, want 1; all: %v", n, findings)
	}
	if n := len(findingsOf(findings, "fixed-sleep", "bad/bad.go")); n != 1 {
		t.Errorf("--tests: %d fixed-sleep findings in bad.go, want 1 (no duplicate from the test variant)", n)
	}
}

func TestE2ECodeText(t *testing.T) {
	r := retrylint(t, "code", "./bad")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1; stderr %q", r.code, r.stderr)
	}
	want := regexp.MustCompile(`(?m)^bad/bad\.go:` + strconv.Itoa(sleepLine(t)) + `:\d+: error: fixed-sleep: \S`)
	if !want.MatchString(r.stdout) {
		t.Errorf("text output %q, want a line matching %s", r.stdout, want)
	}
	if strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("text output to a pipe is coloured: %q", r.stdout)
	}

	r = retrylint(t, "code", "--color", "always", "./bad")
	if !strings.Contains(r.stdout, "\x1b[") || !strings.Contains(r.stdout, "fixed-sleep") {
		t.Errorf("--color always: output %q, want ANSI colour and the finding", r.stdout)
	}
}

func TestE2ECodeClean(t *testing.T) {
	r := retrylint(t, "code", "--format", "json", "./clean")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing", r.code, r.stderr)
	}
	if findings := decodeReport(t, r.stdout); len(findings) != 0 {
		t.Errorf("findings on the clean package: %v", findings)
	}
	r = retrylint(t, "code", "./clean")
	if r.code != 0 || r.stdout != "" {
		t.Errorf("text: exit %d, output %q; want 0 and nothing", r.code, r.stdout)
	}
}

func TestE2ECodeFailOn(t *testing.T) {
	r := retrylint(t, "code", "--fail-on", "never", "./bad")
	if r.code != 0 || !strings.Contains(r.stdout, "fixed-sleep") {
		t.Errorf("--fail-on never: exit %d, output %q; want 0 and the findings", r.code, r.stdout)
	}
	r = retrylint(t, "code", "--fail-on", "warning", "./bad")
	if r.code != 1 {
		t.Errorf("--fail-on warning: exit %d, want 1", r.code)
	}
}

func TestE2ECodeOutputFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report.json")
	r := retrylint(t, "code", "--format", "json", "--output", out, "./bad")
	if r.code != 1 || r.stdout != "" {
		t.Fatalf("exit %d, stdout %q; want 1 and the report in the file only", r.code, r.stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if findings := decodeReport(t, string(data)); len(findingsOf(findings, "fixed-sleep", "bad/bad.go")) != 1 {
		t.Errorf("report file holds %v, want the fixed-sleep finding", findings)
	}
}

func TestE2ECodeBrokenInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report.json")
	line := lineOf(t, filepath.Join(e2eDir(t), "broken", "broken.go"), `"not an int"`)
	for _, args := range [][]string{
		{"code", "--format", "json", "./broken"},
		{"code", "./bad", "./broken"},
		{"code", "--format", "json", "--output", out, "./broken"},
	} {
		r := retrylint(t, args...)
		if r.code != 2 {
			t.Errorf("%q: exit %d, want 2", args, r.code)
		}
		if r.stdout != "" {
			t.Errorf("%q: stdout %q, want no report", args, r.stdout)
		}
		if want := fmt.Sprintf("broken/broken.go:%d:9: ", line); !strings.Contains(r.stderr, want) {
			t.Errorf("%q: stderr %q, want the type error at %s", args, r.stderr, want)
		}
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("--output file written for broken input (stat: %v)", err)
	}
}

func TestE2EBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"code", "--format", "yaml", "./bad"},
		{"code", "--fail-on", "sometimes", "./bad"},
		{"code", "--color", "rainbow", "./bad"},
		{"code", "--no-such-flag", "./bad"},
		{"code", "./no-such-dir"},
		{"no-such-command"},
		{"explain", "no-such-rule"},
	} {
		r := retrylint(t, args...)
		if r.code != 2 || r.stdout != "" || r.stderr == "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, no output, an error", args, r.code, r.stdout, r.stderr)
		}
	}
}

func TestE2EVersion(t *testing.T) {
	r := retrylint(t, "version")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(r.stdout, "\n")
	version, ok := strings.CutPrefix(lines[0], "retrylint ")
	if !ok || version == "" {
		t.Fatalf("first line %q, want \"retrylint VERSION\"", lines[0])
	}
	for _, want := range []string{"go        go1.", "dep       golang.org/x/tools v"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("version output lacks %q:\n%s", want, r.stdout)
		}
	}
	j := retrylint(t, "code", "--format", "json", "./clean")
	var head struct{ Tool struct{ Version string } }
	if err := json.Unmarshal([]byte(j.stdout), &head); err != nil || head.Tool.Version != version {
		t.Errorf("JSON tool.version %q, want %q as printed by retrylint version (%v)", head.Tool.Version, version, err)
	}
}

func TestE2EGoVet(t *testing.T) {
	vet := func(pkg string) result {
		return runIn(t, e2eDir(t), "go", "vet", "-vettool="+binary, pkg)
	}

	r := vet("./bad")
	if r.code == 0 {
		t.Errorf("go vet ./bad: exit 0, want failure for the findings")
	}
	want := regexp.MustCompile(`(?m)bad\.go:` + strconv.Itoa(sleepLine(t)) + `:\d+: fixed-sleep: \S`)
	if !want.MatchString(r.stderr) {
		t.Errorf("go vet ./bad: stderr %q, want a line matching %s", r.stderr, want)
	}

	r = vet("./clean")
	if r.code != 0 || strings.TrimSpace(r.stderr) != "" {
		t.Errorf("go vet ./clean: exit %d, stderr %q; want 0 and nothing", r.code, r.stderr)
	}

	r = vet("./broken")
	line := lineOf(t, filepath.Join(e2eDir(t), "broken", "broken.go"), `"not an int"`)
	if r.code == 0 || !strings.Contains(r.stderr, fmt.Sprintf("broken.go:%d:9: ", line)) {
		t.Errorf("go vet ./broken: exit %d, stderr %q; want failure naming the type error", r.code, r.stderr)
	}
}

// TestE2ESettings gives the analyzers one setting both ways a user does:
// in .retrylint.yaml for retrylint code, as the retryconfig analyzer's
// flag for go vet. Both see it, and without it both report the loop.
func TestE2ESettings(t *testing.T) {
	dir := e2eDir(t)
	line := lineOf(t, filepath.Join(dir, "configured", "configured.go"), "for attempt := range 4")
	finding := fmt.Sprintf("configured.go:%d:2: unclassified-retry: ", line)

	if r := retrylint(t, "code", "./configured"); r.code != 1 || !strings.Contains(r.stdout, asText(finding)) {
		t.Errorf("retrylint code without the setting: exit %d, stdout %q; want 1 and %q", r.code, r.stdout, asText(finding))
	}
	if r := runIn(t, dir, "go", "vet", "-vettool="+binary, "./configured"); r.code == 0 || !strings.Contains(r.stderr, finding) {
		t.Errorf("go vet without the setting: exit %d, stderr %q; want failure and %q", r.code, r.stderr, finding)
	}

	cfg := filepath.Join(t.TempDir(), ".retrylint.yaml")
	if err := os.WriteFile(cfg, []byte("classifiers: [configured.reply.retryable]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := retrylint(t, "code", "--config", cfg, "./configured"); r.code != 0 || r.stdout != "" {
		t.Errorf("retrylint code with classifiers: exit %d, stdout %q; want 0 and nothing", r.code, r.stdout)
	}
	if r := runIn(t, dir, "go", "vet", "-vettool="+binary, "-retryconfig.classifiers=configured.reply.retryable", "./configured"); r.code != 0 || strings.TrimSpace(r.stderr) != "" {
		t.Errorf("go vet -retryconfig.classifiers: exit %d, stderr %q; want 0 and nothing", r.code, r.stderr)
	}
	if r := runIn(t, dir, "go", "vet", "-vettool="+binary, "-retryconfig.classifiers=retryable", "./configured"); r.code == 0 || !strings.Contains(r.stderr, "pkg.Func") {
		t.Errorf("go vet with a malformed classifier: exit %d, stderr %q; want failure saying what a function name is", r.code, r.stderr)
	}
}

// TestE2ETags loads a package that builds only with a tag: without it the
// run fails naming the package and suggesting --tags; with it the loop is
// checked.
func TestE2ETags(t *testing.T) {
	r := retrylint(t, "code", "./tagged")
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "tagged.go:11:12: undefined: dial") ||
		!strings.Contains(r.stderr, "example.com/e2e/tagged did not type-check without build tags") || !strings.Contains(r.stderr, "--tags") {
		t.Errorf("without the tag: exit %d, stdout %q, stderr %q; want 2, the type error, the package and a hint at --tags", r.code, r.stdout, r.stderr)
	}
	r = retrylint(t, "code", "--tags", "integration", "./tagged")
	if r.code != 1 || !strings.Contains(r.stdout, "tagged.go:14:3: error: fixed-sleep: ") {
		t.Errorf("--tags integration: exit %d, stdout %q, stderr %q; want 1 and the fixed sleep", r.code, r.stdout, r.stderr)
	}
}

// TestE2EInterfaceFacts checks a loop around a call through an interface
// of another package whose implementation, an unexported type no
// exported declaration names, retries: go vet sees that package only as
// export data, so both front ends must read it from the interface
// method's fact.
func TestE2EInterfaceFacts(t *testing.T) {
	line := lineOf(t, filepath.Join(e2eDir(t), "behind", "behind.go"), "for range 5")
	finding := fmt.Sprintf("behind.go:%d:2: nested-retry: retry loop retries c.Request, which retries too (broker/broker.go:", line)
	if r := retrylint(t, "code", "./behind"); r.code != 1 || !strings.Contains(r.stdout, asText(finding)) {
		t.Errorf("retrylint code ./behind: exit %d, stdout %q, stderr %q; want 1 and %q", r.code, r.stdout, r.stderr, asText(finding))
	}
	if r := runIn(t, e2eDir(t), "go", "vet", "-vettool="+binary, "./behind"); r.code == 0 || !strings.Contains(r.stderr, finding) {
		t.Errorf("go vet ./behind: exit %d, stderr %q; want failure and %q", r.code, r.stderr, finding)
	}
}

// TestE2EFacts checks one package whose wait comes from a helper of
// another: the helper's package is not named, yet both front ends read
// what it returns from its facts.
func TestE2EFacts(t *testing.T) {
	line := lineOf(t, filepath.Join(e2eDir(t), "paced", "paced.go"), "time.Sleep(pacing.Exponential")
	finding := fmt.Sprintf("paced.go:%d:3: no-jitter: retry wait (pacing.Exponential(", line)
	if r := retrylint(t, "code", "./paced"); r.code != 1 || !strings.Contains(r.stdout, asText(finding)) {
		t.Errorf("retrylint code ./paced: exit %d, stdout %q, stderr %q; want 1 and %q", r.code, r.stdout, r.stderr, asText(finding))
	}
	if r := runIn(t, e2eDir(t), "go", "vet", "-vettool="+binary, "./paced"); r.code == 0 || !strings.Contains(r.stderr, finding) {
		t.Errorf("go vet ./paced: exit %d, stderr %q; want failure and %q", r.code, r.stderr, finding)
	}
}
