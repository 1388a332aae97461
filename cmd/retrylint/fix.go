package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzer/all"
	"github.com/retrylint/retrylint/config"
	"github.com/retrylint/retrylint/model"
)

// fixRequest is what --fix and --diff are asked to do.
type fixRequest struct {
	dir      string
	cfg      *config.Config
	tests    bool
	tags     []string // build tags, as go build -tags
	diff     bool     // print a unified diff instead of writing the files
	patterns []string
	watch    *watch
}

// flag is the flag that asked for the fixes, for messages.
func (r fixRequest) flag() string {
	if r.diff {
		return "--diff"
	}
	return "--fix"
}

// edit is one text edit of a suggested fix: bytes [start, end) of file
// become text.
type edit struct {
	file       string
	start, end int
	text       string
}

// fileFix is what the fixes do to one file.
type fileFix struct {
	file     string
	old, new []byte
	edits    []edit // sorted, disjoint
}

// fixPlan is the fixes to apply, file by file, and what was left out.
type fixPlan struct {
	files   []*fileFix // sorted by file
	notes   []string   // files left alone and why, fixes that conflict
	partial bool       // a fix was left out
}

// runFix is "retrylint code --fix" and "--diff": check that the packages
// load, apply (or show) the suggested fixes, and with --fix report what is
// left. A fix is applied only to a regular file of the main module,
// never through a symbolic link, never under GOROOT, GOMODCACHE or
// vendor/; fixes that conflict with others are left out. What is left out
// is said, and the exit status is then at least 1. The files are written
// whole or not at all: on a failed write none is changed, exit status 2.
func runFix(cmd *cobra.Command, flags *codeFlags, req fixRequest) error {
	cc := codeConfig{Dir: req.dir, Patterns: req.patterns, Tests: req.tests, Tags: req.tags,
		Classifiers: req.cfg.Classifiers, RetryHelpers: req.cfg.RetryHelpers, Watch: req.watch}
	res, graph, err := analyseCodeOrExit(cmd, cc)
	if err != nil {
		return err
	}
	plan, err := planFixes(graph, req)
	if err != nil {
		return err
	}
	for _, n := range plan.notes {
		fmt.Fprintf(cmd.ErrOrStderr(), "retrylint: %s: %s\n", req.flag(), n)
	}
	if req.diff {
		var b strings.Builder
		for _, f := range plan.files {
			b.WriteString(unifiedDiff(relPath(req.dir, f.file), f.old, f.edits))
		}
		if _, err := io.WriteString(cmd.OutOrStdout(), b.String()); err != nil {
			return err
		}
		if len(plan.files) > 0 || plan.partial {
			return exitCode(1)
		}
		return nil
	}
	if err := writeFixes(plan.files, req.dir); err != nil {
		return fmt.Errorf("--fix: %v", err)
	}
	if len(plan.files) > 0 { // what is left after the fixes
		if res, _, err = analyseCodeOrExit(cmd, cc); err != nil {
			return err
		}
	}
	if err := flags.gate.apply(res, req.cfg, req.dir, cmd.ErrOrStderr()); err != nil {
		return err
	}
	if err := flags.write(res, cmd.OutOrStdout()); err != nil {
		return err
	}
	err = verdict(res.Findings, flags.failOn)
	if err == nil && plan.partial {
		return exitCode(1)
	}
	return err
}

// planFixes gathers the first suggested fix of every diagnostic of the
// rules the configuration keeps, in the files it does not ignore, and
// merges them file by file.
func planFixes(graph *checker.Graph, req fixRequest) (*fixPlan, error) {
	fixes, pkgOf, generated := suggestedFixes(graph, req.cfg, req.dir)
	plan := &fixPlan{}
	if len(fixes) == 0 {
		return plan, nil
	}
	dirs, err := goDirs(req.dir)
	if err != nil {
		return nil, err
	}
	refused := make(map[string]string) // file: why no fix may change it
	for _, fix := range fixes {
		for _, e := range fix {
			if _, ok := refused[e.file]; ok {
				continue
			}
			why := dirs.refusal(e.file, pkgOf[e.file].Module)
			if generated[e.file] {
				why = "it is generated (a \"Code generated ... DO NOT EDIT.\" comment)"
			}
			refused[e.file] = why
			if why != "" {
				plan.notes = append(plan.notes, fmt.Sprintf("%s: not changed: %s; fixes change only the main module's own regular files", relPath(req.dir, e.file), why))
			}
		}
	}
	byFile := make(map[string]*fileFix)
	conflicts := 0
	for _, fix := range fixes {
		if slices.ContainsFunc(fix, func(e edit) bool { return refused[e.file] != "" }) {
			plan.partial = true
			continue
		}
		if slices.ContainsFunc(fix, func(e edit) bool { return overlaps(byFile[e.file], e) }) {
			conflicts++
			continue
		}
		for _, e := range fix {
			f := byFile[e.file]
			if f == nil {
				f = &fileFix{file: e.file}
				byFile[e.file] = f
			}
			f.edits = append(f.edits, e)
		}
	}
	switch {
	case conflicts == 1:
		plan.notes = append(plan.notes, fmt.Sprintf("1 fix conflicts with another and is left out; run %s again to apply it", req.flag()))
	case conflicts > 1:
		plan.notes = append(plan.notes, fmt.Sprintf("%d fixes conflict with others and are left out; run %s again to apply them", conflicts, req.flag()))
	}
	plan.partial = plan.partial || conflicts > 0
	for _, f := range byFile {
		if err := f.apply(pkgOf[f.file].Fset); err != nil {
			plan.partial = true
			plan.notes = append(plan.notes, fmt.Sprintf("%s: not changed: %v", relPath(req.dir, f.file), err))
			continue
		}
		plan.files = append(plan.files, f)
	}
	slices.SortFunc(plan.files, func(a, b *fileFix) int { return strings.Compare(a.file, b.file) })
	slices.Sort(plan.notes)
	return plan, nil
}

// suggestedFixes are the first suggested fix of each diagnostic of the
// rules cfg keeps, outside the paths it ignores, each fix once (a package
// and its test variant report the same), as text edits; with them the
// package of each file, and which files are generated.
func suggestedFixes(graph *checker.Graph, cfg *config.Config, dir string) ([][]edit, map[string]*packages.Package, map[string]bool) {
	ruleOf := make(map[*analysis.Analyzer]string)
	for _, r := range all.Rules() {
		ruleOf[r.Analyzer] = r.Name
	}
	var fixes [][]edit
	seen := make(map[string]bool)
	pkgOf := make(map[string]*packages.Package)
	generated := make(map[string]bool)
	for _, act := range graph.Roots {
		rule, ok := ruleOf[act.Analyzer]
		if !ok || act.Err != nil {
			continue
		}
		for _, f := range act.Package.Syntax {
			generated[act.Package.Fset.File(f.FileStart).Name()] = ast.IsGenerated(f)
		}
		for _, d := range act.Diagnostics {
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			f := toFinding(act.Package.Fset, d, rule, dir)
			if cfg.Severity[f.Rule] == config.Off || cfg.Ignored(act.Package.Fset.Position(d.Pos).Filename) {
				continue
			}
			fix, key := textEdits(act.Package.Fset, d.SuggestedFixes[0])
			if len(fix) == 0 || seen[key] {
				continue
			}
			seen[key] = true
			for _, e := range fix {
				pkgOf[e.file] = act.Package
			}
			fixes = append(fixes, fix)
		}
	}
	slices.SortStableFunc(fixes, func(a, b []edit) int {
		if c := strings.Compare(a[0].file, b[0].file); c != 0 {
			return c
		}
		return a[0].start - b[0].start
	})
	return fixes, pkgOf, generated
}

// textEdits converts a fix to edits sorted by file and offset, and a key
// that is the same for the same edits.
func textEdits(fset *token.FileSet, fix analysis.SuggestedFix) ([]edit, string) {
	var out []edit
	for _, te := range fix.TextEdits {
		tf := fset.File(te.Pos)
		if tf == nil {
			return nil, ""
		}
		end := te.End
		if !end.IsValid() {
			end = te.Pos
		}
		out = append(out, edit{file: tf.Name(), start: tf.Offset(te.Pos), end: tf.Offset(end), text: string(te.NewText)})
	}
	slices.SortFunc(out, func(a, b edit) int {
		if c := strings.Compare(a.file, b.file); c != 0 {
			return c
		}
		return a.start - b.start
	})
	return out, fmt.Sprint(out)
}

// overlaps reports whether e touches the text an edit already planned for
// its file changes, or inserts where another inserts.
func overlaps(f *fileFix, e edit) bool {
	if f == nil {
		return false
	}
	for _, o := range f.edits {
		if e.start < o.end && o.start < e.end || e.start == o.start {
			return true
		}
	}
	return false
}

// apply reads the file and computes its fixed content. A file whose size
// is not the size the analysis read was changed meanwhile.
func (f *fileFix) apply(fset *token.FileSet) error {
	slices.SortFunc(f.edits, func(a, b edit) int { return a.start - b.start })
	old, err := os.ReadFile(f.file)
	if err != nil {
		return err
	}
	size := -1
	fset.Iterate(func(tf *token.File) bool {
		if tf.Name() == f.file {
			size = tf.Size()
			return false
		}
		return true
	})
	if size != len(old) {
		return errors.New("it changed since it was analysed")
	}
	var b strings.Builder
	at := 0
	for _, e := range f.edits {
		b.WriteString(string(old[at:e.start]))
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(string(old[at:]))
	f.old, f.new = old, []byte(b.String())
	return nil
}

// toolDirs are the go command's own trees, which fixes never change.
type toolDirs struct{ goroot, modcache string }

// goDirs asks the go command for GOROOT and GOMODCACHE as it sees them in
// dir, with symbolic links resolved.
func goDirs(dir string) (toolDirs, error) {
	cmd := exec.Command("go", "env", "GOROOT", "GOMODCACHE")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return toolDirs{}, fmt.Errorf("go env GOROOT GOMODCACHE: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	real := func(i int) string {
		if i >= len(lines) || strings.TrimSpace(lines[i]) == "" {
			return ""
		}
		p := strings.TrimSpace(lines[i])
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return p
	}
	return toolDirs{goroot: real(0), modcache: real(1)}, nil
}

// refusal says why a fix may not change file, a file of a package of
// module mod; "" when it may: a regular file of a main module, reached
// from the module's directory without a symbolic link, not under vendor/,
// GOROOT or GOMODCACHE.
func (d toolDirs) refusal(file string, mod *packages.Module) string {
	if mod == nil || !mod.Main || mod.Dir == "" {
		return "it is not in the main module"
	}
	rel, err := filepath.Rel(mod.Dir, file)
	if err != nil || !filepath.IsLocal(rel) {
		return "it is not in the main module's directory"
	}
	names := strings.Split(rel, string(filepath.Separator))
	if slices.Contains(names, "vendor") {
		return "it is under vendor/"
	}
	p := mod.Dir
	for _, name := range names {
		p = filepath.Join(p, name)
		fi, err := os.Lstat(p)
		switch {
		case err != nil:
			return err.Error()
		case fi.Mode()&fs.ModeSymlink != 0:
			return "it is reached through the symbolic link " + filepath.ToSlash(p)
		case p == file && !fi.Mode().IsRegular():
			return "it is not a regular file"
		}
	}
	real, err := filepath.EvalSymlinks(file)
	if err != nil {
		return err.Error()
	}
	for _, t := range []struct{ name, dir string }{{"GOROOT", d.goroot}, {"GOMODCACHE", d.modcache}} {
		if t.dir != "" && within(t.dir, real) {
			return "it is under " + t.name + " (" + t.dir + ")"
		}
	}
	return ""
}

// writeFixes writes the fixed files, each through a temporary file beside
// it with its mode; only once every one is written whole are they renamed
// over the sources. On a failed write, no source is changed; the error
// says which files were, should a rename fail.
func writeFixes(files []*fileFix, dir string) error {
	var staged []*stagedFile
	defer func() {
		for _, s := range staged {
			s.discard()
		}
	}()
	for _, f := range files {
		fi, err := os.Lstat(f.file)
		if err != nil {
			return err
		}
		s, err := stageFile(f.file, fi.Mode().Perm(), fi, func(w io.Writer) error {
			_, err := w.Write(f.new)
			return err
		})
		if err != nil {
			return fmt.Errorf("%s: %v; no file was changed", relPath(dir, f.file), err)
		}
		staged = append(staged, s)
	}
	for i, s := range staged {
		if err := s.commit(); err != nil {
			return fmt.Errorf("%s: %v; %d of %d files were fixed before it, it and the rest were not", relPath(dir, s.path), err, i, len(staged))
		}
	}
	return nil
}

// analyseCodeOrExit runs the analyzers; packages that do not load are
// printed and end the run with exit status 2.
func analyseCodeOrExit(cmd *cobra.Command, cc codeConfig) (*model.Result, *checker.Graph, error) {
	res, graph, err := analyseCode(cc, all.Rules())
	var inErr *inputError
	if errors.As(err, &inErr) {
		for _, line := range inErr.lines {
			fmt.Fprintln(cmd.ErrOrStderr(), line)
		}
		return nil, nil, exitCode(2)
	}
	return res, graph, err
}
