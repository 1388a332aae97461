// Package input reads the files the topology loaders are given, within the
// limits every loader keeps: a size cap, regular files only, and nothing
// outside the roots the user named.
package input

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Read reads the regular file abs, at most max bytes; a longer file is an
// error, not a truncated read.
func Read(abs string, max int64) ([]byte, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, fmt.Errorf("cannot read: %s", PathErr(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, errors.New("cannot read: not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read: %s", PathErr(err))
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("file is larger than %d bytes; not read", max)
	}
	return data, nil
}

// Within reports whether the absolute, symlink-free path abs lies under one
// of roots.
func Within(roots []string, abs string) bool {
	for _, r := range roots {
		if abs == r || r == string(filepath.Separator) || strings.HasPrefix(abs, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// PathErr returns the reason of a file system error without the path, which
// the caller names in its own words.
func PathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
