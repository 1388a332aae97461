package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// suppressSrc is a package whose retry loops carry suppression directives:
// one bad directive of each kind, and a valid one.
const suppressSrc = `package p

import (
	"errors"
	"time"
)

var errBusy = errors.New("busy")

func call() error { return errBusy }

func retry(op func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(time.Second) //retrylint:ignore no-jiter
	}
	return err
}

func typo() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		//retrylint:ignore fixed-slep the broker wants exactly one second
		time.Sleep(time.Second)
	}
	return err
}

func valid() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		//retrylint:ignore fixed-sleep the broker wants exactly one second
		time.Sleep(time.Second)
	}
	return err
}
`

// TestCodeReportsBadSuppressions: a bad //retrylint:ignore is reported as
// invalid-suppression at the directive, with the rule it probably meant,
// whatever it names; the finding it meant to hide is still reported; a
// valid directive still suppresses.
func TestCodeReportsBadSuppressions(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"go.mod": "module example.com/p\n\ngo 1.22\n", "p.go": suppressSrc} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	r := runIn(t, dir, binary, "code", "--format", "json", "./...")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (the unsuppressed fixed-sleep findings); stderr %q", r.code, r.stderr)
	}
	findings := decodeReport(t, r.stdout)
	src := filepath.Join(dir, "p.go")
	trailing := lineOf(t, src, "//retrylint:ignore no-jiter")
	above := lineOf(t, src, "//retrylint:ignore fixed-slep")
	want := map[float64][]string{
		float64(trailing): {`"no-jiter" is no rule (did you mean no-jitter?)`, "no reason", "//retrylint:ignore no-jitter"},
		float64(above):    {`"fixed-slep" is no rule (did you mean fixed-sleep?)`},
	}
	bad := findingsOf(findings, "invalid-suppression", "p.go")
	if len(bad) != len(want) {
		t.Fatalf("%d invalid-suppression findings, want %d; all: %v", len(bad), len(want), findings)
	}
	for _, f := range bad {
		msg, _ := f["message"].(string)
		for _, part := range want[f["line"].(float64)] {
			if !strings.Contains(msg, part) {
				t.Errorf("line %v: message %q, want it to say %q", f["line"], msg, part)
			}
		}
		if f["severity"] != "warning" {
			t.Errorf("line %v: severity %v, want warning", f["line"], f["severity"])
		}
	}
	for _, f := range findingsOf(findings, "fixed-sleep", "p.go") {
		if line := f["line"].(float64); line > float64(lineOf(t, src, "func valid")) {
			t.Errorf("fixed-sleep at line %v, which a valid directive suppresses", line)
		}
	}
	if n := len(findingsOf(findings, "fixed-sleep", "p.go")); n != 2 {
		t.Errorf("%d fixed-sleep findings, want 2 (a bad directive suppresses nothing); all: %v", n, findings)
	}
}
