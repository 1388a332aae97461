package codelayer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzer/retryloop"
	"github.com/retrylint/retrylint/topology"
)

// Loader answers the topology loader's questions about `source:`
// packages (it implements topology.Code). Each set of packages is analysed
// once; packages that Shared already holds (retrylint report --code) are
// not analysed again.
type Loader struct {
	// Analyse runs the code half's analysis over package patterns
	// relative to dir and indexes its retry loops.
	Analyse func(dir string, patterns []string) (*Index, error)
	// Shared holds packages analysed already, or nil.
	Shared *Index
	// Tags are build tags to list the packages with, as go build -tags.
	Tags []string
	// WorkDir bounds `source:` where the topology file is in no git
	// repository; in one, its working tree does.
	WorkDir string

	cache map[string]*Index
	lists map[string][]string
}

var _ topology.Code = (*Loader)(nil)

// Layers implements topology.Code.
func (ld *Loader) Layers(dir, source, fn string) ([]topology.CodeLayer, error) {
	ix, paths, err := ld.index(dir, source)
	if err != nil {
		return nil, err
	}
	return ix.Layers(paths, source, fn)
}

// HostLayers implements topology.Code.
func (ld *Loader) HostLayers(dir, source, host string) ([]topology.CodeLayer, bool, error) {
	ix, paths, err := ld.index(dir, source)
	if err != nil {
		return nil, false, err
	}
	layers, found := ix.HostLayers(paths, host)
	return layers, found, nil
}

// index is the analysis of source, and its packages' import paths.
func (ld *Loader) index(dir, source string) (*Index, []string, error) {
	patterns := strings.Fields(source)
	key := dir + "\x00" + strings.Join(patterns, "\x00")
	paths, err := ld.list(key, dir, patterns)
	if err != nil {
		return nil, nil, err
	}
	ix := ld.Shared
	if ix == nil || !ix.hasAll(paths) {
		if ld.cache == nil {
			ld.cache = map[string]*Index{}
		}
		if ix = ld.cache[key]; ix == nil {
			ix, err = ld.Analyse(moduleDir(dir, patterns))
			if err != nil {
				return nil, nil, &topology.SourceError{Msg: err.Error()}
			}
			ld.cache[key] = ix
		}
	}
	return ix, paths, nil
}

func (ix *Index) hasAll(paths []string) bool {
	for _, p := range paths {
		if !ix.Has(p) {
			return false
		}
	}
	return true
}

// list resolves package patterns to import paths, without type-checking.
func (ld *Loader) list(key, dir string, patterns []string) ([]string, error) {
	if paths, ok := ld.lists[key]; ok {
		return paths, nil
	}
	if len(patterns) == 0 {
		return nil, &topology.SourceError{Msg: "expected Go package patterns such as ./cmd/app or ./..."}
	}
	var flags []string
	if len(ld.Tags) > 0 {
		flags = []string{"-tags=" + strings.Join(ld.Tags, ",")}
	}
	repo := ld.repository(dir)
	if err := patternsWithin(repo, dir, patterns); err != nil {
		return nil, err
	}
	root, rel := moduleDir(dir, patterns)
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles, Dir: root, BuildFlags: flags}, rel...)
	if err != nil {
		return nil, &topology.SourceError{Msg: err.Error()}
	}
	var paths []string
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, &topology.SourceError{Msg: p.Errors[0].Msg}
		}
		if err := filesWithin(repo, p); err != nil {
			return nil, err
		}
		paths = append(paths, p.PkgPath)
	}
	if len(paths) == 0 {
		return nil, &topology.SourceError{Msg: "matches no Go package"}
	}
	if ld.lists == nil {
		ld.lists = map[string][]string{}
	}
	ld.lists[key] = paths
	return paths, nil
}

// repository is the directory `source:` of a topology file in dir may
// name code under: the working tree of the git repository holding dir,
// else the working directory when it holds dir, else dir; symbolic links
// resolved.
func (ld *Loader) repository(dir string) string {
	real := realPath(dir)
	for d := real; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	if ld.WorkDir != "" && within(realPath(ld.WorkDir), real) {
		return realPath(ld.WorkDir)
	}
	return real
}

// patternsWithin checks that the directories the path patterns name
// (./x, ../x/..., /abs) lie in repo once symbolic links are followed, as
// manifests and include: must: `source:` is not a way to read code
// outside the repository.
func patternsWithin(repo, dir string, patterns []string) error {
	for _, p := range patterns {
		if !isPathPattern(p) {
			continue
		}
		d := filepath.FromSlash(strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/"))
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		if real := realPath(d); !within(repo, real) {
			return &topology.SourceError{Msg: fmt.Sprintf("%s is %s, outside the repository %s; source: names Go packages inside it only", p, real, repo)}
		}
	}
	return nil
}

// filesWithin checks that the Go files of p lie in repo once symbolic
// links are followed: no package of the module cache, no file linked in
// from elsewhere.
func filesWithin(repo string, p *packages.Package) error {
	for _, f := range append(slices.Clone(p.GoFiles), p.OtherFiles...) {
		if real := realPath(f); !within(repo, real) {
			return &topology.SourceError{Msg: fmt.Sprintf("package %s: %s is outside the repository %s; source: names Go packages inside it only", p.PkgPath, real, repo)}
		}
	}
	return nil
}

// isPathPattern reports whether a package pattern is a directory path
// rather than an import path.
func isPathPattern(p string) bool {
	return p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || filepath.IsAbs(filepath.FromSlash(p))
}

// realPath is p, absolute, with symbolic links resolved as far as it
// exists.
func realPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if up := filepath.Dir(p); up != p {
		return filepath.Join(realPath(up), filepath.Base(p))
	}
	return p
}

// within reports whether path is root or under it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// moduleDir is where to load patterns relative to dir from: the root of
// the module holding the first relative pattern's directory (an app may be
// a module of its own inside the repository), with the relative patterns
// rewritten from there.
func moduleDir(dir string, patterns []string) (string, []string) {
	var base string
	for _, p := range patterns {
		if p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
			base = filepath.Join(dir, strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/"))
			break
		}
	}
	if base == "" {
		return dir, patterns
	}
	root := base
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(root)
		if up == root {
			return dir, patterns
		}
		root = up
	}
	out := make([]string, len(patterns))
	for i, p := range patterns {
		out[i] = p
		if p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
			rel, err := filepath.Rel(root, filepath.Join(dir, p))
			if err != nil {
				return dir, patterns
			}
			out[i] = "./" + filepath.ToSlash(rel)
			if strings.HasSuffix(p, "/...") && !strings.HasSuffix(out[i], "...") {
				out[i] += "/..."
			}
		}
	}
	return root, out
}

// Analyse runs the retry model over the packages of patterns, relative to
// dir, with the analyzers' default settings, and indexes them; paths are
// reported relative to workDir. retrylint's commands analyse with the
// configuration's settings instead (and the code rules with them).
func Analyse(dir string, patterns []string, workDir string) (*Index, error) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadSyntax | packages.NeedModule, Dir: dir}, patterns...)
	if err != nil {
		return nil, err
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, errors.New(errs[0])
	}
	g, err := checker.Analyze([]*analysis.Analyzer{retryloop.Analyzer}, pkgs, nil)
	if err != nil {
		return nil, err
	}
	return FromGraph(g, workDir), nil
}
