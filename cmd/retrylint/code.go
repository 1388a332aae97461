package main

import (
	"errors"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/spf13/cobra"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzer/all"
	"github.com/retrylint/retrylint/analyzer/retryconfig"
	"github.com/retrylint/retrylint/analyzer/retryloop"
	"github.com/retrylint/retrylint/codelayer"
	"github.com/retrylint/retrylint/config"
	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/report"
)

// codeFlags are the flags of "retrylint code".
type codeFlags struct {
	outputFlags
	gate  gateFlags
	tests bool
	tags  []string
	fix   bool // apply the suggested fixes
	diff  bool // print the suggested fixes as a unified diff
	run   runFlags
}

func newCodeCmd() *cobra.Command {
	flags := &codeFlags{outputFlags: outputFlags{formats: []string{"text", "json", "sarif", "markdown", "github", "codeclimate"}}}
	cmd := &cobra.Command{
		Use:   "code [flags] [PACKAGES...]",
		Short: "Check Go packages for retry loops that storm a struggling dependency",
		Long: `Check Go packages for retry loops that storm a struggling dependency.

PACKAGES are go build patterns ("./...", "example.com/m/pkg"); the default is
the package in the current directory. The packages must type-check: a load or
type error is printed as file:line:col and ends the run with exit status 2,
without a report.

Settings come from .retrylint.yaml (found upward from the working directory)
or --config: per-rule severity or off, ignored paths, extra classifiers and
retry helpers. --baseline accepts the findings recorded in a baseline file.

"retrylint rules" lists the rules; "retrylint explain RULE" explains one.`,
		Example: `  retrylint code ./...
  retrylint code --format json --output retrylint.json ./...
  retrylint code --format sarif -o retrylint.sarif ./...
  retrylint code --baseline .retrylint-baseline.json --write-baseline ./...
  retrylint code --new-from-rev origin/main ./...   # only what the change adds
  retrylint code --diff ./...    # the suggested fixes, as a unified diff
  retrylint code --fix ./...     # apply them
  go vet -vettool=$(command -v retrylint) ./...`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return flags.run.within(cmd, func(w *watch) error {
				return runCode(cmd, flags, args, w)
			})
		},
	}
	flags.register(cmd)
	flags.gate.register(cmd)
	flags.run.register(cmd, "say on standard error how long each phase took: load, analyse, write")
	cmd.Flags().BoolVar(&flags.tests, "tests", false, "also check the _test.go files of the packages")
	cmd.Flags().StringSliceVar(&flags.tags, "tags", nil, "build tags to load the packages with, comma-separated, as go build -tags")
	cmd.Flags().BoolVar(&flags.fix, "fix", false, "apply the suggested fixes, then report what is left")
	cmd.Flags().BoolVar(&flags.diff, "diff", false, "print the suggested fixes as a unified diff; change no file")
	return cmd
}

// runCode is "retrylint code": check, report, and turn the findings into
// the exit status.
func runCode(cmd *cobra.Command, flags *codeFlags, patterns []string, w *watch) error {
	if err := flags.validate(); err != nil {
		return err
	}
	if err := flags.gate.validate(); err != nil {
		return err
	}
	if err := validateTags(flags.tags); err != nil {
		return err
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	if f := flags.gate.newFrom.flag(); f != "" && (flags.fix || flags.diff) {
		return fmt.Errorf("%s: not with --fix or --diff, which change every finding's code", f)
	}
	dir, cfg, err := flags.gate.workConfig()
	if err != nil {
		return err
	}
	warnMisnamedConfig(cmd.ErrOrStderr(), &flags.gate, dir, cfg)
	if flags.diff && flags.format != "text" {
		fmt.Fprintf(cmd.ErrOrStderr(), "retrylint: warning: --format %s is ignored: --diff prints the suggested fixes as a unified diff\n", flags.format)
	}
	if flags.fix || flags.diff {
		return runFix(cmd, flags, fixRequest{dir: dir, cfg: cfg, tests: flags.tests, tags: flags.tags, diff: flags.diff, patterns: patterns, watch: w})
	}
	paths := pathsAt(dir, flags.paths)
	base, err := flags.gate.newFrom.prepare(dir, paths)
	if err != nil {
		return err
	}
	res, err := checkCode(codeConfig{Dir: dir, Patterns: patterns, Tests: flags.tests, Tags: flags.tags,
		Classifiers: cfg.Classifiers, RetryHelpers: cfg.RetryHelpers, Watch: w}, all.Rules())
	var inErr *inputError
	if errors.As(err, &inErr) {
		for _, line := range inErr.lines {
			fmt.Fprintln(cmd.ErrOrStderr(), report.EscapeLineStart(line))
		}
		return exitCode(2)
	}
	if err != nil {
		return err
	}
	if err := flags.gate.apply(res, cfg, dir, cmd.ErrOrStderr()); err != nil {
		return err
	}
	baseRun := reportRun{flags: &reportFlags{code: patterns, tests: flags.tests, tags: flags.tags}, cfg: cfg, wd: dir, watch: w}
	gated, err := base.narrow(res, flags.writes("github"), dir, analyseWith(baseRun, flags.gate.newFrom.rev), cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	written := newPathWriter(paths, cmd.ErrOrStderr())
	written.result(res)
	base.note(written, cmd.ErrOrStderr())
	flags.source, flags.annotate = written.source, base.annotations
	stop := w.start("write")
	err = flags.write(res, cmd.OutOrStdout())
	stop()
	if err != nil {
		return err
	}
	return verdict(gated, flags.failOn)
}

// codeConfig says what checkCode checks.
type codeConfig struct {
	Dir      string   // working directory: patterns and reported paths are relative to it
	Patterns []string // go/packages patterns
	Tests    bool     // also check _test.go files
	Tags     []string // build tags, as go build -tags

	// Classifiers and RetryHelpers extend the analyzers (the settings of
	// the retryconfig analyzer), from the configuration.
	Classifiers  []string
	RetryHelpers []config.RetryHelper

	// Watch times the phases and shows the progress; nil: neither.
	Watch *watch
}

// inputError reports packages that did not load or type-check, one
// "file:line:col: message" a line.
type inputError struct{ lines []string }

func (e *inputError) Error() string { return strings.Join(e.lines, "\n") }

// checkCode loads the packages of cfg and runs the analyzers of rules over
// them. Only the diagnostics of those analyzers are reported, not those of
// the analyzers they require. Packages that do not load or type-check give
// an *inputError and no result.
func checkCode(cfg codeConfig, rules []all.Rule) (*model.Result, error) {
	res, _, err := analyseCode(cfg, rules)
	return res, err
}

// analyseCode is checkCode that also returns the analysis, whose retry
// loops (the results of retryloop.Analyzer on every root package) the
// topology's app layer reads: one type-check for both halves.
func analyseCode(cfg codeConfig, rules []all.Rule) (*model.Result, *checker.Graph, error) {
	ruleOf := make(map[*analysis.Analyzer]string)
	analyzers := []*analysis.Analyzer{retryloop.Analyzer}
	for _, r := range rules {
		ruleOf[r.Analyzer] = r.Name
		analyzers = append(analyzers, r.Analyzer)
	}

	roots, err := loadRoots(cfg)
	if err != nil {
		return nil, nil, err
	}
	if err := retryconfig.Set(&retryconfig.Config{Classifiers: cfg.Classifiers, RetryHelpers: cfg.RetryHelpers, Tests: cfg.Tests}); err != nil {
		return nil, nil, err
	}
	graph, err := analyseRoots(cfg.Watch, analyzers, roots)
	if err != nil {
		return nil, nil, err
	}

	res := newResult()
	seen := make(map[model.Finding]bool)
	sites := make(map[*packages.Package]*codeSites)
	var failures, blocked []string
	for _, act := range graph.Roots {
		if _, ok := ruleOf[act.Analyzer]; !ok && act.Analyzer != retryloop.Analyzer {
			continue // the progress counter
		}
		if act.Err != nil {
			failure := fmt.Sprintf("%s: analyzer %s failed: %v", act.Package.PkgPath, act.Analyzer.Name, act.Err)
			if strings.HasPrefix(act.Err.Error(), "failed prerequisites") {
				blocked = append(blocked, failure)
			} else {
				failures = append(failures, failure)
			}
			continue
		}
		if _, ok := ruleOf[act.Analyzer]; !ok {
			continue // retryloop: read by the topology, reports nothing
		}
		for _, d := range act.Diagnostics {
			if sites[act.Package] == nil {
				sites[act.Package] = newCodeSites(act.Package.Fset, act.Package.Syntax)
			}
			f := toFinding(act.Package.Fset, d, ruleOf[act.Analyzer], cfg.Dir)
			f = placeFinding(f, d, act.Package.Fset, sites[act.Package].at(d.Pos))
			if !seen[f] { // report a repeated diagnostic once
				seen[f] = true
				res.Findings = append(res.Findings, f)
			}
		}
	}
	if len(failures) == 0 {
		failures = blocked // else the prerequisite's own failure says why
	}
	res.Scope = goFilesOf(roots, cfg.Dir)
	if len(failures) > 0 {
		slices.Sort(failures)
		return nil, nil, errors.New(strings.Join(failures, "\n"))
	}
	res.Sort()
	return res, graph, nil
}

// loadRoots loads the packages of cfg with syntax and types, and those of
// their modules they import, and returns the packages to analyse. Packages
// that do not load or type-check give an *inputError.
func loadRoots(cfg codeConfig) ([]*packages.Package, error) {
	defer cfg.Watch.start("load")()
	cfg.Watch.say("loading packages", true)
	listed, err := loadPackages(cfg, true)
	if err != nil {
		return nil, err
	}
	requested := make(map[string]bool)
	for _, p := range listed {
		requested[p.ID] = true
	}
	pkgs, err := withModuleDeps(cfg, listed)
	if err != nil {
		return nil, err
	}
	if lines := packageErrors(pkgs, cfg.Dir); len(lines) > 0 {
		if !inModule(cfg.Dir) {
			return nil, noModuleError(cfg.Dir)
		}
		if mayNeedTags(pkgs) {
			lines = append(lines, tagsHint(pkgs, cfg.Tags))
		}
		return nil, &inputError{lines}
	}
	var roots []*packages.Package
	for _, p := range analysisRoots(pkgs) {
		if requested[p.ID] {
			roots = append(roots, p)
		}
	}
	cfg.Watch.say("loaded "+pluralize(len(pkgs), "package", "packages"), true)
	return roots, nil
}

// analyseRoots runs analyzers over roots. With a progress line, one more
// analyzer, which runs on a package once the others are done there,
// counts the packages analysed.
func analyseRoots(w *watch, analyzers []*analysis.Analyzer, roots []*packages.Package) (*checker.Graph, error) {
	defer w.start("analyse")()
	if w != nil && w.progress != nil {
		var mu sync.Mutex
		done := 0
		analyzers = append(analyzers, &analysis.Analyzer{
			Name:     "progress",
			Doc:      "counts the packages analysed",
			Requires: slices.Clone(analyzers),
			Run: func(*analysis.Pass) (any, error) {
				mu.Lock()
				defer mu.Unlock()
				done++
				w.say(fmt.Sprintf("analysed %d/%d packages", done, len(roots)), done == len(roots))
				return nil, nil
			},
		})
	}
	return checker.Analyze(analyzers, roots, nil)
}

// loadPackages loads the packages of cfg; with syntax and types unless
// names is set, when it lists them and their dependencies by name and
// module only.
func loadPackages(cfg codeConfig, names bool) ([]*packages.Package, error) {
	mode := packages.LoadSyntax
	if names {
		mode = packages.NeedName | packages.NeedImports | packages.NeedDeps
	}
	var buildFlags []string
	if len(cfg.Tags) > 0 {
		buildFlags = []string{"-tags=" + strings.Join(cfg.Tags, ",")}
	}
	pkgs, err := packages.Load(&packages.Config{
		Mode:       mode | packages.NeedModule | packages.NeedCompiledGoFiles, // cgo's output, as go vet sees it
		Dir:        cfg.Dir,
		Tests:      cfg.Tests,
		BuildFlags: buildFlags,
	}, cfg.Patterns...)
	if err != nil && !inModule(cfg.Dir) {
		return nil, noModuleError(cfg.Dir)
	}
	if err != nil {
		return nil, goCommandError(err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%s matched no packages", strings.Join(cfg.Patterns, " "))
	}
	return pkgs, nil
}

// withModuleDeps loads the requested packages with syntax and types, and
// with them every package of their own modules that they import, directly
// or not: the analyzers read the helpers of a module through the facts of
// its packages. Packages of other modules and of the standard library come
// from export data: type-checking them from source would cost several
// times the analysis, for facts that retry rules do not need there
// (retry libraries are read by what they are, not through facts).
func withModuleDeps(cfg codeConfig, listed []*packages.Package) ([]*packages.Package, error) {
	modules := make(map[string]bool)
	for _, p := range listed {
		if p.Module != nil {
			modules[p.Module.Path] = true
		}
	}
	patterns := slices.Clone(cfg.Patterns)
	seen := make(map[string]bool)
	packages.Visit(listed, nil, func(p *packages.Package) {
		if p.Module != nil && modules[p.Module.Path] && !seen[p.PkgPath] && p.ForTest == "" && !strings.HasSuffix(p.PkgPath, ".test") {
			seen[p.PkgPath] = true
			patterns = append(patterns, p.PkgPath)
		}
	})
	cfg.Patterns = patterns
	return loadPackages(cfg, false)
}

// packageErrors lists the load, parse and type errors of pkgs and their
// dependencies, deduplicated, as "file:line:col: message" with the file
// relative to dir. A package's parse and type errors stand for the compiler
// output that go list reports for the same package.
func packageErrors(pkgs []*packages.Package, dir string) []string {
	var lines []string
	seen := make(map[string]bool)
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		precise := slices.ContainsFunc(p.Errors, func(e packages.Error) bool {
			return e.Kind != packages.ListError
		})
		for _, e := range p.Errors {
			if precise && e.Kind == packages.ListError {
				continue
			}
			line := fmt.Sprintf("%s: %s", p.ID, e.Msg)
			if missingDirectory(p.ID, e, dir) {
				line = p.ID + ": no such directory"
			}
			if e.Pos != "" && e.Pos != "-" {
				line = fmt.Sprintf("%s: %s", relPos(dir, e.Pos), e.Msg)
			}
			if !seen[line] {
				seen[line] = true
				lines = append(lines, line)
			}
		}
	})
	return lines
}

// tagsHint names the packages that did not load or type-check and says
// how to give the build tags or platform they may need.
func tagsHint(pkgs []*packages.Package, tags []string) string {
	var bad []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 {
			bad = append(bad, p.PkgPath)
		}
	})
	slices.Sort(bad)
	bad = slices.Compact(bad)
	if len(bad) > 5 {
		bad = append(bad[:5], fmt.Sprintf("and %d more", len(bad)-5))
	}
	with := "without build tags"
	if len(tags) > 0 {
		with = "with tags " + strings.Join(tags, ",")
	}
	return fmt.Sprintf("retrylint: %s did not type-check %s (%s); if the code needs build tags, give them with --tags a,b as to go build -tags, and for another platform set GOOS and GOARCH", strings.Join(bad, ", "), with, goPlatform())
}

// relPos rewrites the file of a "file:line:col" position relative to dir.
func relPos(dir, pos string) string {
	file, suffix := pos, ""
	for range 2 { // strip ":col" and ":line"
		i := strings.LastIndexByte(file, ':')
		if i < 0 {
			break
		}
		if _, err := strconv.Atoi(file[i+1:]); err != nil {
			break
		}
		file, suffix = file[:i], file[i:]+suffix
	}
	return relPath(dir, file) + suffix
}

// relPath is file relative to dir with "/" separators, or file itself
// (with "/") when it is not inside dir.
func relPath(dir, file string) string {
	if file == "" {
		return ""
	}
	if rel, err := filepath.Rel(dir, file); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(file)
}

// analysisRoots is the set of packages to analyze: pkgs without the
// generated test mains, and without a package whose in-package test variant
// ("p [p.test]", a superset of its files) is present too.
func analysisRoots(pkgs []*packages.Package) []*packages.Package {
	hasTestVariant := make(map[string]bool)
	for _, p := range pkgs {
		if p.ForTest != "" && p.PkgPath == p.ForTest {
			hasTestVariant[p.PkgPath] = true
		}
	}
	var roots []*packages.Package
	for _, p := range pkgs {
		testMain := strings.HasSuffix(p.ID, ".test")
		coveredByVariant := p.ForTest == "" && hasTestVariant[p.PkgPath]
		if !testMain && !coveredByVariant {
			roots = append(roots, p)
		}
	}
	return roots
}

// toFinding converts a diagnostic of the analyzer of rule. The rule is the
// diagnostic's Category when it has one; the "rule: " prefix that the
// message carries for go vet's output is removed.
func toFinding(fset *token.FileSet, d analysis.Diagnostic, rule, dir string) model.Finding {
	if d.Category != "" {
		rule = d.Category
	}
	pos := fset.Position(d.Pos)
	end := pos
	if d.End.IsValid() {
		end = fset.Position(d.End)
	}
	f := model.Finding{
		Rule:      rule,
		Severity:  all.Severity(rule),
		Message:   strings.TrimPrefix(d.Message, rule+": "),
		File:      relPath(dir, pos.Filename),
		Line:      pos.Line,
		Column:    pos.Column,
		EndLine:   end.Line,
		EndColumn: end.Column,
	}
	if len(d.SuggestedFixes) > 0 {
		f.Fix = d.SuggestedFixes[0].Message
	}
	return f
}

// placeFinding gives f, of diagnostic d, its site: the function and loop
// the baseline keys it on, and, for a finding about the loop as a whole
// (a point in the loop's header), a region over the header.
func placeFinding(f model.Finding, d analysis.Diagnostic, fset *token.FileSet, site codeSite) model.Finding {
	f.Function, f.Loop = site.function, site.loop
	point := !d.End.IsValid() || d.End == d.Pos
	if point && site.header.IsValid() && site.header <= d.Pos && d.Pos < site.headerEnd {
		end := fset.Position(site.headerEnd)
		f.EndLine, f.EndColumn = end.Line, end.Column
	}
	return f
}

// validateTags checks --tags against Go's build tag syntax (letters,
// digits, _ and .), so that nothing in them reaches the go command as
// anything but tags: they are passed as the value of -tags, never through
// GOFLAGS, whose spaces would split them into flags.
func validateTags(tags []string) error {
	for _, tag := range tags {
		if tag == "" || strings.ContainsFunc(tag, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '.'
		}) {
			return fmt.Errorf("--tags: %q is not a build tag: a tag has letters, digits, _ and . only (--tags a,b)", tag)
		}
	}
	return nil
}

// goPlatform is the GOOS/GOARCH the packages are loaded for.
func goPlatform() string {
	goos, goarch := os.Getenv("GOOS"), os.Getenv("GOARCH")
	if goos == "" {
		goos = runtime.GOOS
	}
	if goarch == "" {
		goarch = runtime.GOARCH
	}
	return goos + "/" + goarch
}

// codeLoader reads the Go packages that apps of a topology name with
// `source:`, with the settings of the configuration, reporting paths
// relative to wd; packages shared already holds are not analysed again.
func codeLoader(wd string, cfg *config.Config, tags []string, shared *codelayer.Index, w *watch) *codelayer.Loader {
	return &codelayer.Loader{Shared: shared, Tags: tags, WorkDir: wd, Analyse: func(dir string, patterns []string) (*codelayer.Index, error) {
		_, g, err := analyseCode(codeConfig{Dir: dir, Patterns: patterns, Tags: tags,
			Classifiers: cfg.Classifiers, RetryHelpers: cfg.RetryHelpers, Watch: w}, nil)
		var inErr *inputError
		if errors.As(err, &inErr) {
			return nil, errors.New(firstCodeError(inErr.lines, dir, wd))
		}
		if err != nil {
			return nil, err
		}
		return codelayer.FromGraph(g, wd), nil
	}}
}

// firstCodeError is the first of the load or type errors of an app's
// packages, its file relative to wd instead of dir, and how many more
// there are: one line for the topology's error at `source:`.
func firstCodeError(lines []string, dir, wd string) string {
	if len(lines) == 0 {
		return "the packages do not type-check"
	}
	first := lines[0]
	if file, rest, ok := strings.Cut(first, ":"); ok && !filepath.IsAbs(file) {
		if _, err := os.Stat(filepath.Join(dir, file)); err == nil {
			first = relPath(wd, filepath.Join(dir, file)) + ":" + rest
		}
	}
	errs := 0
	for _, l := range lines {
		if !strings.HasPrefix(l, "retrylint: ") { // the build tags hint
			errs++
		}
	}
	if errs > 1 {
		first += fmt.Sprintf(" (and %d more errors)", errs-1)
	}
	return first
}
