package main

import (
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/report"
)

// prefixFlag is --path-prefix: unset, the repository's layout is found
// from .git; set, even to "", it replaces it.
type prefixFlag struct {
	value string
	set   bool
}

func (p *prefixFlag) String() string { return p.value }
func (p *prefixFlag) Type() string   { return "string" }
func (p *prefixFlag) Set(v string) error {
	p.value, p.set = v, true
	return nil
}

// pathPrefixUsage is --path-prefix's help.
const pathPrefixUsage = "write every path with `PREFIX` in front of its path relative to the working directory (default: the working directory's place in the repository, found from .git, so that paths are relative to the repository root; \"\" for none)"

// repoPaths rewrites the paths of a run, relative to the working
// directory as the analysis gives them, to paths relative to the
// repository root: the working directory's place in the repository in
// front of them. A path outside the repository is written absolute.
type repoPaths struct {
	wd     string // the working directory
	prefix string // the working directory relative to the root, a slash path; "." at the root
	root   string // what the paths are relative to, for messages
}

// pathsAt is how the paths of a run in wd are written: with the prefix
// of --path-prefix when it is set, else relative to the root of the
// repository around wd (the nearest directory up with .git, a directory
// or a file), else as they are.
func pathsAt(wd string, flag prefixFlag) repoPaths {
	if flag.set {
		return repoPaths{wd: wd, prefix: path.Clean(filepath.ToSlash(flag.value)), root: "the root --path-prefix " + flag.value + " describes"}
	}
	real, err := filepath.EvalSymlinks(wd)
	if err != nil {
		real = wd
	}
	top := repositoryOf(real)
	if top == "" {
		return repoPaths{wd: wd, prefix: ".", root: "the working directory " + wd + ", in no repository,"}
	}
	rel, err := filepath.Rel(top, real)
	if err != nil {
		return repoPaths{wd: wd, prefix: ".", root: "the working directory " + wd}
	}
	return repoPaths{wd: wd, prefix: filepath.ToSlash(rel), root: "the repository " + top}
}

// file is the path to write for p, a path of the analysis (relative to
// the working directory, or absolute), and whether it is inside the
// repository; a path outside it is absolute, with "/".
func (r repoPaths) file(p string) (string, bool) {
	if p == "" {
		return "", true
	}
	abs := filepath.FromSlash(p)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.wd, abs)
	}
	rel, err := filepath.Rel(r.wd, abs)
	if err != nil {
		return filepath.ToSlash(abs), false
	}
	out := path.Join(r.prefix, filepath.ToSlash(rel))
	if out == ".." || strings.HasPrefix(out, "../") {
		return filepath.ToSlash(abs), false
	}
	return out, true
}

// pathWriter rewrites the paths of results as r says, and warns once on
// stderr about each path outside the repository.
type pathWriter struct {
	paths  repoPaths
	stderr io.Writer
	warned map[string]bool
	origin map[string]string // a written path → the file, absolute
}

func newPathWriter(paths repoPaths, stderr io.Writer) *pathWriter {
	return &pathWriter{paths: paths, stderr: stderr, warned: map[string]bool{}, origin: map[string]string{}}
}

// file is the path written for p; see repoPaths.file.
func (w *pathWriter) file(p string) string {
	out, inside := w.paths.file(p)
	if _, ok := w.origin[out]; !ok && p != "" {
		file := filepath.FromSlash(p)
		if !filepath.IsAbs(file) {
			file = filepath.Join(w.paths.wd, file)
		}
		w.origin[out] = file
	}
	if !inside && !w.warned[out] {
		w.warned[out] = true
		fmt.Fprintf(w.stderr, "retrylint: %s: outside %s: written as an absolute path\n", report.EscapeText(out), report.EscapeText(w.paths.root))
	}
	return out
}

// source reads the file a written path names, as readSource does the
// analysis's own paths.
func (w *pathWriter) source(written string) ([]byte, error) {
	if file, ok := w.origin[written]; ok {
		return readSource(file)
	}
	return readSource(written)
}

// dir is the path written for a pipeline's directory: "" (no pipeline)
// stays "".
func (w *pathWriter) dir(p string) string {
	if p == "" {
		return ""
	}
	return w.file(p)
}

// finding rewrites the paths of f.
func (w *pathWriter) finding(f *model.Finding) {
	f.File = w.file(f.File)
	f.Pipeline = w.dir(f.Pipeline)
}

// result rewrites every path of res: the findings', the chains' factors'
// and pipelines', and those of the comparison with a base.
func (w *pathWriter) result(res *model.Result) {
	for i := range res.Findings {
		w.finding(&res.Findings[i])
	}
	for i := range res.Chains {
		c := &res.Chains[i]
		c.Pipeline = w.dir(c.Pipeline)
		c.Factors = slices.Clone(c.Factors) // chains may share their factors
		for j := range c.Factors {
			c.Factors[j].File = w.file(c.Factors[j].File)
		}
	}
	if ch := res.Changes; ch != nil {
		for i := range ch.New {
			w.finding(&ch.New[i])
		}
		for i := range ch.Fixed {
			w.finding(&ch.Fixed[i])
		}
		for i := range ch.Attempts {
			ch.Attempts[i].Pipeline = w.dir(ch.Attempts[i].Pipeline)
		}
	}
}
