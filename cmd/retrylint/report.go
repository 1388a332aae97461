package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/retrylint/retrylint/analyzer/all"
	"github.com/retrylint/retrylint/codelayer"
	"github.com/retrylint/retrylint/config"
	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/report"
	"github.com/retrylint/retrylint/topology"
)

// reportFlags are the flags of "retrylint report".
type reportFlags struct {
	out      outputFlags
	gate     gateFlags
	code     []string // go/packages patterns
	topology []string // manifest paths
	base     string   // a directory or a git ref
	budget   int
	tests    bool
	tags     []string
	linkBase string
	run      runFlags
}

// newReportCmd is "retrylint report": both halves in one review report.
func newReportCmd() *cobra.Command {
	f := &reportFlags{out: outputFlags{formats: []string{"markdown", "json", "sarif", "dot", "github", "codeclimate"}}}
	cmd := &cobra.Command{
		Use:   "report [flags]",
		Short: "One pre-merge report over Go code and infrastructure, optionally against a base",
		Long: `Runs both halves — the code analyzers over --code packages and the topology
rules over --topology manifests — and writes one report: Markdown for a
pull-request comment (a verdict line, per triggering event a diagram of the
retry layers and a table of worst-case executions, the findings by rule),
SARIF for code scanning, JSON for machines, or the layer graph for Graphviz.

With --base, the same analysis runs on the base too — a directory with the
same layout as the working directory, or a git ref checked out into a
temporary worktree — and the report says what changed: findings new and
fixed, and the worst-case executions per component before and after. A
name is resolved as a git commit first; a directory named like the ref is
taken only when written as a path (./origin/main).

Exit status: 0 nothing at or above --fail-on, 1 findings at or above it,
2 invalid input (with file:line:col), a bad flag or configuration.`,
		Example: `  retrylint report --code ./... --topology infra/ -o report.md
  retrylint report --topology infra/ --base origin/main --format markdown
  retrylint report --code ./... --topology infra/ --format sarif -o retrylint.sarif`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run.within(cmd, func(w *watch) error {
				return runReport(cmd.OutOrStdout(), cmd.ErrOrStderr(), f, w)
			})
		},
	}
	f.out.register(cmd)
	f.gate.register(cmd)
	fl := cmd.Flags()
	fl.StringSliceVar(&f.code, "code", nil, "Go package `PATTERNS` to check (comma-separated or repeated), e.g. ./...")
	fl.StringSliceVar(&f.topology, "topology", nil, "manifest `PATHS` to check: files, directories, globs (comma-separated or repeated)")
	fl.StringVar(&f.base, "base", "", "compare with the base `DIR_OR_GIT_REF`: a directory laid out as the working directory, or a git ref")
	fl.IntVar(&f.budget, "budget", 0, "the most executions `N` of any component per event (default: the topology file's, then the configuration's)")
	fl.BoolVar(&f.tests, "tests", false, "also check the _test.go files of the packages")
	fl.StringSliceVar(&f.tags, "tags", nil, "build tags to load the --code packages with, comma-separated, as go build -tags")
	_ = fl.MarkHidden("color") // no format of this command has colour
	f.run.register(cmd, "say on standard error how long each phase took: load, analyse, topology, write")
	fl.StringVar(&f.linkBase, "link-base", "", "Markdown: link each file:line to `URL`/file#Lline, e.g. https://github.com/OWNER/REPO/blob/SHA")
	return cmd
}

// runReport is the whole command; nothing is written when an input, of
// the head or of the base, is invalid.
func runReport(stdout, stderr io.Writer, f *reportFlags, w *watch) error {
	if err := f.validate(); err != nil {
		return err
	}
	wd, cfg, err := f.gate.workConfig()
	if err != nil {
		return err
	}
	warnMisnamedConfig(stderr, &f.gate, wd, cfg)
	paths := pathsAt(wd, f.out.paths)
	newBase, err := f.gate.newFrom.prepare(wd, paths)
	if err != nil {
		return err
	}
	a := &reportRun{flags: f, cfg: cfg, wd: wd, stderr: stderr, watch: w}
	res, err := a.run(wd, "")
	if err != nil {
		return err
	}
	if f.base != "" {
		baseRoot, cleanup, err := checkoutBase(wd, f.base)
		if err != nil {
			return err
		}
		baseRes, err := func() (*model.Result, error) {
			defer cleanup() // on a panic in the analysis too
			return a.run(baseRoot, f.base)
		}()
		if err != nil {
			return err
		}
		res.Changes = model.Compare(baseRes, res)
		res.Changes.Base = f.base
		if newBase.sameCommit(wd, f.base) {
			newBase.reuse(baseRes) // one analysis of the base for both
		}
	}
	if err := f.gate.applyBaseline(res, stderr); err != nil {
		return err
	}
	gated, err := newBase.narrow(res, f.out.writes("github"), wd, analyseWith(*a, f.gate.newFrom.rev), stderr)
	if err != nil {
		return err
	}
	written := newPathWriter(paths, stderr)
	written.result(res)
	newBase.note(written, stderr)
	f.out.source, f.out.annotate = written.source, newBase.annotations
	opts := f.out.renderOptions(stdout)
	opts.linkBase = f.linkBase
	stop := w.start("write")
	err = f.out.writeWith(res, stdout, opts)
	stop()
	if err != nil {
		return err
	}
	return verdict(gated, f.out.failOn)
}

// validate checks the flags before any work is done.
func (f *reportFlags) validate() error {
	if err := f.out.validate(); err != nil {
		return err
	}
	if err := f.gate.validate(); err != nil {
		return err
	}
	if len(f.code) == 0 && len(f.topology) == 0 {
		return errors.New("report: nothing to check: give --code PATTERNS, --topology PATHS or both")
	}
	if err := validateTags(f.tags); err != nil {
		return err
	}
	if f.budget < 0 {
		return fmt.Errorf("--budget: want a positive number, got %d", f.budget)
	}
	return nil
}

// reportRun runs both halves over one tree: the working directory, or the
// base checked out with the same layout.
type reportRun struct {
	flags  *reportFlags
	cfg    *config.Config
	wd     string // the working directory; the flags' paths are relative to it
	stderr io.Writer
	watch  *watch
}

// run analyses the tree whose working directory is root; base names the
// base in errors ("" for the working tree). Findings are configured
// (severity, off, ignore) and sorted; paths are relative to root.
func (a *reportRun) run(root, base string) (*model.Result, error) {
	cfg := a.configAt(root)
	res := newResult()
	var shared *codelayer.Index
	if len(a.flags.code) > 0 {
		code, graph, err := analyseCode(codeConfig{Dir: root, Patterns: a.flags.code, Tests: a.flags.tests, Tags: a.flags.tags,
			Classifiers: cfg.Classifiers, RetryHelpers: cfg.RetryHelpers, Watch: a.watch}, all.Rules())
		var inErr *inputError
		if errors.As(err, &inErr) {
			for _, line := range inErr.lines {
				fmt.Fprintln(a.stderr, report.EscapeLineStart(baseLabel(base)+line))
			}
			return nil, exitCode(2)
		}
		if err != nil {
			return nil, fmt.Errorf("%s%w", baseLabel(base), err)
		}
		res.Findings = append(res.Findings, code.Findings...)
		res.Scope = append(res.Scope, code.Scope...)
		// The topology's app layer reads the same analysis.
		shared = codelayer.FromGraph(graph, root)
	}
	if len(a.flags.topology) > 0 {
		top, err := a.topology(root, base != "", cfg, shared)
		if err != nil {
			return nil, fmt.Errorf("%s%w", baseLabel(base), err)
		}
		res.Findings = append(res.Findings, top.Findings...)
		res.Chains = top.Chains
		res.Scope = append(res.Scope, top.Scope...)
	}
	res.Findings = cfg.Apply(res.Findings, root)
	res.Sort()
	return res, nil
}

// baseLabel prefixes the errors of the base's analysis.
func baseLabel(base string) string {
	if base == "" {
		return ""
	}
	return "base " + base + ": "
}

// configAt is the configuration as it applies to the tree at root: the
// same settings, with ignore patterns relative to the same place in that
// tree as the configuration file is in the working tree.
func (a *reportRun) configAt(root string) *config.Config {
	if root == a.wd || a.cfg.Dir == "" {
		return a.cfg
	}
	c := *a.cfg
	if rel, err := filepath.Rel(a.wd, a.cfg.Dir); err == nil {
		c.Dir = filepath.Join(root, rel)
	}
	return &c
}

// topology loads the --topology paths under root, multiplies attempts and
// runs the topology rules, as "retrylint topology" does. In the base
// (inBase), a path the base does not have is skipped: the change added it.
// The Go packages of apps with `source:` are read from shared when the
// --code analysis holds them, and analysed otherwise.
func (a *reportRun) topology(root string, inBase bool, cfg *config.Config, shared *codelayer.Index) (*model.Result, error) {
	var paths []string
	for _, p := range a.flags.topology {
		q, ok, err := a.pathIn(root, p, inBase)
		if err != nil {
			return nil, err
		}
		if ok {
			paths = append(paths, q)
		}
	}
	if len(paths) == 0 {
		return &model.Result{}, nil // the base has none of the paths
	}
	res, _, err := checkTopology(paths, topology.Options{WorkDir: root, Skip: cfg.Ignored, Code: codeLoader(root, cfg, a.flags.tags, shared, a.watch)}, a.flags.budget, cfg.Budget, a.watch)
	return res, err
}

// pathIn maps a --topology path, relative to the working directory, into
// the tree at root. In the base, it reports false for a path or a pattern
// that matches nothing there.
func (a *reportRun) pathIn(root, p string, inBase bool) (string, bool, error) {
	if !inBase {
		return p, true, nil
	}
	rel := p
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(a.wd, p)
		if err != nil || !filepath.IsLocal(r) {
			return "", false, fmt.Errorf("--topology %s: outside the working directory, so it has no counterpart in the base", p)
		}
		rel = r
	}
	q := filepath.Join(root, rel)
	if strings.ContainsAny(rel, "*?[") {
		m, err := filepath.Glob(q)
		return q, err == nil && len(m) > 0, nil
	}
	_, err := os.Stat(q)
	return q, err == nil, nil
}

// checkoutBase makes the base available as a directory with the same
// layout as wd: the git ref checked out into a temporary worktree of wd's
// repository, or else base itself when it is a directory. A ref is
// resolved as a commit, never as a path, so a directory of the change
// named like the ref (origin/main/) cannot stand in for it; a directory
// is taken for a name that is no ref, or one written as a path (./x,
// ../x, /x). cleanup removes the worktree.
func checkoutBase(wd, base string) (root string, cleanup func(), err error) {
	if writtenAsPath(base) {
		return baseDir(base, fmt.Sprintf("--base %s: not a directory", base))
	}
	top, err := git(wd, "rev-parse", "--show-toplevel")
	if err != nil {
		return baseDir(base, fmt.Sprintf("--base %s: not a directory, and %s is not in a git repository", base, wd))
	}
	commit, err := git(top, "rev-parse", "--verify", "--quiet", "--end-of-options", base+"^{commit}")
	if err != nil {
		if remote := remoteOf(top, base); remote != "" {
			return "", nil, fmt.Errorf("--base %s: no such ref of remote %s in %s (fetch it first, e.g. actions/checkout with fetch-depth: 0); a directory is taken for the base only when written as a path, e.g. ./%s",
				base, remote, top, filepath.ToSlash(base))
		}
		return baseDir(base, fmt.Sprintf("--base %s: neither a directory nor a git ref of %s", base, top))
	}
	return checkoutCommit(top, wd, "--base "+base, commit)
}

// writtenAsPath reports whether base is written as a path, which no git
// ref can be: absolute, or starting with ./ or ../.
func writtenAsPath(base string) bool {
	b := filepath.ToSlash(base)
	return filepath.IsAbs(base) || b == "." || b == ".." || strings.HasPrefix(b, "./") || strings.HasPrefix(b, "../")
}

// baseDir is the directory base, or the error notDir when it is none.
func baseDir(base, notDir string) (string, func(), error) {
	if fi, err := os.Stat(base); err != nil || !fi.IsDir() {
		return "", nil, errors.New(notDir)
	}
	abs, err := filepath.Abs(base)
	return abs, func() {}, err
}

// remoteOf is the remote of the repository at top whose refs base names
// (origin for origin/main), or "".
func remoteOf(top, base string) string {
	out, err := git(top, "remote")
	if err != nil {
		return ""
	}
	for _, r := range strings.Fields(out) {
		if strings.HasPrefix(filepath.ToSlash(base), r+"/") {
			return r
		}
	}
	return ""
}

// checkoutCommit checks commit out into a temporary worktree of the
// repository at top and returns the counterpart of wd in it; flag names
// the flag that asked for it in errors ("--base main").
func checkoutCommit(top, wd, flag, commit string) (root string, cleanup func(), err error) {
	realWD, err := filepath.EvalSymlinks(wd)
	if err != nil {
		return "", nil, err
	}
	sub, err := filepath.Rel(top, realWD)
	if err != nil || !filepath.IsLocal(sub) {
		return "", nil, fmt.Errorf("%s: the working directory is outside %s", flag, top)
	}
	tmp, err := os.MkdirTemp("", "retrylint-base-")
	if err != nil {
		return "", nil, err
	}
	tree := filepath.Join(tmp, "tree")
	remove := func() {
		// Best effort: a worktree left behind is pruned by the next run.
		git(top, "worktree", "remove", "--force", tree)
		os.RemoveAll(tmp)
		git(top, "worktree", "prune")
	}
	// Recorded before the checkout starts, so that SIGINT or SIGTERM
	// during it or during the analysis removes the worktree and its
	// .git/worktrees entry.
	forget := pending.add(remove)
	cleanup = func() {
		forget()
		remove()
	}
	if _, err := git(top, "worktree", "add", "--detach", "--quiet", tree, commit); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("%s: cannot check it out: %v", flag, err)
	}
	return filepath.Join(tree, sub), cleanup, nil
}

// git runs git in dir and returns its trimmed standard output.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errOut.String()); msg != "" {
			return "", errors.New(msg)
		}
		return "", err
	}
	return strings.TrimSpace(out.String()), nil
}
