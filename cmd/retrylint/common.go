package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/retrylint/retrylint/config"
	"github.com/retrylint/retrylint/docs"
	"github.com/retrylint/retrylint/internal/input"
	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/report"
)

// failLevel maps --fail-on to the lowest severity that fails the run;
// "never" gives a rank no finding reaches.
func failLevel(failOn string) (int, error) {
	switch failOn {
	case "error":
		return model.Error.Rank(), nil
	case "warning":
		return model.Warning.Rank(), nil
	case "note":
		return model.Note.Rank(), nil
	case "never":
		return 1 << 30, nil
	}
	return 0, fmt.Errorf("--fail-on: want error, warning or never, got %q", failOn)
}

// verdict is the command's error for the findings: exitCode(1) when one is at
// or above the fail level, nil otherwise.
func verdict(findings []model.Finding, failOn string) error {
	level, err := failLevel(failOn)
	if err != nil {
		return err
	}
	for _, f := range findings {
		if f.Severity.Rank() >= level {
			return exitCode(1)
		}
	}
	return nil
}

// writeResult renders res in format to output ("" or "-": standard output).
// The file is written only once the whole report is rendered.
func writeResult(res *model.Result, format, output string, stdout io.Writer) error {
	return writeResultColor(res, format, output, stdout, false)
}

// writeResultColor is writeResult with colour for the text format.
func writeResultColor(res *model.Result, format, output string, stdout io.Writer, color bool) error {
	return writeReport(res, format, output, stdout, renderOptions{color: color})
}

// renderOptions are what the formats need besides the result.
type renderOptions struct {
	color    bool   // text: ANSI colours
	failOn   string // markdown: the gate of the verdict line
	linkBase string // markdown: link file:line to this URL prefix
	// source reads a finding's file by the path the report writes (SARIF's
	// line hashes); nil reads it relative to the working directory.
	source func(file string) ([]byte, error)
	// annotate is what of res the github format annotates; nil: all of it.
	annotate func(res *model.Result) *model.Result
}

// render renders res in format.
func render(w io.Writer, res *model.Result, format string, opts renderOptions) error {
	switch format {
	case "json":
		return report.WriteJSON(w, res)
	case "text", "":
		return report.WriteTextOptions(w, res, report.TextOptions{Color: opts.color})
	case "sarif":
		source := readSource
		if opts.source != nil {
			source = opts.source
		}
		return report.WriteSARIF(w, res, report.SARIFOptions{Rules: ruleInfos(), InformationURI: projectURL, Source: source})
	case "markdown":
		return report.WriteMarkdown(w, res, report.MarkdownOptions{FailOn: opts.failOn, Rules: ruleInfos(), LinkBase: opts.linkBase})
	case "dot":
		return report.WriteDOT(w, res)
	case "github":
		if opts.annotate != nil {
			res = opts.annotate(res)
		}
		return report.WriteGitHub(w, res)
	case "codeclimate":
		return report.WriteCodeClimate(w, res)
	}
	return fmt.Errorf("--format: unknown format %q", format)
}

// writeReport renders res in format to output ("" or "-": standard
// output). The whole report is rendered before anything is written, and
// the file is replaced only once it is complete.
func writeReport(res *model.Result, format, output string, stdout io.Writer, opts renderOptions) error {
	var buf bytes.Buffer
	if err := render(&buf, res, format, opts); err != nil {
		return err
	}
	return writeFileAtomic(buf.Bytes(), output, stdout)
}

// projectURL is retrylint's home page; rule pages live under it.
const projectURL = "https://github.com/retrylint/retrylint"

// ruleInfos is the rule catalogue as the writers want it: summary, the
// page's summary and why the rule matters, the page and its URL.
func ruleInfos() report.Rules {
	var out report.Rules
	for _, r := range catalogue() {
		page, _ := docs.Rule(r.Name)
		out = append(out, report.RuleInfo{
			ID:       r.Name,
			Severity: r.Severity,
			Summary:  r.Summary,
			Help:     strings.TrimSpace(docs.Summary(r.Name) + " " + section(string(page), "Why it hurts")),
			HelpURI:  rulePageURL(r.Name),
			Page:     string(page),
		})
	}
	return out
}

// newResult returns an empty result stamped with this tool's name and version.
func newResult() *model.Result {
	return &model.Result{
		Version: 1,
		Tool:    model.Tool{Name: "retrylint", Version: mainVersion()},
	}
}

// outputFlags are the output flags shared by the commands that report
// findings: --format, --output, --fail-on and --color.
type outputFlags struct {
	formats  []string // accepted --format values; the first is the default
	format   string
	output   string
	failOn   string
	color    string
	paths    prefixFlag                        // --path-prefix
	source   func(file string) ([]byte, error) // see renderOptions.source
	annotate func(*model.Result) *model.Result // see renderOptions.annotate
	outputs  map[string]*string                // --output-FORMAT: format → file
}

// register adds the flags to cmd.
func (o *outputFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.format, "format", o.formats[0], "output format: "+strings.Join(o.formats, "|"))
	f.StringVarP(&o.output, "output", "o", "", "write the report to `FILE` instead of standard output; written only when the run succeeds")
	f.StringVar(&o.failOn, "fail-on", "error", "lowest severity that makes the exit status 1: error|warning|never")
	f.StringVar(&o.color, "color", "auto", "colour text output: auto (only on a terminal)|always|never")
	f.Var(&o.paths, "path-prefix", pathPrefixUsage)
	o.registerOutputs(cmd)
}

// validate checks the flag values, so that a bad flag fails the run before
// any work is done.
func (o *outputFlags) validate() error {
	if !slices.Contains(o.formats, o.format) {
		return fmt.Errorf("--format: want %s, got %q", strings.Join(o.formats, ", "), o.format)
	}
	if _, err := failLevel(o.failOn); err != nil {
		return err
	}
	switch o.color {
	case "auto", "always", "never":
	default:
		return fmt.Errorf("--color: want auto, always or never, got %q", o.color)
	}
	return o.validateOutputs()
}

// write renders res as the flags ask, to the --output file or stdout,
// and to each --output-FORMAT file.
func (o *outputFlags) write(res *model.Result, stdout io.Writer) error {
	return o.writeWith(res, stdout, o.renderOptions(stdout))
}

// renderOptions are the writers' options the flags give.
func (o *outputFlags) renderOptions(stdout io.Writer) renderOptions {
	return renderOptions{color: o.useColor(stdout), failOn: o.failOn, source: o.source, annotate: o.annotate}
}

// useColor reports whether text output to stdout is coloured: always with
// --color=always; with auto, only when the report goes to a terminal and
// NO_COLOR is unset.
func (o *outputFlags) useColor(stdout io.Writer) bool {
	switch {
	case o.color == "always":
		return true
	case o.color == "never", o.output != "" && o.output != "-", os.Getenv("NO_COLOR") != "":
		return false
	}
	return isTerminal(stdout)
}

// isTerminal reports whether w is a character device such as a terminal.
func isTerminal(w io.Writer) bool {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// gateFlags are the flags that adapt the gate to a project: --config,
// --baseline and --write-baseline.
type gateFlags struct {
	config        string
	baseline      string
	writeBaseline bool
	newFrom       newFromFlags // --new-from-rev, --new-from-patch
}

// register adds the flags to cmd.
func (g *gateFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&g.config, "config", "", "configuration `FILE` (default: "+config.FileName+" in the working directory or the nearest directory above it)")
	f.StringVar(&g.baseline, "baseline", "", "accept the findings recorded in baseline `FILE`: only other findings are reported")
	f.BoolVar(&g.writeBaseline, "write-baseline", false, "record every current finding in the --baseline file, which then accepts them")
	g.newFrom.register(cmd)
}

// validate checks the flag values.
func (g *gateFlags) validate() error {
	if g.writeBaseline && g.baseline == "" {
		return fmt.Errorf("--write-baseline: say where with --baseline FILE")
	}
	if g.writeBaseline && g.baseline == "-" {
		return fmt.Errorf("--write-baseline: --baseline - is no file to record into; name a file")
	}
	return g.newFrom.validate()
}

// workConfig returns the working directory and the configuration of the
// run there: --config, or .retrylint.yaml found upward, or none. Every
// command starts with both.
func (g *gateFlags) workConfig() (string, *config.Config, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", nil, err
	}
	known := make(map[string]bool)
	for _, r := range catalogue() {
		known[r.Name] = true
	}
	cfg, err := config.Load(g.config, wd, config.Options{KnownRule: func(rule string) bool { return known[rule] }})
	return wd, cfg, err
}

// apply adapts the findings of res to the project: the configuration's
// severities, rules turned off and ignored paths (relative to wd, as the
// findings' paths are), then the baseline.
func (g *gateFlags) apply(res *model.Result, cfg *config.Config, wd string, stderr io.Writer) error {
	res.Findings = cfg.Apply(res.Findings, wd)
	return g.applyBaseline(res, stderr)
}

// applyBaseline drops the findings that the --baseline file accepts; with
// --write-baseline it first records every finding in that file. Without
// --baseline it leaves res alone.
func (g *gateFlags) applyBaseline(res *model.Result, stderr io.Writer) error {
	if g.baseline == "" {
		return nil
	}
	if g.writeBaseline {
		var buf bytes.Buffer
		if err := report.WriteBaseline(&buf, report.NewBaseline(res.Findings)); err != nil {
			return err
		}
		if err := writeFileAtomic(buf.Bytes(), g.baseline, nil); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "retrylint: %s: recorded %s\n", g.baseline, pluralize(len(res.Findings), "finding", "findings"))
	}
	b, err := readBaseline(g.baseline)
	if err != nil {
		return err
	}
	var stale []report.BaselineEntry
	res.Findings, stale = b.Filter(res.Findings)
	warnStale(stderr, g.baseline, staleInScope(stale, res.Scope))
	return nil
}

// readBaseline reads and decodes a baseline file.
func readBaseline(file string) (*report.Baseline, error) {
	src, err := input.Read(file, maxBaselineSize)
	if err != nil {
		return nil, fmt.Errorf("%s: baseline: %v", file, err)
	}
	return report.ReadBaseline(file, src)
}

// pluralize is "1 finding", "2 findings".
func pluralize(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// section returns the first paragraph of the "## title" section of a
// Markdown page, joined into one line, or "".
func section(page, title string) string {
	_, rest, ok := strings.Cut(page, "\n## "+title+"\n")
	if !ok {
		return ""
	}
	var para []string
	for line := range strings.Lines(rest) {
		line = strings.TrimSpace(line)
		switch {
		case line == "" && len(para) > 0, strings.HasPrefix(line, "#"), strings.HasPrefix(line, "```"):
			return strings.Join(para, " ")
		case line != "":
			para = append(para, line)
		}
	}
	return strings.Join(para, " ")
}
