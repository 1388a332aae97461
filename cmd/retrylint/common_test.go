package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestUseColor(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	var pipe bytes.Buffer
	for _, tc := range []struct {
		color, output string
		want          bool
	}{
		{"always", "", true},
		{"always", "report.txt", true},
		{"never", "", false},
		{"auto", "", false}, // not a terminal
		{"auto", "report.txt", false},
	} {
		o := outputFlags{color: tc.color, output: tc.output}
		if got := o.useColor(&pipe); got != tc.want {
			t.Errorf("--color %s --output %q to a buffer: colour %v, want %v", tc.color, tc.output, got, tc.want)
		}
	}
}

func TestWriteResultOutputFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report.txt")
	res := newResult()
	if err := writeResult(res, "yaml", out, os.Stdout); err == nil {
		t.Error("writeResult with format yaml: no error")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed render left %s behind (stat: %v)", out, err)
	}
	if err := writeResult(res, "json", out, os.Stdout); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(data, []byte(`"findings": []`)) {
		t.Errorf("report file = %q (%v), want an empty JSON report", data, err)
	}
}
