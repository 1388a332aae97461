package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readmeText is the README.
func readmeText(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// blockAfter returns the first fenced block of the given language after
// marker in the README.
func blockAfter(t *testing.T, readme, marker, lang string) string {
	t.Helper()
	_, after, ok := strings.Cut(readme, marker)
	if !ok {
		t.Fatalf("README.md no longer holds %q", marker)
	}
	_, block, ok := strings.Cut(after, "```"+lang+"\n")
	if !ok {
		t.Fatalf("README.md: no ```%s block after %q", lang, marker)
	}
	block, _, _ = strings.Cut(block, "```")
	return block
}

// matchExcerpt checks that every line of excerpt is a line of got, in
// order; a line ending in "…" stands for any line with that start, and a
// line of "…" alone for lines left out.
func matchExcerpt(t *testing.T, what, excerpt, got string) {
	t.Helper()
	lines := strings.Split(got, "\n")
	at := 0
	for _, want := range strings.Split(strings.TrimSuffix(excerpt, "\n"), "\n") {
		if strings.TrimSpace(want) == "…" {
			continue
		}
		prefix, cut := strings.CutSuffix(want, "…")
		found := false
		for ; at < len(lines); at++ {
			if lines[at] == want || cut && strings.HasPrefix(lines[at], prefix) {
				found = true
				at++
				break
			}
		}
		if !found {
			t.Errorf("README shows for %s %q, which the command does not print (in that order):\n%s", what, want, got)
			return
		}
	}
}

// The README's "# exit N" after each bundled incident command is what the
// command exits with.
func TestReadmeIncidentExitCodes(t *testing.T) {
	root := repoRoot(t)
	re := regexp.MustCompile(`(?m)^go run \./cmd/retrylint topology (\S+)\s+# exit (\d)$`)
	matches := re.FindAllStringSubmatch(readmeText(t), -1)
	if len(matches) < 4 {
		t.Fatalf("README.md shows %d incident commands with their exit status, want the four incidents", len(matches))
	}
	for _, m := range matches {
		want, _ := strconv.Atoi(m[2])
		if _, stderr, code := runCLI(t, root, m[1]); code != want {
			t.Errorf("retrylint topology %s exits %d, README says %d; stderr %s", m[1], code, want, stderr)
		}
	}
}

// The `--base` example's Markdown excerpt is what `retrylint report` prints
// for testdata/report/maxretries, and it exits 1 as the README says.
func TestReadmeBaseExcerpt(t *testing.T) {
	readme := readmeText(t)
	const command = "retrylint report --topology retrylint.yaml --base ../base"
	if !strings.Contains(readme, "cd testdata/report/maxretries/head\n"+command+"\n") {
		t.Fatalf("README.md no longer shows %q run in testdata/report/maxretries/head", command)
	}
	excerpt := blockAfter(t, readme, command, "markdown")
	got := runCmd(t, filepath.Join(repoRoot(t), "testdata", "report", "maxretries", "head"), strings.Fields(command)[1:]...)
	if got.code != 1 {
		t.Errorf("exit %d, want 1 as the README says; stderr %s", got.code, got.stderr)
	}
	matchExcerpt(t, "report --base", excerpt, got.stdout)
}

// The JSON report the README shows has the shape `retrylint code --format
// json` writes, and its finding is one the quick-start example reports.
func TestReadmeJSONExample(t *testing.T) {
	block := blockAfter(t, readmeText(t), "The JSON report:", "json")
	var shown struct {
		Version  int
		Tool     struct{ Name, Version string }
		Findings []map[string]any
		Chains   []any
	}
	dec := json.NewDecoder(strings.NewReader(block))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&shown); err != nil {
		t.Fatalf("the README's JSON report does not parse as a report: %v", err)
	}
	got := runCmd(t, repoRoot(t), "code", "--format", "json", "./examples/payment")
	if got.code != 1 {
		t.Fatalf("exit %d; stderr %s", got.code, got.stderr)
	}
	var real struct {
		Version  int
		Findings []map[string]any
	}
	if err := json.Unmarshal([]byte(got.stdout), &real); err != nil {
		t.Fatal(err)
	}
	if shown.Version != real.Version || shown.Tool.Name != "retrylint" || len(shown.Findings) != 1 {
		t.Fatalf("README JSON: version %d, tool %q, %d findings; want version %d, retrylint, one finding", shown.Version, shown.Tool.Name, len(shown.Findings), real.Version)
	}
	want := shown.Findings[0]
	msg, _ := want["message"].(string)
	for _, f := range real.Findings {
		same := true
		for k, v := range want {
			if k == "message" {
				if prefix, _ := strings.CutSuffix(msg, "…"); !strings.HasPrefix(f[k].(string), prefix) {
					same = false
				}
				continue
			}
			if f[k] != v {
				same = false
			}
		}
		if same {
			for k := range f {
				if _, ok := want[k]; !ok && k != "fix" {
					t.Errorf("the README's finding leaves out %q", k)
				}
			}
			return
		}
	}
	t.Errorf("the README's finding %v is not one retrylint code reports on examples/payment:\n%s", want, got.stdout)
}
