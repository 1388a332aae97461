package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestProgressOnlyWhenAsked: standard error that is no terminal (a CI
// log, a pipe, these tests) gets no progress line unless --progress asks
// for one; then it says what was loaded and analysed, or read.
func TestProgressOnlyWhenAsked(t *testing.T) {
	e2e := e2eDir(t)
	if r := runCmd(t, e2e, "code", "./bad"); strings.Contains(r.stderr, "packages") {
		t.Errorf("progress without a terminal: stderr %q", r.stderr)
	}
	r := runCmd(t, e2e, "code", "--progress", "./bad")
	for _, want := range []string{"retrylint: loading packages\n", "retrylint: loaded 1 package\n", "retrylint: analysed 1/1 packages\n"} {
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("--progress: exit %d, stderr %q; want %q", r.code, r.stderr, want)
		}
	}
	if strings.Contains(r.stderr, "\r") || strings.Contains(r.stderr, "\x1b") {
		t.Errorf("--progress into a file rewrites a line: %q", r.stderr)
	}
	r = runCmd(t, filepath.Join(reportRoot, "testdata", "topology", "cases"), "topology", "--progress", ".")
	if !strings.Contains(r.stderr, "retrylint: read 2 manifests\n") {
		t.Errorf("topology --progress: stderr %q, want the manifests read", r.stderr)
	}
	if r := runCmd(t, e2e, "code", "--progress=false", "./bad"); strings.Contains(r.stderr, "packages") {
		t.Errorf("--progress=false: stderr %q", r.stderr)
	}
}

// TestProgressOnATerminal: on a terminal the line is rewritten in place
// and erased at the end; with CI set, not shown.
func TestProgressOnATerminal(t *testing.T) {
	var buf bytes.Buffer
	cmd := &cobra.Command{}
	cmd.Flags().Bool("progress", false, "")
	cmd.SetContext(context.WithValue(context.Background(), terminalKey{}, true))
	t.Setenv("CI", "")
	w := (&runFlags{}).newWatch(cmd, &buf)
	if w.progress == nil || !w.progress.inPlace {
		t.Fatal("no progress line on a terminal")
	}
	w.say("loaded 2 packages", true)
	w.say("analysed 2/2 packages", true)
	w.finish()
	want := "retrylint: loaded 2 packages\x1b[K\rretrylint: analysed 2/2 packages\x1b[K\r\x1b[K"
	if buf.String() != want {
		t.Errorf("terminal got %q, want %q", buf.String(), want)
	}
	t.Setenv("CI", "true")
	if w := (&runFlags{}).newWatch(cmd, &buf); w.progress != nil {
		t.Error("a progress line with CI set")
	}
}

// TestVerboseSaysPhases: -v says how long each phase took.
func TestVerboseSaysPhases(t *testing.T) {
	phase := func(name string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^retrylint: time: ` + name + ` +[0-9.]+(ns|µs|ms|s)$`)
	}
	e2e := e2eDir(t)
	r := runCmd(t, e2e, "code", "-v", "./bad")
	for _, p := range []string{"load", "analyse", "write", "total"} {
		if !phase(p).MatchString(r.stderr) {
			t.Errorf("code -v: stderr %q, want the time of %s", r.stderr, p)
		}
	}
	r = runCmd(t, reportRoot, "report", "-v", "--format", "json", "--code", "./examples/payment", "--topology", "examples/topology/incident2/retrylint.yaml")
	for _, p := range []string{"load", "analyse", "topology", "write", "total"} {
		if !phase(p).MatchString(r.stderr) {
			t.Errorf("report -v: stderr %q, want the time of %s", r.stderr, p)
		}
	}
	if r := runCmd(t, e2e, "code", "./bad"); strings.Contains(r.stderr, "time:") {
		t.Errorf("without -v: stderr %q", r.stderr)
	}
}

// TestTimeout: a run longer than --timeout ends with exit status 2 and
// says so, and writes no report.
func TestTimeout(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report.json")
	r := retrylint(t, "code", "--timeout", "1ns", "--format", "json", "-o", out, "./bad")
	want := "retrylint: timed out after 1ns (--timeout); the run was stopped, nothing written\n"
	if r.code != 2 || r.stderr != want || r.stdout != "" {
		t.Errorf("--timeout 1ns: exit %d, stdout %q, stderr %q; want 2 and %q", r.code, r.stdout, r.stderr, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("-o %s written after the timeout: %v", out, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	if r := retrylint(t, "code", "--timeout", "10m", "./bad"); r.code != 1 {
		t.Errorf("--timeout 10m: exit %d, stderr %q; want the findings, 1", r.code, r.stderr)
	}
	if r := retrylint(t, "code", "--timeout", "-1s", "./bad"); r.code != 2 || !strings.Contains(r.stderr, "--timeout: want a duration of 0 or more") {
		t.Errorf("--timeout -1s: exit %d, stderr %q", r.code, r.stderr)
	}
}
