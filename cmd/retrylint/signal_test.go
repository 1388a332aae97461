//go:build unix

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startHelper starts the helper doing job and waits until it is ready; it
// returns the process and the rest of its ready line.
func startHelper(t *testing.T, job string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+job)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		ready <- line
	}()
	select {
	case line := <-ready:
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "ready")
		if !ok {
			t.Fatalf("helper said %q", line)
		}
		return cmd, strings.TrimSpace(rest)
	case <-time.After(60 * time.Second):
		t.Fatal("the helper never got ready")
	}
	return nil, ""
}

// signalAndWait sends sig and returns the exit status.
func signalAndWait(t *testing.T, cmd *exec.Cmd, sig syscall.Signal) int {
	t.Helper()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("still running after %v", sig)
	}
	return cmd.ProcessState.ExitCode()
}

func TestSignalRemovesTheTemporaryReport(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {syscall.SIGQUIT, 131}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "report.md")
			if err := os.WriteFile(out, []byte("previous"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd, _ := startHelper(t, "write:"+out)
			if m, _ := filepath.Glob(filepath.Join(dir, ".retrylint-*")); len(m) != 1 {
				t.Fatalf("while writing: temporary files %v, want one", m)
			}
			if code := signalAndWait(t, cmd, tc.sig); code != tc.code {
				t.Errorf("exit status %d after %v, want %d", code, tc.sig, tc.code)
			}
			noTempLeft(t, dir)
			if b, _ := os.ReadFile(out); string(b) != "previous" {
				t.Errorf("report = %q, want the previous one untouched", b)
			}
		})
	}
}

// TestSignalDuringFixLeavesTheSources: a signal while --fix writes its
// files leaves every source as it was and no temporary file.
func TestSignalDuringFixLeavesTheSources(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a.go"), filepath.Join(dir, "b.go")
			for _, p := range []string{a, b} {
				if err := os.WriteFile(p, []byte("package x\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd, _ := startHelper(t, "fixes:"+a+","+b)
			if m, _ := filepath.Glob(filepath.Join(dir, ".retrylint-*")); len(m) != 2 {
				t.Fatalf("while writing: temporary files %v, want two", m)
			}
			if code := signalAndWait(t, cmd, sig); code != 128+int(sig) {
				t.Errorf("exit status %d after %v, want %d", code, sig, 128+int(sig))
			}
			noTempLeft(t, dir)
			for _, p := range []string{a, b} {
				if got := readFile(t, p); got != "package x\n" {
					t.Errorf("%s = %q after %v, want it untouched", filepath.Base(p), got, sig)
				}
			}
		})
	}
}

// gitRepo makes a repository of two commits in a temporary directory.
func gitRepo(t *testing.T) string {
	t.Helper()
	repo, gitIn := newGitRepo(t)
	gitIn("init", "-q")
	for _, msg := range []string{"first", "second"} {
		if err := os.WriteFile(filepath.Join(repo, "f.txt"), []byte(msg), 0o644); err != nil {
			t.Fatal(err)
		}
		gitIn("add", "f.txt")
		gitIn("commit", "-q", "-m", msg)
	}
	return repo
}

// worktrees lists the repository's worktrees other than the main one.
func worktrees(t *testing.T, repo string) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "worktree", "list", "--porcelain").Output()
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	for line := range strings.Lines(string(out)) {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), "worktree "); ok {
			list = append(list, p)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(repo, ".git", "worktrees"))
	for _, e := range entries {
		list = append(list, ".git/worktrees/"+e.Name())
	}
	return list[1:]
}

func TestSignalRemovesTheBaseWorktree(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {syscall.SIGQUIT, 131}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			repo := gitRepo(t)
			cmd, root := startHelper(t, "base:"+repo)
			if len(worktrees(t, repo)) == 0 {
				t.Fatal("no base worktree while the analysis runs")
			}
			if code := signalAndWait(t, cmd, tc.sig); code != tc.code {
				t.Errorf("exit status %d after %v, want %d", code, tc.sig, tc.code)
			}
			if w := worktrees(t, repo); len(w) > 0 {
				t.Errorf("worktrees left after %v: %v", tc.sig, w)
			}
			if _, err := os.Stat(root); !os.IsNotExist(err) {
				t.Errorf("%s left behind (%v)", root, err)
			}
		})
	}
}

func TestBaseWorktreeRemovedWhenTheBaseAnalysisFails(t *testing.T) {
	repo := gitRepo(t)
	// The base has a manifest that does not parse; the head has none.
	bad := filepath.Join(repo, "bad.yaml")
	if err := os.WriteFile(bad, []byte("kind: Job\napiVersion: run.googleapis.com/v1\nspec: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, a := range [][]string{{"add", "bad.yaml"}, {"commit", "-q", "-m", "bad"}, {"rm", "-q", "bad.yaml"}, {"commit", "-q", "-m", "fix"}} {
		cmd := exec.Command("git", append([]string{"-C", repo}, a...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", a, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(repo, "ok.yaml"), []byte("version: 1\ncomponents:\n  a:\n    kind: app\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runIn(t, repo, binary, "report", "--topology", ".", "--base", "HEAD~1")
	if r.code != 2 {
		t.Errorf("exit %d, stderr %q: want 2 for the broken base", r.code, r.stderr)
	}
	if w := worktrees(t, repo); len(w) > 0 {
		t.Errorf("worktrees left after a failed base analysis: %v", w)
	}
}
