package report

import (
	"bytes"
	"testing"

	"github.com/retrylint/retrylint/model"
)

var sample = &model.Result{Findings: []model.Finding{
	{Rule: "fixed-sleep", Severity: model.Error, Message: "waits 1s", File: "a/b.go", Line: 12, Column: 3},
	{Rule: "amplification", Severity: model.Warning, Message: "12 runs", File: "infra/job.yaml", Line: 4, Column: 1},
}}

func TestWriteText(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteText(&buf, sample); err != nil {
		t.Fatal(err)
	}
	want := "a/b.go:12:3: error: fixed-sleep: waits 1s\ninfra/job.yaml:4:1: warning: amplification: 12 runs\n"
	if buf.String() != want {
		t.Errorf("WriteText:\n got %q\nwant %q", buf.String(), want)
	}
}

func TestWriteTextColor(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTextOptions(&buf, sample, TextOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	want := "\x1b[1ma/b.go:12:3:\x1b[0m \x1b[31merror: fixed-sleep:\x1b[0m waits 1s\n" +
		"\x1b[1minfra/job.yaml:4:1:\x1b[0m \x1b[33mwarning: amplification:\x1b[0m 12 runs\n"
	if buf.String() != want {
		t.Errorf("WriteTextOptions with colour:\n got %q\nwant %q", buf.String(), want)
	}
}
