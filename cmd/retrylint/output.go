package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// writeFileAtomic writes data to output ("" or "-": stdout). A regular
// file is replaced whole or not at all: the data goes to a temporary file
// beside it, renamed over it once complete, with the mode (and, for root,
// the owner) of the file it replaces. What is not a regular file we may
// replace is written through instead: a symlink's target, a device such as
// /dev/null, a FIFO, and a file in a directory we cannot write.
func writeFileAtomic(data []byte, output string, stdout io.Writer) error {
	if output == "" || output == "-" {
		if stdout == nil {
			return errors.New("no standard output to write to")
		}
		_, err := stdout.Write(data)
		return err
	}
	return writeOutput(output, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeOutput writes what fill writes to the file output, as
// writeFileAtomic describes.
func writeOutput(output string, fill func(io.Writer) error) error {
	path, err := destination(output)
	if err != nil {
		return err
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return replaceFile(path, 0o644, nil, fill)
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%s: is a directory", output)
	case !fi.Mode().IsRegular():
		return writeThrough(path, fill) // a device, a FIFO, a socket
	}
	err = replaceFile(path, fi.Mode().Perm(), fi, fill)
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		// A writable file in a directory we may not write: no temporary
		// file beside it, so write it in place.
		return writeThrough(path, fill)
	}
	return err
}

// destination is output with symbolic links followed: the file the user
// means to write. A dangling link names the file to create.
func destination(output string) (string, error) {
	path := output
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", output)
}

// replaceFile writes path through a temporary file in its directory,
// renamed over it once fill succeeded. old is the file replaced, nil for a
// new one. The temporary file is removed on failure and on SIGINT/SIGTERM.
func replaceFile(path string, mode fs.FileMode, old fs.FileInfo, fill func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".retrylint-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	forget := pending.add(func() { os.Remove(name) })
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(name)
			forget()
		}
	}()
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if old != nil {
		keepOwner(tmp, old)
	}
	if err := fill(tmp); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return pending.finish(forget, func() error {
		if err := os.Rename(name, path); err != nil {
			return err
		}
		done = true
		return nil
	})
}

// writeThrough writes what fill writes into the existing file at path:
// truncated when it is a regular file, opened for writing otherwise.
func writeThrough(path string, fill func(io.Writer) error) error {
	flag := os.O_WRONLY
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		flag |= os.O_TRUNC
	}
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// maxBaselineSize caps what is read of a baseline file: far above the
// fingerprints of any real project's findings.
const maxBaselineSize = 64 << 20
