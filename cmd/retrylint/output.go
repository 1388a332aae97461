package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/retrylint/retrylint/model"
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
	p, err := prepareOutput(output, fill)
	if err != nil {
		return err
	}
	defer p.discard()
	return p.commit()
}

// preparedOutput is a report ready to land in its file: complete in a
// temporary file beside it, renamed over it by commit, or, for what is
// not a regular file we may replace, written through by commit.
type preparedOutput struct {
	staged  *stagedFile
	through func() error
}

// prepareOutput makes the report fill writes ready for the file output,
// as writeFileAtomic describes; nothing is visible at output before
// commit.
func prepareOutput(output string, fill func(io.Writer) error) (*preparedOutput, error) {
	path, err := destination(output)
	if err != nil {
		return nil, err
	}
	throughTo := func(path string) *preparedOutput {
		return &preparedOutput{through: func() error { return writeThrough(path, fill) }}
	}
	fi, err := os.Stat(output)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return staged(stageFile(path, 0o644, nil, fill))
	case err != nil:
		return nil, err
	case fi.IsDir():
		return nil, fmt.Errorf("%s: is a directory", output)
	case !fi.Mode().IsRegular():
		// A device, a FIFO, a socket, or a pipe through /proc: the
		// kernel follows the links.
		return throughTo(output), nil
	}
	s, err := stageFile(path, fi.Mode().Perm(), fi, fill)
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		// A writable file in a directory we may not write: no temporary
		// file beside it, so write it in place.
		return throughTo(path), nil
	}
	return staged(s, err)
}

// staged is the prepared output of a staged file.
func staged(s *stagedFile, err error) (*preparedOutput, error) {
	if err != nil {
		return nil, err
	}
	return &preparedOutput{staged: s}, nil
}

// commit puts the report in its file.
func (p *preparedOutput) commit() error {
	if p.staged != nil {
		return p.staged.commit()
	}
	return p.through()
}

// discard drops the report unless it was committed.
func (p *preparedOutput) discard() {
	if p.staged != nil {
		p.staged.discard()
	}
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

// A run can write several reports, each in its own format, from one
// analysis: --format to --output (or standard output), and one more file
// per --output-FORMAT flag, as golangci-lint's --output.FORMAT.path.

// registerOutputs adds an --output-FORMAT flag for each of the command's
// formats.
func (o *outputFlags) registerOutputs(cmd *cobra.Command) {
	o.outputs = make(map[string]*string, len(o.formats))
	for _, format := range o.formats {
		o.outputs[format] = cmd.Flags().String("output-"+format, "", "also write the "+format+" report to `FILE`, from the same run")
	}
}

// reportFile is one report of a run: its format, the file it goes to
// ("": standard output) and whether text is coloured.
type reportFile struct {
	flag, format, file string
	color              bool
}

// reportFiles are the reports the flags ask for, --format's first.
func (o *outputFlags) reportFiles(stdout io.Writer) []reportFile {
	out := []reportFile{{flag: "--output", format: o.format, file: o.output, color: o.useColor(stdout)}}
	for _, format := range o.formats {
		if file := o.outputFile(format); file != "" {
			out = append(out, reportFile{flag: "--output-" + format, format: format, file: file})
		}
	}
	return out
}

// writes reports whether the run writes a report in format.
func (o *outputFlags) writes(format string) bool {
	return o.format == format || o.outputFile(format) != ""
}

// outputFile is the file of --output-FORMAT, "" when not given.
func (o *outputFlags) outputFile(format string) string {
	if p := o.outputs[format]; p != nil {
		return *p
	}
	return ""
}

// validateOutputs refuses two reports to one file, and --output-FORMAT
// to standard output, which is --format's.
func (o *outputFlags) validateOutputs() error {
	seen := make(map[string]string) // absolute path → flag
	for _, r := range o.reportFiles(nil) {
		switch {
		case r.file == "" || r.file == "-":
			if r.flag != "--output" {
				return fmt.Errorf("%s: name a file; standard output is for --format %s", r.flag, o.format)
			}
			continue
		}
		abs, err := filepath.Abs(r.file)
		if err != nil {
			return fmt.Errorf("%s: %v", r.flag, err)
		}
		if flag, ok := seen[abs]; ok {
			return fmt.Errorf("%s and %s both write %s; name a file for each", flag, r.flag, r.file)
		}
		seen[abs] = r.flag
	}
	return nil
}

// renderFunc renders the run's result in format; color is for text.
type renderFunc func(w io.Writer, format string, color bool) error

// writeAll writes every report the flags ask for. Nothing is written
// unless every report rendered and every file could be made ready (a
// file is complete beside its destination before any is renamed over
// one); each file is replaced whole, as writeFileAtomic describes.
func (o *outputFlags) writeAll(stdout io.Writer, render renderFunc) error {
	var toStdout []byte
	var ready []*preparedOutput
	defer func() {
		for _, p := range ready {
			p.discard()
		}
	}()
	for _, r := range o.reportFiles(stdout) {
		var buf bytes.Buffer
		if err := render(&buf, r.format, r.color); err != nil {
			return err
		}
		if r.file == "" || r.file == "-" || isStdout(r.file) {
			toStdout = append(toStdout, buf.Bytes()...)
			continue
		}
		p, err := prepareOutput(r.file, func(w io.Writer) error {
			_, err := w.Write(buf.Bytes())
			return err
		})
		if err = asOutputError(r.file, err); err != nil && r.flag != "--output" {
			return fmt.Errorf("%s: %v", r.flag, err)
		}
		if err != nil {
			return err
		}
		ready = append(ready, p)
	}
	if len(toStdout) > 0 {
		if _, err := stdout.Write(toStdout); err != nil {
			return err
		}
	}
	for _, p := range ready {
		if err := p.commit(); err != nil {
			return err
		}
	}
	return nil
}

// writeWith writes every report of res the flags ask for, with opts.
func (o *outputFlags) writeWith(res *model.Result, stdout io.Writer, opts renderOptions) error {
	return o.writeAll(stdout, func(w io.Writer, format string, color bool) error {
		opts := opts
		opts.color = color
		return render(w, res, format, opts)
	})
}
