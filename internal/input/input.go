// Package input reads the files retrylint is given (manifests, baselines,
// configuration) within the limits every reader keeps: a size cap, regular
// files only, and nothing outside the roots the user named.
package input

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// Read reads the regular file abs, at most max bytes; a longer file is an
// *TooLargeError, not a truncated read. Anything but a regular file (a FIFO, a
// device, a socket, a directory) is refused before it is read, and opening
// it never blocks.
func Read(abs string, max int64) ([]byte, error) {
	if err := Regular(abs); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot read: %s", PathErr(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot read: %s", PathErr(err))
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("cannot read: %s", kindOf(fi.Mode()))
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read: %s", PathErr(err))
	}
	if int64(len(data)) > max {
		return data[:max], &TooLargeError{Max: max}
	}
	return data, nil
}

// TooLargeError is Read's error for a file over its cap; Read returns the
// first Max bytes with it, so that a caller can tell what the file is.
type TooLargeError struct{ Max int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("file is larger than %d bytes; not read", e.Max)
}

// Regular returns an error unless path (symbolic links followed) is a
// regular file; the error says what it is instead.
func Regular(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("cannot read: %s", PathErr(err))
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("cannot read: %s", kindOf(fi.Mode()))
	}
	return nil
}

// kindOf names what a file that is not a regular file is.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory, not a file"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO, not a regular file"
	case m&fs.ModeSocket != 0:
		return "a socket, not a regular file"
	case m&fs.ModeDevice != 0:
		return "a device, not a regular file"
	}
	return "not a regular file"
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

// Encoding finds the first place where src is not text a manifest may
// hold: bytes that are not UTF-8, a NUL or another control character
// (tab, newline and carriage return aside; a byte-order mark may open the
// file). It returns the 1-based line and column (in characters) and what
// is wrong; ok is true when src is clean. YAML refuses these too, but
// names only the start of the stream.
func Encoding(src []byte) (line, col int, msg string, ok bool) {
	line, col = 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return line, col, fmt.Sprintf("invalid UTF-8 (byte 0x%02x)", src[i]), false
		case r == 0:
			return line, col, "NUL character", false
		case r == '\n':
			line, col = line+1, 0
		case r == '\t' || r == '\r' || r == 0xFEFF && i == 0:
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f && r != 0x85 || r == 0xFFFE || r == 0xFFFF:
			return line, col, fmt.Sprintf("control character %U", r), false
		}
		i += size
		col++
	}
	return 0, 0, "", true
}
