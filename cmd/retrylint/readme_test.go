package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/analyzer/all"
	"github.com/retrylint/retrylint/report"
)

// TestReadmeQuickStart runs the README's quick-start command and compares
// its output with the output the README shows: findings on the payment
// client as it was, none on the fixed one.
func TestReadmeQuickStart(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const command = "go run ./cmd/retrylint code ./examples/..."
	_, after, ok := strings.Cut(string(readme), command)
	if !ok {
		t.Fatalf("README.md does not show %q", command)
	}
	_, block, ok := strings.Cut(after, "```text\n")
	if !ok {
		t.Fatal("README.md: no ```text block after the quick-start command")
	}
	want, _, _ := strings.Cut(block, "```")

	res, err := checkCode(codeConfig{Dir: root, Patterns: []string{"./examples/..."}}, all.Rules())
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := report.WriteText(&got, res); err != nil {
		t.Fatal(err)
	}
	if got.String() != want {
		t.Errorf("README quick start shows\n%s\nbut the command prints\n%s", want, got.String())
	}
	for _, f := range res.Findings {
		if strings.HasPrefix(f.File, "examples/payment/fixed/") {
			t.Errorf("finding on the fixed payment client: %+v", f)
		}
	}
}
