package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/retrylint/retrylint/report"
)

// failLevel maps --fail-on to the lowest severity that fails the run;
// "never" gives a rank no finding reaches.
func failLevel(failOn string) (int, error) {
	switch failOn {
	case "error":
		return report.Error.Rank(), nil
	case "warning":
		return report.Warning.Rank(), nil
	case "note":
		return report.Note.Rank(), nil
	case "never":
		return 1 << 30, nil
	}
	return 0, fmt.Errorf("--fail-on: want error, warning or never, got %q", failOn)
}

// verdict is the command's error for the findings: exitCode(1) when one is at
// or above the fail level, nil otherwise.
func verdict(findings []report.Finding, failOn string) error {
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
func writeResult(res *report.Result, format, output string, stdout io.Writer) error {
	return writeResultColor(res, format, output, stdout, false)
}

// writeResultColor is writeResult with colour for the text format.
func writeResultColor(res *report.Result, format, output string, stdout io.Writer, color bool) error {
	var render func(io.Writer, *report.Result) error
	switch format {
	case "json":
		render = report.WriteJSON
	case "text", "":
		render = func(w io.Writer, r *report.Result) error {
			return report.WriteTextOptions(w, r, report.TextOptions{Color: color})
		}
	default:
		return fmt.Errorf("--format: unknown format %q", format)
	}
	if output == "" || output == "-" {
		return render(stdout, res)
	}
	tmp, err := os.CreateTemp(dirOf(output), ".retrylint-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := render(tmp, res); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), output)
}

func dirOf(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if os.IsPathSeparator(path[i]) {
			return path[:i+1]
		}
	}
	return "."
}

// newResult returns an empty result stamped with this tool's name and version.
func newResult() *report.Result {
	return &report.Result{
		Version: 1,
		Tool:    report.Tool{Name: "retrylint", Version: mainVersion()},
	}
}

// outputFlags are the output flags shared by the commands that report
// findings: --format, --output, --fail-on and --color.
type outputFlags struct {
	formats []string // accepted --format values; the first is the default
	format  string
	output  string
	failOn  string
	color   string
}

// register adds the flags to cmd.
func (o *outputFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.format, "format", o.formats[0], "output format: "+strings.Join(o.formats, "|"))
	f.StringVarP(&o.output, "output", "o", "", "write the report to `FILE` instead of standard output; written only when the run succeeds")
	f.StringVar(&o.failOn, "fail-on", "error", "lowest severity that makes the exit status 1: error|warning|never")
	f.StringVar(&o.color, "color", "auto", "colour text output: auto (only on a terminal)|always|never")
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
	return nil
}

// write renders res as the flags ask, to the --output file or stdout.
func (o *outputFlags) write(res *report.Result, stdout io.Writer) error {
	return writeResultColor(res, o.format, o.output, stdout, o.useColor(stdout))
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
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
