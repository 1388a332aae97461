// Package report writes a model.Result: one finding a line as text, JSON,
// SARIF, Markdown for a pull-request comment, Graphviz DOT, GitHub
// annotations, Code Climate, and the baseline file. It renders the model;
// it does not define it.
package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/retrylint/retrylint/model"
)

// WriteJSON writes the result as SPEC §6 JSON: indented, except that each
// chain, one per (root, component), is one line, so that the chains of a
// large graph cost their content and not their indentation.
func WriteJSON(w io.Writer, r *model.Result) error {
	out := *r
	if out.Findings == nil {
		out.Findings = []model.Finding{}
	}
	chains := out.Chains
	out.Chains = []model.Chain{}
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&out); err != nil {
		return err
	}
	marker := []byte("\n  \"chains\": []")
	i := bytes.Index(head.Bytes(), marker)
	if len(chains) == 0 || i < 0 {
		_, err := w.Write(jsonControls(head.Bytes()))
		return err
	}
	var all bytes.Buffer
	bw := bufio.NewWriter(&all)
	bw.Write(head.Bytes()[:i])
	bw.WriteString("\n  \"chains\": [")
	for k, c := range chains {
		line, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if k > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		bw.Write(line)
	}
	bw.WriteString("\n  ]")
	bw.Write(head.Bytes()[i+len(marker):])
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(jsonControls(all.Bytes()))
	return err
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
// file:line:col: severity: rule: message, in both halves, so that one
// editor problem matcher reads them all. What comes from the input is escaped
// (EscapeText), so a finding is always exactly one line, and no line
// reads as a CI command (DefuseText).
func WriteTextOptions(w io.Writer, r *model.Result, opts TextOptions) error {
	var b bytes.Buffer
	if err := writeText(&b, r, opts); err != nil {
		return err
	}
	return writeDefused(w, b.Bytes(), textEscapes)
}

// writeText writes the text format before defuse.
func writeText(w io.Writer, r *model.Result, opts TextOptions) error {
	for _, f := range r.Findings {
		f.File, f.Rule, f.Message = EscapeLineStart(f.File), EscapeText(f.Rule), EscapeText(f.Message)
		f.Rule = severityWord(f.Severity) + ": " + f.Rule
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

// severityWord is how the text format names a severity.
func severityWord(s model.Severity) string {
	switch s {
	case model.Error:
		return "error"
	case model.Warning:
		return "warning"
	}
	return "note"
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
