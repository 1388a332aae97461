package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// retryFunc is a function of package pay that retries call with a fixed
// sleep of delay: unclassified-retry at its for, fixed-sleep at its sleep.
func retryFunc(name string) string {
	return `
// ` + name + ` tries call five times, delay apart.
func ` + name + `() error {
	for i := 0; i < 5; i++ {
		if err := call(); err == nil {
			return nil
		}
		time.Sleep(delay)
	}
	return errDown
}
`
}

// payHeader is the top of old.go: call, and the delay its loops wait.
const payHeader = `package pay

import (
	"errors"
	"time"
)

var errDown = errors.New("down")

func call() error { return errDown }

const delay = time.Second
`

// newFile is new.go, a second retry loop the pull request adds.
const newFile = `package pay

import "time"
` + "\n// New tries call five times, delay apart.\nfunc New() error {\n\tfor i := 0; i < 5; i++ {\n\t\tif err := call(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(delay)\n\t}\n\treturn errDown\n}\n"

// prRepo is a git repository whose main has old.go (two findings) and
// the pipeline infra/a (a job-max-retries error), checked out on branch
// pr; change, when set, makes the branch's commit.
func prRepo(t *testing.T, change func(repo string)) (repo string, gitIn func(args ...string)) {
	t.Helper()
	repo, gitIn = newGitRepo(t)
	writeFiles(t, repo, map[string]string{
		"go.mod": "module example.com/pay\n\ngo 1.22\n",
		"old.go": payHeader + retryFunc("Old"),
	})
	copyDir(t, filepath.Join(maxRetriesDir(), "head"), filepath.Join(repo, "infra", "a"))
	gitIn("init", "--quiet", "--initial-branch=main")
	gitIn("add", ".")
	gitIn("commit", "--quiet", "-m", "main")
	gitIn("checkout", "--quiet", "-b", "pr")
	if change != nil {
		change(repo)
		gitIn("add", ".")
		gitIn("commit", "--quiet", "-m", "pr")
	}
	return repo, gitIn
}

// addsFindings is the pull request that adds new.go and the pipeline
// infra/b: new findings in both halves.
func addsFindings(t *testing.T) func(string) {
	return func(repo string) {
		writeFiles(t, repo, map[string]string{"new.go": newFile})
		copyDir(t, filepath.Join(maxRetriesDir(), "head"), filepath.Join(repo, "infra", "b"))
	}
}

// addsNone is a pull request that adds no finding.
func addsNone(t *testing.T) func(string) {
	return func(repo string) {
		writeFiles(t, repo, map[string]string{"README.md": "# pay\n"})
	}
}

// jsonFiles are the files of the findings of a JSON report, sorted.
func jsonFiles(t *testing.T, out string) []string {
	t.Helper()
	var res struct{ Findings []struct{ File string } }
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var files []string
	for _, f := range res.Findings {
		files = append(files, f.File)
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// TestNewFromRev: on a branch that adds a finding in each half, code,
// topology and report with --new-from-rev main report only the new ones
// and fail; on a branch that adds none, they pass, though main's
// findings are still there.
func TestNewFromRev(t *testing.T) {
	for _, c := range []struct {
		name          string
		args          []string
		added, before []string // the files of the findings
	}{
		{"code", []string{"code", "./..."}, []string{"new.go"}, []string{"old.go"}},
		{"topology", []string{"topology", "infra"}, []string{"infra/b/mapping-job.yaml", "infra/b/mapping-workflow.yaml", "infra/b/retrylint.yaml"},
			[]string{"infra/a/mapping-job.yaml", "infra/a/mapping-workflow.yaml", "infra/a/retrylint.yaml"}},
		{"report", []string{"report", "--code", "./...", "--topology", "infra"}, []string{"infra/b/mapping-job.yaml", "infra/b/mapping-workflow.yaml", "infra/b/retrylint.yaml", "new.go"},
			[]string{"infra/a/mapping-job.yaml", "infra/a/mapping-workflow.yaml", "infra/a/retrylint.yaml", "old.go"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo, _ := prRepo(t, addsFindings(t))
			r := runCmd(t, repo, append(c.args, "--format", "json", "--new-from-rev", "main")...)
			if got := jsonFiles(t, r.stdout); r.code != 1 || !slices.Equal(got, c.added) {
				t.Errorf("adds findings: exit %d, findings in %v; want 1 and %v; stderr %s", r.code, got, c.added, r.stderr)
			}
			if left := worktrees(t, repo); len(left) != 0 {
				t.Errorf("worktrees left after the run: %v", left)
			}
			repo, _ = prRepo(t, addsNone(t))
			if r := runCmd(t, repo, append(c.args, "--format", "json")...); !slices.Equal(jsonFiles(t, r.stdout), c.before) {
				t.Fatalf("without --new-from-rev: findings in %v, want main's %v", jsonFiles(t, r.stdout), c.before)
			}
			r = runCmd(t, repo, append(c.args, "--format", "json", "--new-from-rev", "main")...)
			if got := jsonFiles(t, r.stdout); r.code != 0 || len(got) != 0 {
				t.Errorf("adds none: exit %d, findings in %v; want 0 and none; stderr %s", r.code, got, r.stderr)
			}
		})
	}
}

// TestNewFromRevText: the text a user reads on the branch: the new loop's
// two findings, nothing of main's.
func TestNewFromRevText(t *testing.T) {
	repo, _ := prRepo(t, addsFindings(t))
	r := runCmd(t, repo, "code", "--new-from-rev", "main", "./...")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 1 || len(lines) != 2 || !strings.HasPrefix(lines[0], "new.go:7:2: ") || !strings.HasPrefix(lines[1], "new.go:11:3: ") {
		t.Errorf("exit %d, want 1 and new.go's two findings:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestNewFromPatch: --new-from-patch keeps the findings on the lines the
// diff adds, for code and topology; an empty diff keeps none.
func TestNewFromPatch(t *testing.T) {
	repo, _ := prRepo(t, addsFindings(t))
	diff, err := exec.Command("git", "-C", repo, "diff", "main").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	patch, empty := filepath.Join(dir, "change.patch"), filepath.Join(dir, "empty.patch")
	writeFiles(t, dir, map[string]string{"change.patch": string(diff), "empty.patch": ""})
	for _, c := range []struct {
		args  []string
		added []string
	}{
		{[]string{"code", "./..."}, []string{"new.go"}},
		{[]string{"topology", "infra"}, []string{"infra/b/mapping-job.yaml", "infra/b/mapping-workflow.yaml", "infra/b/retrylint.yaml"}},
	} {
		r := runCmd(t, repo, append(c.args, "--format", "json", "--new-from-patch", patch)...)
		if got := jsonFiles(t, r.stdout); r.code != 1 || !slices.Equal(got, c.added) {
			t.Errorf("%s: exit %d, findings in %v; want 1 and %v; stderr %s", c.args[0], r.code, got, c.added, r.stderr)
		}
		r = runCmd(t, repo, append(c.args, "--format", "json", "--new-from-patch", empty)...)
		if got := jsonFiles(t, r.stdout); r.code != 0 || len(got) != 0 {
			t.Errorf("%s, empty patch: exit %d, findings in %v; want 0 and none; stderr %s", c.args[0], r.code, got, r.stderr)
		}
	}
}

// TestNewFromRevAnnotatesChangedLines: a change of the delay makes the
// loop's fixed-sleep finding new (it now says 2s), on a line the change
// did not touch. It is reported and fails the gate, but as a GitHub
// annotation it would land outside the diff: it is said on standard
// error instead.
func TestNewFromRevAnnotatesChangedLines(t *testing.T) {
	repo, _ := prRepo(t, func(repo string) {
		writeFiles(t, repo, map[string]string{"old.go": strings.Replace(payHeader, "delay = time.Second", "delay = 2 * time.Second", 1) + retryFunc("Old")})
	})
	r := runCmd(t, repo, "code", "--new-from-rev", "main", "./...")
	text := regexp.MustCompile(`^old\.go:20:3: (error: )?fixed-sleep: retry loop waits a constant 2s .*\n$`)
	if r.code != 1 || !text.MatchString(r.stdout) {
		t.Errorf("text: exit %d, want 1 and the fixed-sleep finding alone:\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCmd(t, repo, "code", "--format", "github", "--new-from-rev", "main", "./...")
	if r.code != 1 || r.stdout != "" {
		t.Errorf("github: exit %d, want 1 and no annotation:\n%s", r.code, r.stdout)
	}
	if !strings.Contains(r.stderr, "old.go:20:3: error: fixed-sleep: retry loop waits a constant 2s") || !strings.Contains(r.stderr, "not annotated") {
		t.Errorf("github: stderr does not name the finding left unannotated:\n%s", r.stderr)
	}
}

// TestNewFromRevCopiedLoop: the branch copies a retry loop above the one
// main has, in the same file. Both have the same rule and message; the
// new one is the copy, on the lines the change added, not main's loop
// further down.
func TestNewFromRevCopiedLoop(t *testing.T) {
	repo, _ := prRepo(t, func(repo string) {
		writeFiles(t, repo, map[string]string{"old.go": payHeader + retryFunc("Again") + retryFunc("Old")})
	})
	r := runCmd(t, repo, "code", "--new-from-rev", "main", "./...")
	again := regexp.MustCompile(`(?m)^old\.go:(\d+):`)
	m := again.FindAllStringSubmatch(r.stdout, -1)
	if r.code != 1 || len(m) != 2 {
		t.Fatalf("exit %d, want 1 and two findings:\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, l := range m {
		if n, _ := strconv.Atoi(l[1]); n < 14 || n > 23 {
			t.Errorf("a finding at line %d, outside the copy Again (lines 14-23):\n%s", n, r.stdout)
		}
	}
}

// TestNewFromErrors: a revision that is no commit, a directory outside any
// repository, a patch that cannot be read or is no unified diff, and both
// flags at once are exit status 2 with a message that says which, and no
// report.
func TestNewFromErrors(t *testing.T) {
	repo, _ := prRepo(t, addsFindings(t))
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"cut.patch":    "--- a/new.go\n+++ b/new.go\n@@ -1,2 +1,3 @@\n+a\n",
		"header.patch": "--- a/new.go\n+++ b/new.go\n@@ -1,2 +one @@\n+a\n",
		"go.patch":     newFile,
	})
	alone := t.TempDir()
	service(t, alone)
	for _, c := range []struct {
		dir  string
		args []string
		want string
	}{
		{repo, []string{"code", "--new-from-rev", "nosuch", "./..."}, "--new-from-rev nosuch: not a commit of " + repo},
		{repo, []string{"topology", "--new-from-rev", "--help", "infra"}, "--new-from-rev --help: not a commit"},
		{alone, []string{"code", "--new-from-rev", "main", "./..."}, "--new-from-rev main: " + alone + " is not in a git repository"},
		{repo, []string{"code", "--new-from-patch", filepath.Join(dir, "missing.patch"), "./..."}, "--new-from-patch " + filepath.Join(dir, "missing.patch") + ": cannot read"},
		{repo, []string{"code", "--new-from-patch", filepath.Join(dir, "cut.patch"), "./..."}, filepath.Join(dir, "cut.patch") + ":5:1: malformed patch: the hunk at line 3 ends after 1 of its 3 new lines"},
		{repo, []string{"report", "--code", "./...", "--new-from-patch", filepath.Join(dir, "header.patch")}, filepath.Join(dir, "header.patch") + `:3:1: malformed patch: bad hunk header "@@ -1,2 +one @@"`},
		{repo, []string{"code", "--new-from-patch", filepath.Join(dir, "go.patch"), "./..."}, filepath.Join(dir, "go.patch") + ":1:1: not a unified diff"},
		{repo, []string{"code", "--new-from-rev", "main", "--new-from-patch", filepath.Join(dir, "cut.patch"), "./..."}, "--new-from-rev and --new-from-patch: give one"},
		{repo, []string{"code", "--fix", "--new-from-rev", "main", "./..."}, "--new-from-rev: not with --fix or --diff"},
	} {
		r := runCmd(t, c.dir, c.args...)
		if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2, no report and %q", strings.Join(c.args, " "), r.code, r.stdout, r.stderr, c.want)
		}
	}
	if left := worktrees(t, repo); len(left) != 0 {
		t.Errorf("worktrees left after the runs: %v", left)
	}
}

// TestParsePatchReadsUnifiedDiff: the lines the parser takes as added are
// those the diff writer (unidiff.go, as --diff writes it) adds, for edits
// at the start, the middle and the end, with and without a final newline.
func TestParsePatchReadsUnifiedDiff(t *testing.T) {
	old := []byte("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn")
	for _, c := range []struct {
		edits []edit
		want  []int // the new file's added lines
	}{
		{[]edit{{start: 0, end: 0, text: "new\n"}}, []int{1, 2}}, // the writer replaces the whole line it touches
		{[]edit{{start: 4, end: 6, text: "C\nC2\n"}}, []int{3, 4}},
		{[]edit{{start: 2, end: 4}, {start: 24, end: 26, text: "M\n"}}, []int{12}},
		{[]edit{{start: 26, end: 27, text: "N\nO"}}, []int{14, 15}},
	} {
		diff := unifiedDiff("dir/f.txt", old, c.edits)
		changed, err := parsePatch("p", []byte(diff))
		if err != nil {
			t.Fatalf("%v\n%s", err, diff)
		}
		var got []int
		for l := range changed["dir/f.txt"].lines {
			got = append(got, l)
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) || len(changed) != 1 {
			t.Errorf("added lines %v of %v, want %v of dir/f.txt:\n%s", got, keys(changed), c.want, diff)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestParsePatchGitForms: what git diff writes besides hunks — renames,
// modes, binary files, deleted files, quoted names, -U0 hunks — is read
// or skipped without error.
func TestParsePatchGitForms(t *testing.T) {
	patch := `diff --git a/old name.go b/new name.go
similarity index 90%
rename from old name.go
rename to new name.go
--- a/old name.go
+++ b/new name.go
@@ -3,0 +4,2 @@ func f() {
+	x()
+	y()
diff --git a/gone.go b/gone.go
deleted file mode 100644
--- a/gone.go
+++ /dev/null
@@ -1 +0,0 @@
-package gone
diff --git a/img.png b/img.png
Binary files a/img.png and b/img.png differ
diff --git "a/caf\303\251.go" "b/caf\303\251.go"
--- "a/caf\303\251.go"
+++ "b/caf\303\251.go"
@@ -1,3 +1,3 @@
 package x
--- removed line that looks like a header
+++ added line that looks like a header
 // end
`
	changed, err := parsePatch("p", []byte(patch))
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(keys(changed), changed["new name.go"].lines, changed["café.go"].lines)
	if want := "[café.go new name.go] map[4:true 5:true] map[2:true]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// FuzzParsePatch: no input makes the patch reader panic, and what it
// reads is lines of the new files, from 1.
func FuzzParsePatch(f *testing.F) {
	for _, seed := range []string{
		"",
		"--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,3 @@\n a\n+b\n c\n",
		"--- a/x.go\n+++ b/x.go\n@@ -0,0 +1 @@\n+only\n\\ No newline at end of file\n",
		"--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,3 @@\n+a\n",
		"@@ -1 +1 @@\n+a\n",
		"--- a/x\n+++ \"b/\\303\\251\"\n@@ -1 +1,2 @@\n-a\n+b\n+c\n",
		"--- a/x\n+++ b/x\t2024-01-01 00:00:00\n@@ -1 +99999999999999999999 @@\n+a\n",
		newFile,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		changed, err := parsePatch("p", data)
		if err != nil {
			return
		}
		for name, c := range changed {
			for l := range c.lines {
				if l < 1 {
					t.Errorf("%s: line %d", name, l)
				}
			}
		}
	})
}

// TestReportBaseAndNewFromRev: report --base main --new-from-rev main
// says what changed and gates on the new findings alone, from one
// analysis of main.
func TestReportBaseAndNewFromRev(t *testing.T) {
	repo, _ := prRepo(t, addsFindings(t))
	r := runCmd(t, repo, "report", "--code", "./...", "--topology", "infra", "--base", "main", "--new-from-rev", "main", "--format", "json")
	var res struct {
		Findings []struct{ File string }
		Changes  struct{ New []struct{ File string } }
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v; stderr %s", err, r.stderr)
	}
	if r.code != 1 || len(res.Findings) != 5 || len(res.Changes.New) != 5 {
		t.Errorf("exit %d, %d findings, %d new; want 1, and new.go's 2 and infra/b's 3 in both:\n%s", r.code, len(res.Findings), len(res.Changes.New), r.stdout)
	}
	for _, f := range res.Findings {
		if f.File == "old.go" || strings.HasPrefix(f.File, "infra/a/") {
			t.Errorf("main's finding in %s reported", f.File)
		}
	}
}
