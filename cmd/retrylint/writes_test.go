//go:build unix

package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/tools/go/packages"
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

// sleeper is a package whose retry loop sleeps although it has a context:
// sleep-ignores-context offers a fix.
const sleeper = `package %s

import (
	"context"
	"time"
)

func Do(ctx context.Context, f func(context.Context) error) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = f(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
`

// fixModule writes a module example.com/m with files (name: content) in a
// temporary directory and returns it.
func fixModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.26\n"
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFixWriteFailureLeavesTheSourceIntact: a write that fails (here the
// file size limit of ulimit -f) changes no byte of the source, leaves no
// temporary file, says what failed and ends with exit status 2.
func TestFixWriteFailureLeavesTheSourceIntact(t *testing.T) {
	pad := "// " + strings.Repeat("x", 200) + "\n"
	src := strings.Repeat(pad, 100) + fmt.Sprintf(sleeper, "m") // over 20 KB
	dir := fixModule(t, map[string]string{"m.go": src})
	if err := os.Chmod(filepath.Join(dir, "m.go"), 0o640); err != nil {
		t.Fatal(err)
	}
	if r := runIn(t, dir, binary, "code", "./..."); r.code != 1 {
		t.Fatalf("warming the build cache: exit %d: %s", r.code, r.stderr)
	}
	r := runIn(t, dir, "/bin/sh", "-c", `ulimit -f 16 && exec "$0" code --fix ./...`, binary)
	if r.code != 2 || !strings.Contains(r.stderr, "m.go") || !strings.Contains(r.stderr, "too large") {
		t.Errorf("exit %d, stderr %q: want 2 naming m.go and the failed write", r.code, r.stderr)
	}
	if got := readFile(t, filepath.Join(dir, "m.go")); got != src {
		t.Errorf("m.go changed by a failed --fix: %d bytes, want %d", len(got), len(src))
	}
	if fi, _ := os.Stat(filepath.Join(dir, "m.go")); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want -rw-r-----", fi.Mode())
	}
	noTempLeft(t, dir)
}

// TestFixKeepsTheMode: the fixed file keeps its mode.
func TestFixKeepsTheMode(t *testing.T) {
	dir := fixModule(t, map[string]string{"m.go": fmt.Sprintf(sleeper, "m")})
	if err := os.Chmod(filepath.Join(dir, "m.go"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runIn(t, dir, binary, "code", "--fix", "./..."); r.code == 2 {
		t.Fatalf("exit 2: %s", r.stderr)
	}
	if !strings.Contains(readFile(t, filepath.Join(dir, "m.go")), "time.NewTimer") {
		t.Error("m.go not fixed")
	}
	if fi, _ := os.Stat(filepath.Join(dir, "m.go")); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after --fix, want -rw-------", fi.Mode())
	}
	noTempLeft(t, dir)
}

// TestFixLeavesWhatIsNotTheModulesOwn: a file reached through a symbolic
// link (into another tree, as the module cache) or through a linked
// directory is not changed, and --fix says so; nor is a module the main
// one replaces with a directory outside it. The module's own file is
// fixed.
func TestFixLeavesWhatIsNotTheModulesOwn(t *testing.T) {
	elsewhere := filepath.Join(t.TempDir(), "cached.go")
	if err := os.WriteFile(elsewhere, []byte(fmt.Sprintf(sleeper, "linked")), 0o444); err != nil {
		t.Fatal(err)
	}
	linkedDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(linkedDir, "d.go"), []byte(fmt.Sprintf(sleeper, "dirlink")), 0o644); err != nil {
		t.Fatal(err)
	}
	replaced := t.TempDir()
	for name, content := range map[string]string{"go.mod": "module example.com/v\n\ngo 1.26\n", "v.go": fmt.Sprintf(sleeper, "v")} {
		if err := os.WriteFile(filepath.Join(replaced, name), []byte(content), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	dir := fixModule(t, map[string]string{
		"own/own.go":    fmt.Sprintf(sleeper, "own"),
		"usev/usev.go":  "package usev\n\nimport _ \"example.com/v\"\n",
		"linked/doc.go": "package linked\n",
	})
	mod := "module example.com/m\n\ngo 1.26\n\nrequire example.com/v v0.0.0\n\nreplace example.com/v => " + replaced + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(dir, "linked", "cached.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(linkedDir, filepath.Join(dir, "dirlink")); err != nil {
		t.Fatal(err)
	}
	before := map[string]string{}
	for _, p := range []string{elsewhere, filepath.Join(linkedDir, "d.go"), filepath.Join(replaced, "v.go")} {
		before[p] = readFile(t, p)
	}
	r := runIn(t, dir, binary, "code", "--fix", "./...", "./dirlink", "example.com/v")
	if r.code != 1 {
		t.Errorf("exit %d, want 1 (findings left); stderr:\n%s", r.code, r.stderr)
	}
	for p, b := range before {
		if readFile(t, p) != b {
			t.Errorf("--fix changed %s", p)
		}
	}
	for _, want := range []string{
		"linked/cached.go: not changed: it is reached through the symbolic link",
		"dirlink/d.go: not changed: it is reached through the symbolic link",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(readFile(t, filepath.Join(dir, "own", "own.go")), "time.NewTimer") {
		t.Error("own/own.go, the module's own file, not fixed")
	}
}

// TestFixRefusesVendor: a file under the main module's vendor/ is not
// the module's own, even though it lies in its directory.
func TestFixRefusesVendor(t *testing.T) {
	dir := fixModule(t, map[string]string{"vendor/example.com/v/v.go": "package v\n"})
	mod := &packages.Module{Path: "example.com/m", Main: true, Dir: dir}
	if why := (toolDirs{}).refusal(filepath.Join(dir, "vendor", "example.com", "v", "v.go"), mod); !strings.Contains(why, "vendor/") {
		t.Errorf("refusal = %q, want it under vendor/", why)
	}
}

// TestFixLeavesAModuleInTheModuleCache: a module that lies in GOMODCACHE
// is not the user's to change, even as the main module.
func TestFixLeavesAModuleInTheModuleCache(t *testing.T) {
	dir := fixModule(t, map[string]string{"m.go": fmt.Sprintf(sleeper, "m")})
	before := readFile(t, filepath.Join(dir, "m.go"))
	cmd := exec.Command(binary, "code", "--fix", "./...")
	cmd.Dir = dir
	cmd.Env = append(e2eEnv(), "GOMODCACHE="+filepath.Dir(dir))
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), "m.go: not changed: it is under GOMODCACHE") {
		t.Errorf("exit %d, output:\n%s\nwant 1 and m.go left as under GOMODCACHE", cmd.ProcessState.ExitCode(), out)
	}
	if readFile(t, filepath.Join(dir, "m.go")) != before {
		t.Error("--fix changed a file in the module cache")
	}
}

// TestTagsAreBuildTagsOnly: --tags takes build tags only; what the go
// command would read as a flag (-toolexec running a program) is an error
// before any package is loaded, in every command that loads packages.
func TestTagsAreBuildTagsOnly(t *testing.T) {
	dir := fixModule(t, map[string]string{"m.go": fmt.Sprintf(sleeper, "m")})
	marker := filepath.Join(t.TempDir(), "ran")
	prog := filepath.Join(t.TempDir(), "prog")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\ntouch "+marker+"\nexec \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"code", "--fix", "--tags", "x -toolexec=" + prog, "./..."},
		{"code", "--diff", "--tags", "x -toolexec=" + prog, "./..."},
		{"code", "--tags", "x,-toolexec=" + prog, "./..."},
		{"report", "--code", "./...", "--tags", "x -toolexec=" + prog},
	} {
		r := runIn(t, dir, binary, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "--tags") || !strings.Contains(r.stderr, "not a build tag") {
			t.Errorf("%q: exit %d, stderr %q: want 2, --tags refused", args, r.code, r.stderr)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("%q ran a program", args)
		}
	}
	if r := runIn(t, dir, binary, "code", "--diff", "--tags", "integration,go1.26,linux_amd64", "./..."); r.code != 1 || !strings.Contains(r.stdout, "+\t\ttimer := time.NewTimer") {
		t.Errorf("valid tags: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestSourceStaysInTheRepository: `source:` names Go code inside the
// repository only, as manifests and include: do: through "..", an
// absolute path or a symbolic link out of it, the run ends with exit 2 at
// the source: line, and the code outside is not read.
func TestSourceStaysInTheRepository(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside", "app")
	if err := os.CopyFS(outside, os.DirFS(filepath.Join(repoRoot(t), "testdata", "topology", "code", "app"))); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, source string }{
		{"dotdot", "../../outside/app/..."},
		{"absolute", outside + "/..."},
		{"symlink", "./app/..."},
		{"linked file", "./own/..."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := filepath.Join(base, strings.ReplaceAll(tc.name, " ", "-"))
			if err := os.MkdirAll(filepath.Join(repo, "infra"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(repo, "infra", "app")); err != nil {
				t.Fatal(err)
			}
			// A module of its own whose one file is a link out.
			own := filepath.Join(repo, "infra", "own")
			if err := os.MkdirAll(filepath.Join(own, "client"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(own, "go.mod"), []byte("module example.com/app\n\ngo 1.26\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(outside, "client", "client.go"), filepath.Join(own, "client", "client.go")); err != nil {
				t.Fatal(err)
			}
			src := "version: 1\ncomponents:\n  worker:\n    kind: app\n    source: " + tc.source + "\n    calls:\n      - to: model\n        func: example.com/app/client.(*Client).Generate\n  model: {kind: external}\n"
			if err := os.WriteFile(filepath.Join(repo, "infra", "retrylint.yaml"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			r := runIn(t, repo, binary, "topology", "infra")
			want := "infra/retrylint.yaml:5:5: component worker: source "
			if r.code != 2 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "outside the repository") {
				t.Errorf("exit %d, stderr %q: want 2 with %q and outside the repository", r.code, r.stderr, want)
			}
		})
	}
}

// commandLines lists the lines of out that a CI runner would read as a
// command: "::" after leading white space, "##[" anywhere; lines end at
// "\n" and "\r".
func commandLines(out string) []string {
	var bad []string
	for line := range strings.SplitSeq(strings.ReplaceAll(out, "\r", "\n"), "\n") {
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") || strings.Contains(line, "##[") {
			bad = append(bad, line)
		}
	}
	return bad
}

// TestTopologyOutputCannotBeForged: component names and file names that
// hold workflow commands, indented or not, and legacy ##[ commands, reach
// neither the text tables, the verbose lines, nor an error message as a
// command.
func TestTopologyOutputCannotBeForged(t *testing.T) {
	dir := t.TempDir()
	src := "version: 1\ncomponents:\n  \"  ::warning::indented\":\n    kind: app\n    calls:\n      - to: \"x ##[error]legacy\"\n        retries: 5\n        on: [http-5xx]\n  \"x ##[error]legacy\":\n    kind: cloudrun.job\n    max_retries: 3\n"
	if err := os.WriteFile(filepath.Join(dir, "retrylint.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad")
	if err := os.Mkdir(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "##[error]x.yaml"), []byte("version: 1\ncomponents: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"topology", "--verbose", "retrylint.yaml"},
		{"topology", "--format", "markdown", "retrylint.yaml"},
		{"report", "--topology", "retrylint.yaml", "--format", "dot"},
		{"topology", "bad"},
	} {
		r := runIn(t, dir, binary, args...)
		for _, out := range []string{r.stdout, r.stderr} {
			for _, line := range commandLines(out) {
				t.Errorf("%q: a line reads as a CI command: %q", args, line)
			}
		}
	}
}
