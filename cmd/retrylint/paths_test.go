package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// paymentGo is a service's retry loop with a fixed sleep: two findings,
// unclassified-retry at the for and fixed-sleep at the sleep.
const paymentGo = `package api

import (
	"errors"
	"time"
)

var errDown = errors.New("down")

func call() error { return errDown }

// Pay tries call five times, a second apart.
func Pay() error {
	for i := 0; i < 5; i++ {
		if err := call(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errDown
}
`

// writeFiles writes files (name → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// service writes a Go module with payment.go and, in deploy/, the
// maxRetries pipeline (a job-max-retries finding at mapping-job.yaml:16)
// into dir.
func service(t *testing.T, dir string) {
	t.Helper()
	writeFiles(t, dir, map[string]string{
		"go.mod":     "module example.com/api\n\ngo 1.22\n",
		"payment.go": paymentGo,
	})
	copyDir(t, filepath.Join(maxRetriesDir(), "head"), filepath.Join(dir, "deploy"))
}

// monorepo is a git repository whose service lives in services/api, as in
// a monorepo; it returns the repository and the service's directory.
func monorepo(t *testing.T) (repo, api string) {
	t.Helper()
	repo, gitIn := newGitRepo(t)
	api = filepath.Join(repo, "services", "api")
	service(t, api)
	gitIn("init", "--quiet", "--initial-branch=main")
	return repo, api
}

// onlyUnder fails unless out names name, and every time it does, as
// under/name: no path is written relative to the working directory.
func onlyUnder(t *testing.T, what, out, under, name string) {
	t.Helper()
	all, full := strings.Count(out, name), strings.Count(out, under+name)
	if full == 0 || all != full {
		t.Errorf("%s: %d of %d mentions of %s are %s%s; want all, and some:\n%s", what, full, all, name, under, name, out)
	}
}

// TestPathsRelativeToRepositoryRoot: run from services/api of a
// repository, as the Action's working-directory does, every format of
// code, topology and report writes services/api/payment.go, never
// payment.go, and the Markdown links point at it in the repository.
func TestPathsRelativeToRepositoryRoot(t *testing.T) {
	_, api := monorepo(t)
	for _, c := range []struct {
		cmd     []string
		formats []string
		name    string // the file every path must hold under services/api/
	}{
		{[]string{"code", "./..."}, []string{"text", "json", "sarif", "markdown", "github", "codeclimate"}, "payment.go"},
		{[]string{"topology", "deploy/retrylint.yaml"}, []string{"text", "json", "sarif", "markdown", "github", "codeclimate"}, "deploy/"},
		{[]string{"report", "--code", "./...", "--topology", "deploy/retrylint.yaml", "--link-base", "https://github.com/acme/pay/blob/abc"},
			[]string{"markdown", "json", "sarif", "github", "codeclimate"}, "payment.go"},
	} {
		for _, format := range c.formats {
			what := strings.Join(c.cmd[:1], " ") + " --format " + format
			r := runCmd(t, api, append(c.cmd, "--format", format)...)
			if r.code != 1 {
				t.Errorf("%s: exit %d, want 1; stderr:\n%s", what, r.code, r.stderr)
				continue
			}
			onlyUnder(t, what, r.stdout, "services/api/", c.name)
			if strings.Contains(r.stdout, "../") {
				t.Errorf("%s: a path climbs out of the working directory:\n%s", what, r.stdout)
			}
		}
	}
	r := runCmd(t, api, "report", "--code", "./...", "--link-base", "https://github.com/acme/pay/blob/abc")
	if want := "(https://github.com/acme/pay/blob/abc/services/api/payment.go#L"; !strings.Contains(r.stdout, want) {
		t.Errorf("the Markdown links do not point into services/api: want %q in\n%s", want, r.stdout)
	}
}

// TestPathsAboveTheWorkingDirectory: a manifest beside the service, named
// as ../infra from services/api, is services/infra/…, not ../infra/….
func TestPathsAboveTheWorkingDirectory(t *testing.T) {
	repo, api := monorepo(t)
	copyDir(t, filepath.Join(maxRetriesDir(), "head"), filepath.Join(repo, "services", "infra"))
	r := runCmd(t, api, "topology", "--format", "github", "../infra/retrylint.yaml")
	if r.code != 1 || !strings.Contains(r.stdout, "file=services/infra/mapping-job.yaml,line=16") || strings.Contains(r.stdout, "../") {
		t.Errorf("exit %d, want 1 and file=services/infra/mapping-job.yaml; stderr %s\n%s", r.code, r.stderr, r.stdout)
	}
}

// TestPathPrefix: --path-prefix P puts P in front of every path relative
// to the working directory, in place of the repository's layout: outside
// any repository (a container without .git), or to override it; an empty
// prefix writes the paths relative to the working directory.
func TestPathPrefix(t *testing.T) {
	alone := t.TempDir()
	service(t, alone)
	r := runCmd(t, alone, "code", "--format", "github", "--path-prefix", "services/api", "./...")
	if r.code != 1 || !strings.Contains(r.stdout, "file=services/api/payment.go,") {
		t.Errorf("outside a repository: exit %d, want 1 and file=services/api/payment.go; stderr %s\n%s", r.code, r.stderr, r.stdout)
	}
	_, api := monorepo(t)
	r = runCmd(t, api, "code", "--format", "sarif", "--path-prefix", "mono/api/", "./...")
	onlyUnder(t, "--path-prefix mono/api/", r.stdout, "mono/api/", "payment.go")
	if strings.Contains(r.stdout, "services/api") {
		t.Errorf("--path-prefix does not replace the repository's layout:\n%s", r.stdout)
	}
	r = runCmd(t, api, "code", "--format", "github", "--path-prefix", "", "./...")
	if !strings.Contains(r.stdout, "file=payment.go,") {
		t.Errorf(`--path-prefix "": want paths relative to the working directory, file=payment.go:%s`, r.stdout)
	}
}

// TestPathOutsideRepository: a manifest outside the repository is written
// as its absolute path, and a warning on standard error names it; no path
// is written as ../….
func TestPathOutsideRepository(t *testing.T) {
	_, api := monorepo(t)
	outside := t.TempDir()
	copyDir(t, filepath.Join(maxRetriesDir(), "head"), outside)
	r := runCmd(t, api, "topology", "--format", "json", filepath.Join(outside, "retrylint.yaml"))
	if r.code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", r.code, r.stderr)
	}
	var res struct {
		Findings []struct{ File string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	job := filepath.ToSlash(filepath.Join(outside, "mapping-job.yaml"))
	found := false
	for _, f := range res.Findings {
		if strings.HasPrefix(f.File, "..") {
			t.Errorf("written as %s", f.File)
		}
		found = found || f.File == job
	}
	if !found {
		t.Errorf("no finding at %s:\n%s", job, r.stdout)
	}
	if !strings.Contains(r.stderr, job) || !strings.Contains(r.stderr, "outside the repository") {
		t.Errorf("stderr does not say %s is outside the repository:\n%s", job, r.stderr)
	}
}

// asProjectRoot copies the fixture tree dir to a temporary directory
// outside any repository and returns the copy: a fixture of this
// repository stands for a project at its own root, whose paths are
// written relative to it, not to this repository's root.
func asProjectRoot(t *testing.T, dir string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(dir))
	if err := os.CopyFS(dst, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestSARIFLineHashFromSubdirectory: the SARIF writer reads each
// finding's line for its primaryLocationLineHash by the path the analysis
// had, not by the repository path it writes: run from services/api,
// every result still carries one, for code and manifests alike.
func TestSARIFLineHashFromSubdirectory(t *testing.T) {
	_, api := monorepo(t)
	for _, args := range [][]string{{"code", "./..."}, {"topology", "deploy/retrylint.yaml"}} {
		r := runCmd(t, api, append(args, "--format", "sarif")...)
		results, hashes := strings.Count(r.stdout, `"uri": "services/api/`), strings.Count(r.stdout, `"primaryLocationLineHash"`)
		if results == 0 || hashes != results {
			t.Errorf("%s: %d of %d results have a line hash:\n%s", args[0], hashes, results, r.stdout)
		}
	}
}
