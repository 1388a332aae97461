// Package report writes a model.Result: one finding a line as text, JSON,
// SARIF, Markdown for a pull-request comment, Graphviz DOT, GitHub
// annotations, Code Climate, and the baseline file. It renders the model;
// it does not define it.
package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/retrylint/retrylint/model"
)

// WriteJSON writes the result as SPEC §6 JSON.
func WriteJSON(w io.Writer, r *model.Result) error {
	out := *r
	if out.Findings == nil {
		out.Findings = []model.Finding{}
	}
	if out.Chains == nil {
		out.Chains = []model.Chain{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&out)
}

// WriteText writes one finding a line, compiler style.
func WriteText(w io.Writer, r *model.Result) error {
	return WriteTextOptions(w, r, TextOptions{})
}

// TextOptions control the text format.
type TextOptions struct {
	// Color highlights the position and the rule with ANSI escapes;
	// for terminals only.
	Color bool
}

// ANSI escapes of the text format's colours.
const (
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
	ansiReset  = "\x1b[0m"
)

// WriteTextOptions writes one finding a line, compiler style:
// file:line:col: rule: message. What comes from the input is escaped
// (EscapeText), so a finding is always exactly one line.
func WriteTextOptions(w io.Writer, r *model.Result, opts TextOptions) error {
	for _, f := range r.Findings {
		f.File, f.Rule, f.Message = EscapeLineStart(f.File), EscapeText(f.Rule), EscapeText(f.Message)
		var err error
		if opts.Color {
			_, err = fmt.Fprintf(w, "%s%s:%d:%d:%s %s%s:%s %s\n",
				ansiBold, f.File, f.Line, f.Column, ansiReset,
				severityColor(f.Severity), f.Rule, ansiReset, f.Message)
		} else {
			_, err = fmt.Fprintf(w, "%s:%d:%d: %s: %s\n", f.File, f.Line, f.Column, f.Rule, f.Message)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// severityColor is the colour of a rule name of that severity.
func severityColor(s model.Severity) string {
	switch s {
	case model.Error:
		return ansiRed
	case model.Warning:
		return ansiYellow
	}
	return ansiCyan
}
