package topology

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/input"
	"github.com/retrylint/retrylint/topology/terraform"
	"github.com/retrylint/retrylint/topology/workflows"
)

// DefaultMaxFileSize caps what is read of one manifest.
const DefaultMaxFileSize = 4 << 20

// Options control loading.
type Options struct {
	// MaxFileSize caps the size of one input file (default 4 MiB); a larger
	// file is an input error.
	MaxFileSize int64
	// WorkDir is the directory paths in the model are relative to
	// (default: the working directory).
	WorkDir string
	// Skip, when set, leaves out of a directory walk the files and
	// directories it returns true for (absolute paths): the configuration's
	// ignore patterns. Paths named explicitly are read all the same.
	Skip func(abs string) bool
	// Code reads the retry loops of the Go packages an app names with
	// `source:`, for its calls with `func:`; nil leaves `source:` unread.
	Code Code
	// Read, when set, is called after each manifest read: a run's
	// progress line counts them.
	Read func()
}

// loader collects declarations from files before linking.
type loader struct {
	opts      Options
	roots     []string        // absolute, symlink-free directories
	seen      map[string]bool // absolute paths already loaded
	manifests []*Component    // from manifests, in load order
	decls     []*decl         // from topology files
	budget    int
	budgetPos Pos
	supp      *Suppressions
	skipped   []Skip
	// unfollowed are the symbolic links of a walk not read, with why.
	unfollowed []string
	loaded     int
	findings   []Finding // from loading (values not known statically)
	tfDirs     []string  // directories of Terraform modules, in load order
	tfFiles    map[string][]string
	tfNamed    map[string]bool // Terraform files named on the command line or in include:
	pipes      pipelines
	includer   string          // the pipeline of the topology file whose include: is being read
	named      map[string]bool // display names of the files named on the command line
	patches    map[string]bool // absolute paths of the files a kustomization applies as patches
}

// read walks and reads the inputs, unlinked.
func read(paths []string, opts Options) (*loader, error) {
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.WorkDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		opts.WorkDir = wd
	}
	if len(paths) == 0 {
		return nil, errors.New("no paths given")
	}
	ld := &loader{opts: opts, seen: map[string]bool{}, supp: &Suppressions{}, named: map[string]bool{}}
	type named struct {
		abs string
		dir bool
	}
	var inputs []named
	for _, arg := range paths {
		matches := []string{arg}
		if strings.ContainsAny(arg, "*?[") {
			m, err := filepath.Glob(arg)
			if err != nil {
				return nil, fmt.Errorf("%s: bad pattern: %v", arg, err)
			}
			if len(m) == 0 {
				return nil, fmt.Errorf("%s: no files match", arg)
			}
			matches = m
		}
		for _, p := range matches {
			abs, err := filepath.Abs(p)
			if err != nil {
				return nil, err
			}
			fi, err := os.Stat(abs)
			if err != nil {
				return nil, &InputError{Pos: Pos{File: p}, Msg: "cannot read: " + input.PathErr(err)}
			}
			real, err := filepath.EvalSymlinks(abs)
			if err != nil {
				return nil, &InputError{Pos: Pos{File: p}, Msg: "cannot read: " + input.PathErr(err)}
			}
			if fi.IsDir() {
				ld.roots = append(ld.roots, real)
			} else {
				ld.roots = append(ld.roots, filepath.Dir(real))
			}
			inputs = append(inputs, named{abs: real, dir: fi.IsDir()})
			if !fi.IsDir() {
				ld.named[ld.display(real)] = true
			}
		}
	}
	for _, in := range inputs {
		var err error
		if in.dir {
			err = ld.walk(in.abs)
		} else {
			err = ld.file(in.abs, true)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := ld.loadTerraform(); err != nil {
		return nil, err
	}
	return ld, nil
}

// Load reads the manifests under paths (files, directories walked
// recursively, globs), links them and returns the graph: everything named is
// one pipeline. An invalid input is an *InputError naming file:line:col.
func Load(paths []string, opts Options) (*Graph, error) {
	ld, err := read(paths, opts)
	if err != nil {
		return nil, err
	}
	return ld.link()
}

// LoadPipelines reads the manifests under paths as Load does and links each
// pipeline on its own (see pipelineOf): a directory holding a topology file,
// with what it includes; a Terraform root module; the rest of what is named.
// Components of one name in two pipelines are two components.
func LoadPipelines(paths []string, opts Options) ([]*Graph, error) {
	ld, err := read(paths, opts)
	if err != nil {
		return nil, err
	}
	return ld.linkPipelines()
}

// display is the path shown in findings: relative to the working
// directory, with "/".
func (ld *loader) display(abs string) string {
	if rel, err := filepath.Rel(ld.opts.WorkDir, abs); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(abs)
}

// manifestExt lists the file names a directory walk reads.
func manifestExt(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json", ".tf":
		return true
	}
	return false
}

// walk loads the manifests under dir. Symbolic links to directories are not
// followed, so link loops cannot hang the walk.
func (ld *loader) walk(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return &InputError{Pos: Pos{File: ld.display(p)}, Msg: "cannot read: " + input.PathErr(err)}
		}
		if p != dir && ld.opts.Skip != nil && ld.opts.Skip(p) {
			// Ignored by the configuration; a path named on the command
			// line or in include: is read all the same.
			if d.IsDir() {
				return filepath.SkipDir
			}
			ld.skip(ld.display(p), SkipIgnored)
			return nil
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			ld.notePatches(p)
			return nil
		}
		if !manifestExt(d.Name()) {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				ld.unfollowed = append(ld.unfollowed, ld.display(p)+": dangling or looping symbolic link; not read")
				return nil
			}
			if !ld.within(real) {
				ld.unfollowed = append(ld.unfollowed, fmt.Sprintf("%s: symbolic link to %s, outside the paths named; not read", ld.display(p), real))
				return nil
			}
			if fi, err := os.Stat(real); err != nil || !fi.Mode().IsRegular() {
				ld.unfollowed = append(ld.unfollowed, ld.display(p)+": symbolic link to something not a regular file; not read")
				return nil
			}
			return ld.file(real, false)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return ld.file(p, false)
	})
}

// within reports whether abs lies under one of the given roots.
func (ld *loader) within(abs string) bool { return input.Within(ld.roots, abs) }

// file loads every YAML document of one file. A file met in a directory
// walk (named false) that is not recognisably a manifest is skipped when it
// does not load: a template, or YAML that does not parse and has no
// manifest shape. A named file is always checked.
func (ld *loader) file(abs string, named bool) error {
	if ld.seen[abs] {
		if ld.includer != "" {
			// Walked before a topology file included it: it is that file's.
			ld.tag(ld.pipes.comps[abs], ld.includer)
			ld.fileIn(ld.display(abs), ld.includer)
		}
		return nil
	}
	ld.seen[abs] = true
	if terraformFile(abs) {
		ld.addTerraform(abs, named)
		return nil
	}
	name := ld.display(abs)
	if !named && ld.patches[abs] {
		ld.skip(name, SkipPatch)
		return nil
	}
	src, err := input.Read(abs, ld.opts.MaxFileSize)
	if err != nil {
		var big *input.TooLargeError
		if !named && errors.As(err, &big) && !manifestShaped(src) {
			// A lock file or a data dump met in a walk, not a manifest.
			ld.skip(name, SkipTooLarge)
			return nil
		}
		msg := err.Error()
		if !named {
			msg += ignoreHint
		}
		return &InputError{Pos: Pos{File: name}, Msg: msg}
	}
	if !named && isTemplate(src) {
		ld.skip(name, SkipTemplate)
		return nil
	}
	ld.supp.scan(name, src)
	before := len(ld.manifests)
	known, err := ld.source(name, abs, src)
	added := ld.manifests[min(before, len(ld.manifests)):]
	ld.tag(added, ld.pipelineOf(abs))
	if ld.pipes.comps == nil {
		ld.pipes.comps = map[string][]*Component{}
	}
	ld.pipes.comps[abs] = append([]*Component(nil), added...)
	ld.fileIn(name, ld.pipelineOf(abs))
	if err != nil {
		var ie *InputError
		if named || !errors.As(err, &ie) {
			return err
		}
		if ie.Pos.File == name && !parses(name, src) && !manifestShaped(src) {
			ld.skip(name, SkipNotYAML)
			return nil
		}
		return &InputError{Pos: ie.Pos, Msg: ie.Msg + ignoreHint}
	}
	ld.countRead()
	if !known {
		ld.skip(name, SkipUnknown)
	}
	return nil
}

// countRead counts a manifest read.
func (ld *loader) countRead() {
	ld.loaded++
	if ld.opts.Read != nil {
		ld.opts.Read()
	}
}

// parses reports whether src is valid YAML in a known encoding.
func parses(name string, src []byte) bool {
	if _, _, _, ok := input.Encoding(src); !ok {
		return false
	}
	_, err := decodeDocuments(name, src)
	return err == nil
}

// ignoreHint ends the error of a file met in a directory walk.
const ignoreHint = " (if this file is not meant to be checked, list it under `ignore:` in .retrylint.yaml)"

func (ld *loader) skip(file, why string) {
	ld.skipped = append(ld.skipped, Skip{File: file, Why: why})
}

// source loads the documents of src; it reports whether one was of a known
// kind.
func (ld *loader) source(name, abs string, src []byte) (bool, error) {
	if line, col, msg, ok := input.Encoding(src); !ok {
		return false, &InputError{Pos: Pos{File: name, Line: line, Col: col}, Msg: msg}
	}
	docs, err := decodeDocuments(name, src)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			ie.Msg += workflows.QuoteHint(src, ie.Pos.Line, ie.Msg)
		}
		if !manifestExt(name) {
			// Not YAML at all (a README, a licence, HCL): of no known kind.
			return false, nil
		}
		return false, err
	}
	if topologyFileName(filepath.Base(name)) {
		if err := notTopologyFile(name, docs); err != nil {
			return false, err
		}
	}
	known := false
	for _, doc := range docs {
		ok, err := ld.document(name, abs, doc)
		if err != nil {
			return false, err
		}
		known = known || ok
	}
	return known, nil
}

// document detects the kind of one YAML document from its content and
// loads it.
func (ld *loader) document(name, abs string, doc *yaml.Node) (bool, error) {
	r := root(doc)
	if r == nil {
		return false, nil
	}
	if r.Kind == yaml.MappingNode {
		if isTopologyFile(r) {
			return true, ld.topologyFile(name, abs, r)
		}
		if cs, ok, err := loadManifest(name, r); ok || err != nil {
			if err != nil {
				return true, err
			}
			ld.manifests = append(ld.manifests, cs...)
			return true, nil
		}
	}
	if looksLikeWorkflow(doc) {
		c, err := loadWorkflow(name, doc)
		if err != nil {
			return true, err
		}
		ld.manifests = append(ld.manifests, c)
		return true, nil
	}
	return false, nil
}

// workflowName is a workflow's component name: its file stem, without a
// ".workflows" or ".workflow" suffix.
func workflowName(file string) string {
	base := filepath.Base(filepath.FromSlash(file))
	for _, ext := range []string{".yaml", ".yml", ".json"} {
		if strings.HasSuffix(strings.ToLower(base), ext) {
			base = base[:len(base)-len(ext)]
			break
		}
	}
	for _, suf := range []string{".workflows", ".workflow"} {
		base = strings.TrimSuffix(base, suf)
	}
	return base
}

// LoadBytes loads one in-memory file named name (for tests and fuzzing):
// the same detection, decoding and linking as Load. Includes are refused,
// as for a file outside the given roots.
func LoadBytes(name string, src []byte, opts Options) (*Graph, error) {
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if int64(len(src)) > opts.MaxFileSize {
		return nil, &InputError{Pos: Pos{File: name}, Msg: fmt.Sprintf("file is larger than %d bytes; not read", opts.MaxFileSize)}
	}
	ld := &loader{opts: opts, seen: map[string]bool{}, supp: &Suppressions{}, roots: []string{"\x00in-memory"}}
	if terraformFile(name) {
		m, err := terraform.ParseBytes(name, src, terraform.Options{MaxFileSize: opts.MaxFileSize})
		if err != nil {
			return nil, terraformError(err)
		}
		if err := ld.terraformModule(m); err != nil {
			return nil, err
		}
		return ld.link()
	}
	ld.supp.scan(name, src)
	known, err := ld.source(name, "\x00in-memory/"+name, src)
	if err != nil {
		return nil, err
	}
	if !known {
		ld.skip(name, SkipUnknown)
	}
	return ld.link()
}
