//go:build unix

package terraform

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFileOfAFIFOIsRefused: file() naming a FIFO leaves the value unknown
// with a note saying why, and never waits for a writer.
func TestFileOfAFIFOIsRefused(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf": "resource \"google_workflows_workflow\" \"w\" {\n  name            = \"w\"\n  source_contents = file(\"${path.module}/pipe.yaml\")\n}\n",
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan *Module, 1)
	go func() {
		m, err := LoadDir(dir, Options{})
		if err != nil {
			t.Error(err)
		}
		done <- m
	}()
	select {
	case m := <-done:
		if m == nil {
			return
		}
		s := resource(t, m, "google_workflows_workflow.w").Source("source_contents")
		if s.Known || !strings.Contains(s.Note, "FIFO") {
			t.Errorf("file() of a FIFO: %+v, want unknown with a note naming the FIFO", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("file() of a FIFO blocked")
	}
}
