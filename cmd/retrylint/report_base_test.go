package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReportBaseRefIsACommitNotAPath: a pull request that adds a directory
// named like the base ref (origin/main/, main/) holding a copy of its own
// files does not replace the ref: --base is resolved as a commit first, so
// the report still shows the change and the gate still fails. The
// directory is taken only when written as a path (./origin/main), and a
// remote's ref that is not there is an error, not that directory.
func TestReportBaseRefIsACommitNotAPath(t *testing.T) {
	repo, gitIn := newGitRepo(t)
	copyDir(t, filepath.Join(maxRetriesDir(), "base"), filepath.Join(repo, "infra"))
	gitIn("init", "--quiet", "--initial-branch=main")
	gitIn("add", ".")
	gitIn("commit", "--quiet", "-m", "base")
	gitIn("remote", "add", "origin", "https://example.com/repo.git")
	gitIn("update-ref", "refs/remotes/origin/main", "HEAD")
	// The pull request: the change, and decoys named like the refs.
	for _, dir := range []string{"infra", "origin/main/infra", "main/infra"} {
		copyDir(t, filepath.Join(maxRetriesDir(), "head"), filepath.Join(repo, dir))
	}
	const change = "**mapping-app: 3 → 12**"

	for _, ref := range []string{"origin/main", "main"} {
		r := runCmd(t, repo, "report", "--topology", "infra/retrylint.yaml", "--base", ref)
		if r.code != 1 || !strings.Contains(r.stdout, change) {
			t.Errorf("--base %s: exit %d, want 1 and %q; stderr %s\n%s", ref, r.code, change, r.stderr, r.stdout)
		}
	}
	// Written as a path, the directory is the base: nothing changed.
	r := runCmd(t, repo, "report", "--topology", "infra/retrylint.yaml", "--base", "./origin/main")
	if r.code != 1 || strings.Contains(r.stdout, change) {
		t.Errorf("--base ./origin/main: exit %d, want 1 and no change; stderr %s\n%s", r.code, r.stderr, r.stdout)
	}
	// The remote's ref not fetched: an error, not the decoy.
	gitIn("update-ref", "-d", "refs/remotes/origin/main")
	r = runCmd(t, repo, "report", "--topology", "infra/retrylint.yaml", "--base", "origin/main")
	if r.code != 2 || !strings.Contains(r.stderr, "--base origin/main") || !strings.Contains(r.stderr, "./origin/main") || r.stdout != "" {
		t.Errorf("--base origin/main, not fetched: exit %d, stderr %q; want 2 and an error naming ./origin/main, no report", r.code, r.stderr)
	}
}
