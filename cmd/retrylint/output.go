package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// writeFileAtomic writes data to output ("" or "-": stdout). A regular
// file is replaced whole or not at all: the data goes to a temporary file
// beside it, renamed over it once complete, with the mode (and, for root,
// the owner) of the file it replaces. What is not a regular file we may
// replace is written through instead: a symlink's target, a device such as
// /dev/null, a FIFO or pipe, and a file in a directory we cannot write.
// /dev/stdout is standard output itself. A symbolic link inside a
// repository's working tree that leads out of it is refused: a pull
// request can commit one in place of the report.
func writeFileAtomic(data []byte, output string, stdout io.Writer) error {
	if output == "" || output == "-" || stdout != nil && isStdout(output) {
		if stdout == nil {
			return errors.New("no standard output to write to")
		}
		_, err := stdout.Write(data)
		return err
	}
	return asOutputError(output, writeOutput(output, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}))
}

// isStdout reports whether output names this process's standard output,
// whatever it is: a terminal, a pipe, a file opened for appending.
func isStdout(output string) bool {
	switch output {
	case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return true
	}
	return false
}

// writeOutput writes what fill writes to the file output, as
// writeFileAtomic describes.
func writeOutput(output string, fill func(io.Writer) error) error {
	path, err := destination(output)
	if err != nil {
		return err
	}
	fi, err := os.Stat(output)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return replaceFile(path, 0o644, nil, fill)
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%s: is a directory", output)
	case !fi.Mode().IsRegular():
		// A device, a FIFO, a socket, or a pipe through /proc: the
		// kernel follows the links.
		return writeThrough(output, fill)
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
// means to write. A dangling link names the file to create. A link inside
// a repository's working tree whose destination is outside that tree is
// an error.
func destination(output string) (string, error) {
	path, links, err := followLinks(output)
	if err != nil {
		return "", fmt.Errorf("%s: %v", output, err)
	}
	for _, l := range links {
		repo := repositoryOf(filepath.Dir(l))
		if repo != "" && !within(repo, path) {
			return "", fmt.Errorf("%s: the symbolic link %s in the repository %s leads to %s, outside the repository; not written through (remove the link or name another file)", output, l, repo, path)
		}
	}
	return path, nil
}

// maxLinks is how many symbolic links followLinks follows, as the kernel.
const maxLinks = 40

// followLinks resolves the symbolic links of path, its directories' and
// its own, as the kernel would to open it, and returns the absolute path
// they lead to and where each link met is. What does not exist is kept as
// it is written: the name of a file to create.
func followLinks(path string) (string, []string, error) {
	abs := path // not cleaned: ".." after a link leaves the link's target
	if !filepath.IsAbs(path) {
		wd, err := os.Getwd()
		if err != nil {
			return "", nil, err
		}
		abs = wd + string(filepath.Separator) + path
	}
	vol := filepath.VolumeName(abs)
	cur := vol + string(filepath.Separator)
	rest := splitPath(abs[len(vol):])
	var links []string
	for len(rest) > 0 {
		name := rest[0]
		rest = rest[1:]
		next := filepath.Join(cur, name)
		fi, err := os.Lstat(next)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if len(links) == maxLinks {
			return "", nil, errors.New("too many levels of symbolic links")
		}
		links = append(links, next)
		target, err := os.Readlink(next)
		if err != nil {
			return "", nil, err
		}
		if filepath.IsAbs(target) {
			vol = filepath.VolumeName(target)
			cur = vol + string(filepath.Separator)
			target = target[len(vol):]
		}
		rest = append(splitPath(target), rest...)
	}
	return cur, links, nil
}

// splitPath is the names of a path, without empty ones and ".", with ".."
// kept: it applies to the directory a link resolves to.
func splitPath(p string) []string {
	var names []string
	for _, n := range strings.Split(filepath.ToSlash(p), "/") {
		if n != "" && n != "." {
			names = append(names, n)
		}
	}
	return names
}

// repositoryOf is the working tree of the git repository that holds dir,
// the nearest directory up from it with a .git entry; "" when none does.
func repositoryOf(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// within reports whether path is root or under it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// replaceFile writes path through a temporary file in its directory,
// renamed over it once fill succeeded. old is the file replaced, nil for a
// new one. The temporary file is removed on failure and on a signal.
func replaceFile(path string, mode fs.FileMode, old fs.FileInfo, fill func(io.Writer) error) error {
	s, err := stageFile(path, mode, old, fill)
	if err != nil {
		return err
	}
	defer s.discard()
	return s.commit()
}

// stagedFile is the new content of path, complete in a temporary file
// beside it, not yet renamed over it.
type stagedFile struct {
	path, tmp string
	forget    func() // drops the cleanup that removes tmp on a signal
	done      bool
}

// stageFile writes what fill writes to a temporary file beside path, with
// mode and, for root, the owner of old (nil for a new file). On failure
// nothing is left behind; a signal before commit removes the file.
func stageFile(path string, mode fs.FileMode, old fs.FileInfo, fill func(io.Writer) error) (*stagedFile, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".retrylint-*")
	if err != nil {
		return nil, err
	}
	s := &stagedFile{path: path, tmp: tmp.Name()}
	s.forget = pending.add(func() { os.Remove(s.tmp) })
	err = fillTemp(tmp, mode, old, fill)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		s.discard()
		return nil, err
	}
	return s, nil
}

// fillTemp gives tmp its mode and owner and writes its content.
func fillTemp(tmp *os.File, mode fs.FileMode, old fs.FileInfo, fill func(io.Writer) error) error {
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if old != nil {
		keepOwner(tmp, old)
	}
	return fill(tmp)
}

// commit renames the temporary file over path, so that a signal sees it
// either not begun or done.
func (s *stagedFile) commit() error {
	return pending.finish(s.forget, func() error {
		if err := os.Rename(s.tmp, s.path); err != nil {
			return err
		}
		s.done = true
		return nil
	})
}

// discard removes the temporary file unless it was committed.
func (s *stagedFile) discard() {
	if !s.done {
		os.Remove(s.tmp)
		s.forget()
		s.done = true
	}
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
