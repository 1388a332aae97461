//go:build unix

package topology_test

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/retrylint/retrylint/topology"
)

// TestSpecialFilesAreRefused: a FIFO named as an input is an error naming
// it, at once; reading it would wait for a writer forever.
func TestSpecialFilesAreRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, p := range []string{fifo, "/dev/zero"} {
		done := make(chan error, 1)
		go func() {
			_, err := topology.Load([]string{p}, topology.Options{WorkDir: dir})
			done <- err
		}()
		select {
		case err := <-done:
			var ie *topology.InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v, want an input error saying it is not a regular file", p, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: blocked", p)
		}
	}
}

// TestEncodingErrorsNameTheirPlace: invalid UTF-8 and control characters
// are errors at their own line and column, not at 1:1.
func TestEncodingErrorsNameTheirPlace(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"retrylint.yaml", "version: 1\ncomponents:\n  a:\n    kind: app\n    note: \"x\xff\"\n", "retrylint.yaml:5:13: invalid UTF-8 (byte 0xff)"},
		{"job.yaml", "apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata:\n  na\x00me: j\n", "job.yaml:4:5: NUL character"},
		{"flow.yaml", "main:\n  steps:\n    - a:\n        return: \"\x1b[2J\"\n", "flow.yaml:4:18: control character U+001B"},
		{"main.tf", "resource \"google_cloud_run_v2_job\" \"j\" {\n  name = \"a\x00\"\n}\n", "main.tf:2:12: NUL character"},
	} {
		_, err := topology.LoadBytes(tc.name, []byte(tc.src), topology.Options{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}
}
