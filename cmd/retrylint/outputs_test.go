package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oneRun runs retrylint in dir with args and with one --output-FORMAT
// flag for each of formats, and returns what it printed and the files it
// wrote, by format.
func oneRun(t *testing.T, dir string, args []string, formats ...string) (result, map[string]string) {
	t.Helper()
	out := t.TempDir()
	files := make(map[string]string)
	for _, f := range formats {
		files[f] = filepath.Join(out, "report."+f)
		args = append(args, "--output-"+f, files[f])
	}
	r := runIn(t, dir, binary, args...)
	written := make(map[string]string)
	for f, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			written[f] = string(b)
		}
	}
	return r, written
}

// sameAsSeparateRuns checks that each report written by one run is,
// byte for byte, what a run with --format alone prints.
func sameAsSeparateRuns(t *testing.T, dir string, args []string, written map[string]string, formats ...string) {
	t.Helper()
	for _, f := range formats {
		alone := runIn(t, dir, binary, append([]string{args[0], "--format", f}, args[1:]...)...)
		got, ok := written[f]
		switch {
		case !ok:
			t.Errorf("--output-%s: no file written", f)
		case got != alone.stdout:
			t.Errorf("--output-%s wrote\n%.600s\n--format %s prints\n%.600s", f, got, f, alone.stdout)
		}
	}
}

// TestCodeWritesSeveralFormatsFromOneRun is "retrylint code" with the
// text report on standard output and four more in files, each what a run
// of its own would print.
func TestCodeWritesSeveralFormatsFromOneRun(t *testing.T) {
	dir := e2eDir(t)
	args := []string{"code", "./bad"}
	formats := []string{"json", "sarif", "markdown", "github", "codeclimate"}
	r, written := oneRun(t, dir, args, formats...)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r.stderr)
	}
	if text := runIn(t, dir, binary, args...); r.stdout != text.stdout || !strings.Contains(r.stdout, "fixed-sleep") {
		t.Errorf("standard output\n%s\nwant the text report\n%s", r.stdout, text.stdout)
	}
	sameAsSeparateRuns(t, dir, args, written, formats...)
}

// TestTopologyWritesSeveralFormatsFromOneRun writes the topology's own
// text report (with its chain tables) to a file while JSON goes to
// standard output.
func TestTopologyWritesSeveralFormatsFromOneRun(t *testing.T) {
	args := []string{"topology", "examples/topology/incident1"}
	formats := []string{"text", "sarif", "markdown", "dot"}
	r, written := oneRun(t, reportRoot, append(args, "--format", "json"), formats...)
	if r.code != 1 || !strings.Contains(r.stdout, `"rule": "job-max-retries"`) {
		t.Fatalf("exit %d, want 1 with the JSON report on standard output\n%.300s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(written["text"], "event at mapping-trigger:") {
		t.Errorf("--output-text is not the topology's text report:\n%.600s", written["text"])
	}
	sameAsSeparateRuns(t, reportRoot, args, written, formats...)
}

// TestReportWritesSeveralFormatsFromOneRun is the Action's run: the
// annotations to the log, SARIF for code scanning and the Markdown
// comment with its links, from one analysis.
func TestReportWritesSeveralFormatsFromOneRun(t *testing.T) {
	args := []string{"report", "--code", "./examples/payment", "--topology", "examples/topology/incident1",
		"--link-base", "https://github.com/acme/payments/blob/0123456"}
	r, written := oneRun(t, reportRoot, append(args, "--format", "github"), "sarif", "markdown", "json")
	if r.code != 1 || !strings.Contains(r.stdout, "::error file=examples/payment/payment.go,") {
		t.Fatalf("exit %d, want 1 with annotations on standard output\n%.300s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(written["markdown"], "https://github.com/acme/payments/blob/0123456/examples/payment/payment.go#L") {
		t.Errorf("--output-markdown lost --link-base:\n%.600s", written["markdown"])
	}
	sameAsSeparateRuns(t, reportRoot, args, written, "sarif", "markdown", "json")
}

// TestSeveralOutputsAllOrNothing: a run that fails writes none of its
// reports, and a report that cannot be written leaves every other file
// as it was.
func TestSeveralOutputsAllOrNothing(t *testing.T) {
	dir := e2eDir(t)
	out := t.TempDir()
	json, sarif := filepath.Join(out, "old.json"), filepath.Join(out, "old.sarif")
	for _, f := range []string{json, sarif} {
		if err := os.WriteFile(f, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	unchanged := func(what string) {
		t.Helper()
		for _, f := range []string{json, sarif} {
			if b, err := os.ReadFile(f); err != nil || string(b) != "old\n" {
				t.Errorf("%s: %s is now %q (%v), want it as it was", what, filepath.Base(f), b, err)
			}
		}
		noTempLeft(t, out)
	}

	broken := runIn(t, dir, binary, "code", "--output-json", json, "--output-sarif", sarif, "./broken")
	if broken.code != 2 || !strings.Contains(broken.stderr, "broken.go:") {
		t.Errorf("broken input: exit %d, want 2 with the error at its line\n%s", broken.code, broken.stderr)
	}
	unchanged("broken input")

	missing := filepath.Join(out, "no", "such", "dir", "r.md")
	r := runIn(t, dir, binary, "code", "--output-json", json, "--output-sarif", sarif, "--output-markdown", missing, "./bad")
	if r.code != 2 || !strings.Contains(r.stderr, filepath.Join(out, "no", "such", "dir")) {
		t.Errorf("a report into a missing directory: exit %d, want 2 naming it\n%s", r.code, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("a report into a missing directory: the text report was printed anyway:\n%s", r.stdout)
	}
	unchanged("a report into a missing directory")
}

// TestSeveralOutputsToOneFileIsAnError refuses two reports to one file,
// and --output-FORMAT to standard output, before any work.
func TestSeveralOutputsToOneFileIsAnError(t *testing.T) {
	dir := e2eDir(t)
	out := filepath.Join(t.TempDir(), "r.json")
	for _, args := range [][]string{
		{"code", "--format", "json", "-o", out, "--output-sarif", out, "./bad"},
		{"code", "--output-sarif", out, "--output-json", filepath.Join(filepath.Dir(out), ".", "r.json"), "./bad"},
	} {
		r := runIn(t, dir, binary, args...)
		if r.code != 2 || !strings.Contains(r.stderr, out) || r.stdout != "" {
			t.Errorf("%q: exit %d, want 2 naming %s and nothing printed\n%s%s", args, r.code, out, r.stdout, r.stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: %s was written", args, out)
		}
	}
	r := runIn(t, dir, binary, "code", "--output-sarif", "-", "./bad")
	if r.code != 2 || !strings.Contains(r.stderr, "--output-sarif: name a file") || r.stdout != "" {
		t.Errorf("--output-sarif -: exit %d, want 2 naming the flag\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestOneRunAnnotatesOnlyTheChangedLines: with --new-from-rev, the github
// report annotates only the new findings on lines the change touched,
// while the other reports of the same run keep every new finding. Here
// the branch changes a constant, which makes a loop's fixed-sleep finding
// new on a line it did not touch.
func TestOneRunAnnotatesOnlyTheChangedLines(t *testing.T) {
	repo, _ := prRepo(t, func(repo string) {
		writeFiles(t, repo, map[string]string{"old.go": strings.Replace(payHeader, "delay = time.Second", "delay = 2 * time.Second", 1) + retryFunc("Old")})
	})
	out := t.TempDir()
	json, github := filepath.Join(out, "r.json"), filepath.Join(out, "r.github")
	r := runCmd(t, repo, "code", "--new-from-rev", "main", "--format", "github", "--output-json", json, "./...")
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "not annotated") {
		t.Errorf("--format github: exit %d, want 1, no annotation and the note\n%s%s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(json); !strings.Contains(string(b), "waits a constant 2s") {
		t.Errorf("--output-json of the same run lost the new finding:\n%s", b)
	}
	r = runCmd(t, repo, "code", "--new-from-rev", "main", "--format", "json", "--output-github", github, "./...")
	if r.code != 1 || !strings.Contains(r.stdout, "waits a constant 2s") || !strings.Contains(r.stderr, "not annotated") {
		t.Errorf("--format json: exit %d, want 1 with the new finding and the note\n%s%s", r.code, r.stdout, r.stderr)
	}
	if b, err := os.ReadFile(github); err != nil || len(b) != 0 {
		t.Errorf("--output-github: %q (%v), want no annotation", b, err)
	}
}
