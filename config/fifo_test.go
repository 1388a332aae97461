//go:build unix

package config

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestConfigFIFOFoundUpwardIsRefused: a .retrylint.yaml that is a FIFO is
// an error naming the file, not a run that waits for a writer.
func TestConfigFIFOFoundUpwardIsRefused(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, FileName), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Load("", dir, Options{})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), FileName) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("Load: %v, want an error naming the FIFO", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Load blocked on a FIFO")
	}
}

// TestEncodingErrorNamesItsPlace: invalid UTF-8 is reported where it is.
func TestEncodingErrorNamesItsPlace(t *testing.T) {
	_, err := Parse(".retrylint.yaml", []byte("budget: 4\nignore:\n  - \"a\xffb\"\n"), Options{})
	if err == nil || !strings.HasPrefix(err.Error(), ".retrylint.yaml:3:7: invalid UTF-8") {
		t.Errorf("Parse: %v, want .retrylint.yaml:3:7: invalid UTF-8 ...", err)
	}
}
