package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/retrylint/retrylint/analyzer/all"
	"github.com/retrylint/retrylint/analyzer/retryconfig"
	"github.com/retrylint/retrylint/config"
	"github.com/retrylint/retrylint/model"
)

// fixToolArg, as the first argument, runs the binary as x/tools'
// multichecker over retrylint's analyzers. "retrylint code --fix" and
// "--diff" run it so that the suggested fixes are applied, merged and
// checked for conflicts by x/tools itself.
const fixToolArg = "__fixtool"

// isFixTool reports whether args ask for the fix tool.
func isFixTool(args []string) bool { return len(args) > 0 && args[0] == fixToolArg }

// runFixTool reads the configuration file named by the argument after
// fixToolArg ("" for none) and hands the rest of the command line to the
// multichecker, over the rules the configuration does not turn off; it does
// not return.
func runFixTool() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "retrylint: "+fixToolArg+" CONFIG [multichecker flags] PACKAGES")
		os.Exit(2)
	}
	file := os.Args[2]
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint:", err)
		os.Exit(2)
	}
	cfg, err := config.Load(file, wd, config.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint:", err)
		os.Exit(2)
	}
	os.Args = append([]string{os.Args[0]}, os.Args[3:]...)
	multichecker.Main(fixAnalyzers(cfg)...)
}

// fixAnalyzers are the settings analyzer and the rules that cfg does not
// turn off, each dropping its findings, and so their fixes, in the paths
// cfg ignores.
func fixAnalyzers(cfg *config.Config) []*analysis.Analyzer {
	out := []*analysis.Analyzer{retryconfig.Analyzer}
	for _, r := range all.Rules() {
		if cfg.Severity[r.Name] != config.Off {
			out = append(out, withoutIgnored(r.Analyzer, cfg))
		}
	}
	return out
}

// withoutIgnored is a copy of a whose diagnostics in files that cfg
// ignores are not reported.
func withoutIgnored(a *analysis.Analyzer, cfg *config.Config) *analysis.Analyzer {
	w := *a
	w.Run = func(pass *analysis.Pass) (any, error) {
		p := *pass
		p.Report = func(d analysis.Diagnostic) {
			if !cfg.Ignored(pass.Fset.Position(d.Pos).Filename) {
				pass.Report(d)
			}
		}
		return a.Run(&p)
	}
	return &w
}

// fixRequest is what --fix and --diff are asked to do.
type fixRequest struct {
	dir      string
	cfg      *config.Config
	tests    bool
	tags     []string // build tags, as go build -tags
	diff     bool     // print a unified diff instead of writing the files
	patterns []string
}

// fixToolArgs is the command line of the fix tool: the configuration file,
// -fix (and -diff), the analyzers' settings from the configuration, and
// the packages.
func fixToolArgs(req fixRequest) []string {
	args := []string{fixToolArg, req.cfg.File, "-fix", fmt.Sprintf("-test=%t", req.tests)}
	if req.diff {
		args = append(args, "-diff")
	}
	args = append(args, analyzerFlags(req.cfg, req.tests)...)
	args = append(args, "--")
	return append(args, req.patterns...)
}

// analyzerFlags are the multichecker flags of the retryconfig analyzer
// that give the analyzers the configuration's classifiers and retry
// helpers, and whether they read test files.
func analyzerFlags(cfg *config.Config, tests bool) []string {
	prefix := "-" + retryconfig.Analyzer.Name + "."
	args := []string{fmt.Sprintf("%stests=%t", prefix, tests)}
	if len(cfg.Classifiers) > 0 {
		args = append(args, prefix+"classifiers="+strings.Join(cfg.Classifiers, ","))
	}
	var helpers []string
	for _, h := range cfg.RetryHelpers {
		helpers = append(helpers, retryconfig.HelperFlag(h))
	}
	if len(helpers) > 0 {
		args = append(args, prefix+"retry_helpers="+strings.Join(helpers, ","))
	}
	return args
}

// fixOutcome is what one run of the fix tool did.
type fixOutcome struct {
	diff     string // with --diff: the unified diff, paths relative to the working directory
	messages string // what the tool printed on stderr: conflicts, skipped fixes
	failed   bool   // not every fix was applied (a conflict) or a file was not written
}

// applyFixes runs the fix tool as req says. Only a tool that cannot be
// started is an error; fixes that conflict are an outcome.
func applyFixes(req fixRequest) (fixOutcome, error) {
	self, err := os.Executable()
	if err != nil {
		return fixOutcome{}, err
	}
	cmd := exec.Command(self, fixToolArgs(req)...)
	cmd.Dir = req.dir
	cmd.Env = os.Environ()
	if len(req.tags) > 0 { // the multichecker has no -tags; go/packages reads GOFLAGS
		cmd.Env = append(cmd.Env, "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -tags="+strings.Join(req.tags, ",")))
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return fixOutcome{}, err
	}
	return fixOutcome{
		diff:     relativeDiff(stdout.String(), req.dir),
		messages: stderr.String(),
		failed:   err != nil,
	}, nil
}

// relativeDiff rewrites the file names of a unified diff's header lines,
// "--- FILE (old)" and "+++ FILE (new)" as x/tools writes them, as git
// writes them, a/FILE and b/FILE with FILE relative to dir, so that "git
// apply" and "patch -p1" take the diff as it is.
func relativeDiff(diff, dir string) string {
	var b strings.Builder
	for line := range strings.Lines(diff) {
		for _, h := range []struct{ mark, suffix, side string }{{"--- ", " (old)\n", "a/"}, {"+++ ", " (new)\n", "b/"}} {
			if strings.HasPrefix(line, h.mark) && strings.HasSuffix(line, h.suffix) {
				file := strings.TrimSuffix(strings.TrimPrefix(line, h.mark), h.suffix)
				line = h.mark + h.side + relPath(dir, file) + "\n"
				break
			}
		}
		b.WriteString(line)
	}
	return b.String()
}

// runFix is "retrylint code --fix" and "--diff": check that the packages
// load, apply (or show) the suggested fixes, and with --fix report what is
// left. Fixes that conflict with others are left out and reported; the
// exit status is then at least 1.
func runFix(cmd *cobra.Command, flags *codeFlags, req fixRequest) error {
	cc := codeConfig{Dir: req.dir, Patterns: req.patterns, Tests: req.tests, Tags: req.tags,
		Classifiers: req.cfg.Classifiers, RetryHelpers: req.cfg.RetryHelpers}
	res, err := checkCodeOrExit(cmd, cc)
	if err != nil {
		return err
	}
	out := fixOutcome{}
	if hasFix(req.cfg.Apply(res.Findings, req.dir)) {
		if out, err = applyFixes(req); err != nil {
			return err
		}
	}
	io.WriteString(cmd.ErrOrStderr(), out.messages)
	if req.diff {
		if _, err := io.WriteString(cmd.OutOrStdout(), out.diff); err != nil {
			return err
		}
		if out.diff != "" || out.failed {
			return exitCode(1)
		}
		return nil
	}
	if res, err = checkCodeOrExit(cmd, cc); err != nil {
		return err
	}
	if err := flags.gate.apply(res, req.cfg, req.dir, cmd.ErrOrStderr()); err != nil {
		return err
	}
	if err := flags.write(res, cmd.OutOrStdout()); err != nil {
		return err
	}
	err = verdict(res.Findings, flags.failOn)
	if err == nil && out.failed {
		return exitCode(1)
	}
	return err
}

// checkCodeOrExit runs the analyzers; packages that do not load are
// printed and end the run with exit status 2.
func checkCodeOrExit(cmd *cobra.Command, cc codeConfig) (*model.Result, error) {
	res, err := checkCode(cc, all.Rules())
	var inErr *inputError
	if errors.As(err, &inErr) {
		for _, line := range inErr.lines {
			fmt.Fprintln(cmd.ErrOrStderr(), line)
		}
		return nil, exitCode(2)
	}
	return res, err
}

// hasFix reports whether any finding comes with a suggested fix.
func hasFix(findings []model.Finding) bool {
	for _, f := range findings {
		if f.Fix != "" {
			return true
		}
	}
	return false
}
