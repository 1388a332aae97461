package main

import (
	"fmt"
	"io"
	"os"

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
	var render func(io.Writer, *report.Result) error
	switch format {
	case "json":
		render = report.WriteJSON
	case "text", "":
		render = report.WriteText
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
