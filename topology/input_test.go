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
