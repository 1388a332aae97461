package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// retryGo is a module's retry loop; its delay and attempts are filled in.
const retryGo = `package m

import "time"

func call() error { return nil }

// Fetch retries a fixed delay apart.
func Fetch() error {
	var err error
	for i := 0; i < %ATTEMPTS%; i++ {
		if err = call(); err == nil {
			return nil
		}
		time.Sleep(%DELAY%)
	}
	return err
}
`

// writeRetryModule writes the module of TestBaselineSurvivesChangesAndSaysStale.
func writeRetryModule(t *testing.T, dir, top, attempts, delay string) {
	t.Helper()
	src := strings.NewReplacer("%ATTEMPTS%", attempts, "%DELAY%", delay).Replace(retryGo)
	writeFile(t, filepath.Join(dir, "retry.go"), top+src)
}

// TestBaselineSurvivesChangesAndSaysStale: a recorded finding stays
// accepted when its loop's delay and attempts change and lines move (the
// message changes with the delay); once the loop is gone its entry is
// said to be stale, and the run still passes. An entry of a file the run
// does not read (the other half's) is not stale.
func TestBaselineSurvivesChangesAndSaysStale(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	writeFile(t, filepath.Join(dir, "infra", "job.yaml"), "apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata:\n  name: etl\n")
	writeRetryModule(t, dir, "", "5", "1 * time.Second")
	before := runCmd(t, dir, "code", ".")
	if before.code != 1 || !strings.Contains(before.stdout, "constant 1s") {
		t.Fatalf("code: exit %d, stdout %q; want the fixed sleep", before.code, before.stdout)
	}
	if w := runCmd(t, dir, "code", "--baseline", "b.json", "--write-baseline", "."); w.code != 0 {
		t.Fatalf("--write-baseline: exit %d, stderr %q", w.code, w.stderr)
	}
	// The other half's entry, as report writes one.
	data, err := os.ReadFile(filepath.Join(dir, "b.json"))
	if err != nil {
		t.Fatal(err)
	}
	other := `"findings": [
    {"rule": "job-max-retries", "file": "infra/job.yaml", "component": "etl", "message": "m"},`
	writeFile(t, filepath.Join(dir, "b.json"), strings.Replace(string(data), `"findings": [`, other, 1))

	writeRetryModule(t, dir, "// Package m moved down two lines.\n\n", "7", "2 * time.Second")
	if r := runCmd(t, dir, "code", "."); !strings.Contains(r.stdout, "constant 2s") {
		t.Fatalf("the message does not change with the delay: %q", r.stdout)
	}
	r := runCmd(t, dir, "code", "--baseline", "b.json", ".")
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Errorf("after the delay, the attempts and the lines changed: exit %d, stdout %q, stderr %q; want 0 and nothing", r.code, r.stdout, r.stderr)
	}

	writeFile(t, filepath.Join(dir, "retry.go"), "package m\n\nfunc call() error { return nil }\n\n// Fetch tries once.\nfunc Fetch() error { return call() }\n")
	r = runCmd(t, dir, "code", "--baseline", "b.json", ".")
	for _, want := range []string{
		"retrylint: warning: b.json: 2 entries match no finding (fixed or removed); --write-baseline drops them:\n",
		"  fixed-sleep in retry.go, Fetch\n",
		"  unclassified-retry in retry.go, Fetch\n",
	} {
		if r.code != 0 || !strings.Contains(r.stderr, want) {
			t.Errorf("the loop removed: exit %d, stderr %q; want 0 and %q", r.code, r.stderr, want)
		}
	}
	if strings.Contains(r.stderr, "job-max-retries") {
		t.Errorf("the other half's entry is said stale: %q", r.stderr)
	}
}
