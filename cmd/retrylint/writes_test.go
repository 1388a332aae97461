//go:build unix

package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// checkout makes a git working tree with a topology file, as a pull
// request's checkout is, and returns it.
func checkout(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	if _, err := exec.LookPath("git"); err == nil {
		if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
	} else if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "version: 1\ncomponents:\n  app:\n    kind: app\n    calls:\n      - to: job\n        retries: 5\n  job:\n    kind: cloudrun.job\n    max_retries: 3\n"
	if err := os.WriteFile(filepath.Join(repo, "retrylint.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return repo
}

// runnerFile is a file of the CI runner, outside the checkout.
func runnerFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "runner.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho runner\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOutputRefusesACommittedLinkOutOfTheRepository: a symbolic link that
// a pull request commits in place of the report file, or of a directory
// on its path, and that points out of the working tree, is refused: exit
// 2, the link's target untouched, nothing created outside.
func TestOutputRefusesACommittedLinkOutOfTheRepository(t *testing.T) {
	for _, tc := range []struct{ name, output string }{
		{"file", "retrylint.md"},
		{"directory", "reports/retrylint.md"},
		{"dangling", "new.md"},
		{"chain", "chain.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := checkout(t)
			target := runnerFile(t)
			links := map[string]string{
				"retrylint.md": target,
				"reports":      filepath.Dir(target),
				"new.md":       filepath.Join(filepath.Dir(target), "new.md"),
				"inner.md":     target,
				"chain.md":     "inner.md",
			}
			for name, to := range links {
				if err := os.Symlink(to, filepath.Join(repo, name)); err != nil {
					t.Fatal(err)
				}
			}
			r := runIn(t, repo, binary, "report", "--topology", ".", "--format", "markdown", "-o", tc.output)
			if r.code != 2 || !strings.Contains(r.stderr, tc.output) || !strings.Contains(r.stderr, "outside the repository") {
				t.Errorf("exit %d, stderr %q: want 2 naming %s as a link outside the repository", r.code, r.stderr, tc.output)
			}
			if b, _ := os.ReadFile(target); string(b) != "#!/bin/sh\necho runner\n" {
				t.Errorf("the runner's file was written: %q", b)
			}
			for _, name := range []string{"retrylint.md", "new.md"} {
				if _, err := os.Stat(filepath.Join(filepath.Dir(target), name)); err == nil {
					t.Errorf("%s created outside the repository", name)
				}
			}
			noTempLeft(t, filepath.Dir(target))
		})
	}
}

// TestOutputThroughALinkWithinTheRepository: a link that stays inside the
// working tree is written through, as before.
func TestOutputThroughALinkWithinTheRepository(t *testing.T) {
	repo := checkout(t)
	if err := os.Mkdir(filepath.Join(repo, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("docs/report.md", filepath.Join(repo, "retrylint.md")); err != nil {
		t.Fatal(err)
	}
	r := runIn(t, repo, binary, "report", "--topology", ".", "--format", "markdown", "-o", "retrylint.md")
	if r.code == 2 {
		t.Fatalf("exit 2: %s", r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "docs", "report.md")); !strings.Contains(string(b), "## retrylint") {
		t.Errorf("docs/report.md = %q, want the report", b)
	}
	if fi, err := os.Lstat(filepath.Join(repo, "retrylint.md")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
}

// TestOutputThroughAUserLinkOutsideARepository: a link the user made
// outside any repository is written through, whatever it points at.
func TestOutputThroughAUserLinkOutsideARepository(t *testing.T) {
	repo := checkout(t)
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "report.md")
	link := filepath.Join(dir, "report.md")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	r := runIn(t, repo, binary, "report", "--topology", ".", "--format", "markdown", "-o", link)
	if r.code == 2 {
		t.Fatalf("exit 2: %s", r.stderr)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "## retrylint") {
		t.Errorf("target = %q, want the report", b)
	}
}

// TestOutputToDevStdoutInAPipe: -o /dev/stdout writes into the pipe that
// standard output is.
func TestOutputToDevStdoutInAPipe(t *testing.T) {
	repo := checkout(t)
	r := runIn(t, repo, binary, "report", "--topology", ".", "--format", "markdown", "-o", "/dev/stdout")
	if r.code == 2 || !strings.Contains(r.stdout, "## retrylint") {
		t.Errorf("exit %d, stdout %q, stderr %q: want the report on the pipe", r.code, r.stdout, r.stderr)
	}
}

// TestOutputDotDotAfterALink: "link/../x" names x beside the link's
// target, as the kernel resolves it, not x beside the link.
func TestOutputDotDotAfterALink(t *testing.T) {
	repo := checkout(t)
	outside := t.TempDir()
	if err := os.Mkdir(filepath.Join(outside, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "sub"), filepath.Join(repo, "sub")); err != nil {
		t.Fatal(err)
	}
	r := runIn(t, repo, binary, "report", "--topology", ".", "--format", "markdown", "-o", "sub/../x.md")
	if r.code != 2 || !strings.Contains(r.stderr, "outside the repository") {
		t.Errorf("exit %d, stderr %q: want 2, a link out of the repository", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(outside, "x.md")); err == nil {
		t.Error("x.md written outside the repository")
	}
}
