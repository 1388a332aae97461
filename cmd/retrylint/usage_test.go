package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// TestVersionFlag: retrylint --version prints what retrylint version does.
func TestVersionFlag(t *testing.T) {
	var want bytes.Buffer
	info, _ := debug.ReadBuildInfo()
	if err := writeVersion(&want, info); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--version"}, {"version"}} {
		var out, errOut bytes.Buffer
		code := run(args, &out, &errOut)
		if code != 0 || out.String() != want.String() || errOut.Len() != 0 {
			t.Errorf("retrylint %s: exit %d, stdout %q, stderr %q; want 0 and %q", strings.Join(args, " "), code, out.String(), errOut.String(), want.String())
		}
	}
}

// TestFlagErrorsSayRetrylintOnce: a bad flag is said once, with the
// command it was given to and where its help is.
func TestFlagErrorsSayRetrylintOnce(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--x"}, "retrylint: unknown flag: --x (see \"retrylint --help\")\n"},
		{[]string{"code", "--x"}, "retrylint: code: unknown flag: --x (see \"retrylint code --help\")\n"},
		{[]string{"topology", "--budget", "many", "."}, "retrylint: topology: invalid argument \"many\" for \"--budget\" flag: strconv.ParseInt: parsing \"many\": invalid syntax (see \"retrylint topology --help\")\n"},
	} {
		var out, errOut bytes.Buffer
		code := run(tc.args, &out, &errOut)
		if code != 2 || errOut.String() != tc.want || out.Len() != 0 {
			t.Errorf("retrylint %s: exit %d, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, errOut.String(), tc.want)
		}
	}
}

// TestMissingDirectoryIsSaid: a package directory that does not exist is
// said as such, not blamed on build tags.
func TestMissingDirectoryIsSaid(t *testing.T) {
	for _, pattern := range []string{"./missing", "./missing/...", "../../missing/..."} {
		r := retrylint(t, "code", pattern)
		want := pattern + ": no such directory"
		if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, want) ||
			strings.Contains(r.stderr, "build tags") || strings.Contains(r.stderr, `\n`) {
			t.Errorf("retrylint code %s: exit %d, stdout %q, stderr %q; want 2 and %q, with no word of build tags", pattern, r.code, r.stdout, r.stderr, want)
		}
	}
}

// TestNoGoModIsSaid: outside a Go module the run says so in one line,
// with no raw "\n" and no word of build tags.
func TestNoGoModIsSaid(t *testing.T) {
	dir := t.TempDir()
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "go.mod")); err == nil {
		t.Skip("the temporary directory is inside a module")
	}
	for _, args := range [][]string{{"code"}, {"code", "./..."}} {
		r := runIn(t, dir, binary, args...)
		want := "retrylint: no go.mod in " + dir + " or any directory above it"
		if r.code != 2 || !strings.HasPrefix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 ||
			strings.Contains(r.stderr, `\n`) || strings.Contains(r.stderr, "build tags") {
			t.Errorf("retrylint %s outside a module: exit %d, stderr %q; want 2 and one line starting %q", strings.Join(args, " "), r.code, r.stderr, want)
		}
	}
}

// TestOutputInMissingDirectory: -o into a directory that does not exist
// names the file the user gave, not the temporary file beside it.
func TestOutputInMissingDirectory(t *testing.T) {
	out := filepath.Join(t.TempDir(), "missing", "dir", "report.txt")
	r := retrylint(t, "code", "-o", out, "./clean")
	if r.code != 2 || !strings.Contains(r.stderr, "retrylint: "+out+": ") || strings.Contains(r.stderr, ".retrylint-") {
		t.Errorf("-o %s: exit %d, stderr %q; want 2 naming %s and no temporary file", out, r.code, r.stderr, out)
	}
	if !strings.Contains(r.stderr, "no such directory") {
		t.Errorf("-o %s: stderr %q, want it to say the directory does not exist", out, r.stderr)
	}
}

// TestMisnamedConfigIsWarned: a .retrylint.yml where the configuration is
// looked for is not read; the run says so, naming it.
func TestMisnamedConfigIsWarned(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "infra")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "job.yaml"), []byte("apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata:\n  name: etl\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".retrylint.yml"), []byte("budget: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCmd(t, dir, "topology", ".")
	want := "retrylint: warning: " + filepath.Join(root, ".retrylint.yml") + " is not read: the configuration file is named .retrylint.yaml"
	if r.code == 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("topology beside a .retrylint.yml: exit %d, stderr %q; want a run and %q", r.code, r.stderr, want)
	}
	if err := os.WriteFile(filepath.Join(root, ".retrylint.yaml"), []byte("budget: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runCmd(t, dir, "topology", "."); !strings.Contains(r.stderr, want) {
		t.Errorf("with .retrylint.yaml beside it: stderr %q, want %q still", r.stderr, want)
	}
	if r := runCmd(t, dir, "topology", "--config", filepath.Join(root, ".retrylint.yaml"), "."); strings.Contains(r.stderr, ".retrylint.yml") {
		t.Errorf("with --config: stderr %q, want no word of .retrylint.yml", r.stderr)
	}
}

// TestDiffSaysFormatIsIgnored: --diff prints a unified diff whatever
// --format says, and says so.
func TestDiffSaysFormatIsIgnored(t *testing.T) {
	r := runCmd(t, reportRoot, "code", "--diff", "--format", "json", "./examples/payment")
	want := "retrylint: warning: --format json is ignored: --diff prints the suggested fixes as a unified diff"
	if !strings.Contains(r.stderr, want) || !strings.HasPrefix(r.stdout, "--- a/") {
		t.Errorf("--diff --format json: exit %d, stdout %q, stderr %q; want a diff and %q", r.code, r.stdout, r.stderr, want)
	}
	if r := runCmd(t, reportRoot, "code", "--diff", "./examples/payment"); strings.Contains(r.stderr, "ignored") {
		t.Errorf("--diff alone: stderr %q, want no warning", r.stderr)
	}
}

// textLineRE is the one shape of a finding in text output, both halves.
var textLineRE = regexp.MustCompile(`^[^:\s]+:\d+:\d+: (error|warning|note): [a-z]+(-[a-z]+)*: \S`)

// TestTextShapeIsOneForBothHalves: code and topology write a finding as
// file:line:col: severity: rule: message, so that one problem matcher
// reads both.
func TestTextShapeIsOneForBothHalves(t *testing.T) {
	r := retrylint(t, "code", "./bad")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 1 || len(lines) == 0 {
		t.Fatalf("code ./bad: exit %d, stdout %q", r.code, r.stdout)
	}
	for _, l := range lines {
		if !textLineRE.MatchString(l) {
			t.Errorf("code: line %q is not file:line:col: severity: rule: message", l)
		}
	}
	want := "bad.go:" + strconv.Itoa(sleepLine(t)) + ":3: error: fixed-sleep: "
	if !strings.Contains(r.stdout, want) {
		t.Errorf("code ./bad: stdout %q, want %q", r.stdout, want)
	}
	stdout, _, _ := runCLI(t, filepath.Join(reportRoot, "testdata", "topology", "cases"), "unbounded.yaml")
	first, _, _ := strings.Cut(stdout, "\n")
	if !textLineRE.MatchString(first) {
		t.Errorf("topology: first line %q is not file:line:col: severity: rule: message", first)
	}
}

// asText is a finding as go vet prints it, "file:line:col: rule: ...",
// as retrylint's text output says it: with the severity, error for a
// finding of the code half, after the position.
func asText(vetLine string) string {
	return vetPosRE.ReplaceAllString(vetLine, "${1}error: ")
}

var vetPosRE = regexp.MustCompile(`^(\S*?:\d+:\d+: )`)

// TestRulesJSON: retrylint rules --format json lists the catalogue as
// JSON, for scripts.
func TestRulesJSON(t *testing.T) {
	r := runCmd(t, t.TempDir(), "rules", "--format", "json")
	var got []struct {
		Name, Half, Severity, Summary, URL string
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
		t.Fatalf("rules --format json: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	list := catalogue()
	if len(got) != len(list) {
		t.Fatalf("%d rules, want %d", len(got), len(list))
	}
	for i, r := range list {
		g := got[i]
		if g.Name != r.Name || g.Half != r.Half || g.Severity != string(r.Severity) || g.Summary != r.Summary ||
			g.URL != projectURL+"/blob/main/docs/rules/"+r.Name+".md" {
			t.Errorf("rule %d = %+v, want %+v", i, g, r)
		}
	}
	if r := runCmd(t, t.TempDir(), "rules", "--format", "yaml"); r.code != 2 || !strings.Contains(r.stderr, "--format: want text or json") {
		t.Errorf("rules --format yaml: exit %d, stderr %q; want 2 and the formats", r.code, r.stderr)
	}
}
