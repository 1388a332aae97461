//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// noTempLeft fails t if a temporary report file is left in dir.
func noTempLeft(t *testing.T, dir string) {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, ".retrylint-*"))
	if len(m) > 0 {
		t.Errorf("temporary files left behind: %v", m)
	}
}

func TestOutputKeepsTheModeOfTheFileItReplaces(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report.json")
	if err := os.WriteFile(out, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic([]byte("new"), out, nil); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(out)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after -o = %v (%v), want the file's own -rw-------", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(out); string(b) != "new" {
		t.Errorf("content = %q", b)
	}
	noTempLeft(t, dir)
}

func TestOutputNewFileIsReadableByAll(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report.json")
	if err := writeFileAtomic([]byte("new"), out, nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode of a new report = %v (%v), want -rw-r--r--", fi.Mode(), err)
	}
}

func TestOutputWritesASymlinksTarget(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.txt")
	link := filepath.Join(dir, "link.txt")
	if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.txt", link); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic([]byte("new"), link, nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("-o link.txt replaced the link: %v (%v)", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("target = %q, want the report", b)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Errorf("target mode = %v, want -rw-r-----", fi.Mode())
	}
	noTempLeft(t, dir)
}

func TestOutputThroughADanglingSymlinkCreatesItsTarget(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("made.txt", link); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic([]byte("new"), link, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "made.txt")); string(b) != "new" {
		t.Errorf("target = %q", b)
	}
}

// nullDevice returns a character device that discards what is written:
// as root a fresh one in a temporary directory (so that the test cannot
// harm the system's), otherwise /dev/null, which a normal user cannot
// replace anyway.
func nullDevice(t *testing.T) string {
	if os.Geteuid() != 0 {
		return os.DevNull
	}
	p := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("cannot make a null device: %v", err)
	}
	return p
}

func TestOutputToADeviceWritesThroughIt(t *testing.T) {
	dev := nullDevice(t)
	if err := writeFileAtomic([]byte("report"), dev, nil); err != nil {
		t.Fatalf("-o %s: %v", dev, err)
	}
	fi, err := os.Stat(dev)
	if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a device: %v (%v)", dev, fi.Mode(), err)
	}
	noTempLeft(t, filepath.Dir(dev))
}

func TestOutputToAFIFOWritesThroughIt(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	if err := writeFileAtomic([]byte("report"), fifo, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "report" {
			t.Errorf("the reader got %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nothing came through the FIFO")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v (%v)", fi.Mode(), err)
	}
	noTempLeft(t, dir)
}

func TestOutputInAReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes any directory: a read-only directory cannot be made")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "report.txt")
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if err := writeFileAtomic([]byte("new"), out, nil); err != nil {
		t.Fatalf("writable file in a read-only directory: %v", err)
	}
	if b, _ := os.ReadFile(out); string(b) != "new" {
		t.Errorf("content = %q", b)
	}
}

func TestOutputToADirectoryIsAnError(t *testing.T) {
	dir := t.TempDir()
	err := writeFileAtomic([]byte("new"), dir, nil)
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("-o DIR: %v", err)
	}
	noTempLeft(t, dir)
}

func TestWriteBaselineToStandardInputIsAnError(t *testing.T) {
	stdout, stderr, code := runCLI(t, t.TempDir(), "--baseline", "-", "--write-baseline", filepath.Join(repoRoot(t), "examples", "topology", "incident1"))
	if code != 2 || !strings.Contains(stderr, "--write-baseline") {
		t.Errorf("exit %d, stderr %q, stdout %q: want exit 2 naming --write-baseline", code, stderr, stdout)
	}
}

// withTimeout fails t if f does not return within 10 seconds: a reader
// that opens a FIFO blocks until a writer comes.
func withTimeout(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("blocked reading a FIFO")
	}
}

func TestBaselineFIFOIsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "baseline.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	withTimeout(t, func() {
		_, err := readBaseline(fifo)
		if err == nil || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("baseline FIFO: %v, want an error naming the FIFO", err)
		}
	})
}

func TestBaselineSizeIsCapped(t *testing.T) {
	p := filepath.Join(t.TempDir(), "baseline.json")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxBaselineSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = readBaseline(p)
	if err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a baseline over the cap: %v", err)
	}
}

func TestVerboseListsSymlinksOutsideTheRoots(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	job := "apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata:\n  name: j\nspec:\n  template:\n    spec:\n      template:\n        spec:\n          maxRetries: 0\n"
	if err := os.WriteFile(filepath.Join(outside, "job.yaml"), []byte(job), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "job.yaml"), filepath.Join(dir, "job.yaml")); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	_, errOut, _ := runCLI(t, dir, "--verbose", ".")
	stderr.WriteString(errOut)
	if !strings.Contains(stderr.String(), "job.yaml: symbolic link to") || !strings.Contains(stderr.String(), "outside the paths named") {
		t.Errorf("--verbose stderr = %q, want the link outside the roots listed", stderr.String())
	}
}

// TestTopologyTextCannotBeForged: a component whose name holds a newline
// and a workflow command prints on its own line, escaped, in the findings
// and in the table.
func TestTopologyTextCannotBeForged(t *testing.T) {
	dir := t.TempDir()
	src := "version: 1\ncomponents:\n  \"app\\n::error file=main.go,line=1::pwned\":\n    kind: app\n    calls:\n      - to: job\n        retries: 5\n        on: [http-5xx]\n  job:\n    kind: cloudrun.job\n    max_retries: 3\n"
	if err := os.WriteFile(filepath.Join(dir, "retrylint.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, _ := runCLI(t, dir, "--verbose", ".")
	for _, out := range []string{stdout, stderr} {
		for line := range strings.Lines(out) {
			if strings.HasPrefix(line, "::") {
				t.Errorf("forged workflow command: %q", line)
			}
		}
	}
	if !strings.Contains(stdout, `app\n::error file=main.go,line=1::pwned`) {
		t.Errorf("the name is not shown escaped:\n%s", stdout)
	}
}

// asNormalUser runs the helper job as the unprivileged user nobody from a
// copy of this test binary it can read, and returns its exit status and
// output. As a normal user already, it skips: the plain test covers it.
func asNormalUser(t *testing.T, job string) (int, string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("not root: the test runs as this user")
	}
	dir := t.TempDir()
	for d := dir; d != filepath.Dir(d) && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
	bin := filepath.Join(dir, "retrylint.test")
	src, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, src, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = []string{helperEnv + "=" + job, "HOME=" + dir, "PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Skipf("cannot run as nobody: %v", err)
	}
	return cmd.ProcessState.ExitCode(), string(out)
}

// TestOutputInAReadOnlyDirectoryAsNormalUser: run as root, the test still
// checks the normal user's case by running the write as nobody.
func TestOutputInAReadOnlyDirectoryAsNormalUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: TestOutputInAReadOnlyDirectory covers it")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "report.txt")
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{out, dir} {
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Skipf("chown: %v", err)
		}
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	for d := filepath.Dir(dir); d != filepath.Dir(d) && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
	code, msg := asNormalUser(t, "put:"+out)
	if code != 0 {
		t.Fatalf("as nobody, -o into a read-only directory: exit %d: %s", code, msg)
	}
	if b, _ := os.ReadFile(out); string(b) != "report\n" {
		t.Errorf("content = %q", b)
	}
}

// TestOutputToDevNullAsNormalUser: a normal user's -o /dev/null writes
// through the device instead of failing to replace it.
func TestOutputToDevNullAsNormalUser(t *testing.T) {
	code, msg := asNormalUser(t, "put:"+os.DevNull)
	if code != 0 {
		t.Fatalf("as nobody, -o /dev/null: exit %d: %s", code, msg)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v", fi.Mode())
	}
}

// TestOutputAsRootKeepsTheOwner: root replacing a user's report leaves it
// theirs.
func TestOutputAsRootKeepsTheOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	out := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(out, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(out, 65534, 65534); err != nil {
		t.Skipf("chown: %v", err)
	}
	if err := writeFileAtomic([]byte("new"), out, nil); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 65534 || st.Gid != 65534 || fi.Mode().Perm() != 0o640 {
		t.Errorf("owner %d:%d mode %v after -o, want 65534:65534 -rw-r-----", st.Uid, st.Gid, fi.Mode())
	}
}
