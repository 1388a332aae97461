package gclplugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCustomGolangciLintMatchesRetrylint runs a golangci-lint built with
// this plugin (scripts/golangci-custom.sh builds one from the module proxy
// and runs this test with it) and retrylint code over the fixture module,
// whose .golangci.yml and .retrylint.yaml hold the same settings, and
// requires the same findings: same file, line, column, rule and message.
func TestCustomGolangciLintMatchesRetrylint(t *testing.T) {
	gcl, rl := os.Getenv("RETRYLINT_CUSTOM_GCL"), os.Getenv("RETRYLINT_BIN")
	if gcl == "" || rl == "" {
		t.Skip("RETRYLINT_CUSTOM_GCL and RETRYLINT_BIN unset: scripts/golangci-custom.sh builds both and runs this test")
	}
	const fixture = "testdata/fixture"

	out := runTool(t, fixture, gcl, "run", "--output.json.path=stdout", "--show-stats=false", "./...")
	var lint struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename     string
				Line, Column int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &lint); err != nil {
		t.Fatalf("golangci-lint's JSON: %v\n%s", err, out)
	}
	var got []string
	for _, is := range lint.Issues {
		if is.FromLinter != Name {
			t.Errorf("an issue of linter %q: %+v", is.FromLinter, is)
		}
		got = append(got, fmt.Sprintf("%s:%d:%d: %s", is.Pos.Filename, is.Pos.Line, is.Pos.Column, is.Text))
	}
	slices.Sort(got)

	// golangci-lint writes paths relative to its configuration's
	// directory, the fixture; retrylint, relative to the repository
	// root unless --path-prefix says otherwise.
	want := strings.Split(strings.TrimSpace(runTool(t, fixture, rl, "code", "--path-prefix=", "./...")), "\n")
	for i, line := range want { // golangci-lint does not say the severity
		want[i] = severityRE.ReplaceAllString(line, "$1")
	}
	slices.Sort(want)
	if len(want) < 5 {
		t.Fatalf("retrylint code found only %d findings on the fixture:\n%s", len(want), strings.Join(want, "\n"))
	}
	// The fixture exercises facts across packages (nested-retry), a
	// classifier only the settings name and a rule the settings turn off.
	all := strings.Join(want, "\n")
	if !strings.Contains(all, "inventory/cache.go:16:2: nested-retry:") || strings.Contains(all, "no-cap:") ||
		strings.Contains(all, "inventory/inventory.go:55:2: unclassified-retry") {
		t.Errorf("retrylint code does not report what the fixture is for:\n%s", all)
	}
	if !slices.Equal(got, want) {
		t.Errorf("golangci-lint with the plugin reports\n%s\n\nretrylint code reports\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	t.Logf("%d findings alike", len(got))
}

// severityRE matches the position and severity that start a finding of
// retrylint's text output.
var severityRE = regexp.MustCompile(`^(\S*?:\d+:\d+: )(?:error|warning|note): `)

// runTool runs name in dir and returns its standard output; exit status 1
// (findings) is expected.
func runTool(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOLANGCI_LINT_CACHE="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && (!errors.As(err, &exit) || exit.ExitCode() != 1) {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}
