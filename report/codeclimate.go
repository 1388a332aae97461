package report

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/retrylint/retrylint/model"
)

// Code Climate issues, as GitLab's Code Quality report reads them.
type (
	codeClimateIssue struct {
		Type        string              `json:"type"`
		CheckName   string              `json:"check_name"`
		Description string              `json:"description"`
		Categories  []string            `json:"categories"`
		Severity    string              `json:"severity"`
		Fingerprint string              `json:"fingerprint"`
		Location    codeClimateLocation `json:"location"`
	}
	codeClimateLocation struct {
		Path  string           `json:"path"`
		Lines codeClimateLines `json:"lines"`
	}
	codeClimateLines struct {
		Begin int `json:"begin"`
		End   int `json:"end,omitempty"`
	}
)

// WriteCodeClimate writes the findings as a Code Climate report: a JSON
// array with one issue a finding, which GitLab shows in merge requests as
// Code Quality. Each issue carries the rule as check_name, the message (and
// fix) as description, the same fingerprint as the SARIF result of the
// finding, a severity (error: major, warning: minor, note: info) and the
// location. A finding without a file is placed on line 1 of ".", and one
// without a line on line 1 of its file: GitLab needs both.
func WriteCodeClimate(w io.Writer, r *model.Result) error {
	issues := make([]codeClimateIssue, 0, len(r.Findings))
	fps := model.Fingerprints(r.Findings)
	for i, f := range r.Findings {
		issues = append(issues, codeClimateIssueOf(f, fps[i]))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(issues); err != nil {
		return err
	}
	_, err := w.Write(jsonControls(b.Bytes()))
	return err
}

// codeClimateIssueOf is the issue of one finding.
func codeClimateIssueOf(f model.Finding, fingerprint string) codeClimateIssue {
	msg := f.Message
	if f.Fix != "" && !strings.Contains(msg, f.Fix) {
		msg = sentence(msg) + " Fix: " + f.Fix
	}
	loc := codeClimateLocation{Path: f.File, Lines: codeClimateLines{Begin: f.Line}}
	if loc.Path == "" {
		loc.Path = "."
	}
	if loc.Lines.Begin < 1 {
		loc.Lines.Begin = 1
	}
	if f.EndLine > loc.Lines.Begin {
		loc.Lines.End = f.EndLine
	}
	return codeClimateIssue{
		Type:        "issue",
		CheckName:   f.Rule,
		Description: msg,
		Categories:  []string{"Bug Risk"},
		Severity:    codeClimateSeverity(f.Severity),
		Fingerprint: fingerprint,
		Location:    loc,
	}
}

// codeClimateSeverity maps a severity to Code Climate's scale.
func codeClimateSeverity(s model.Severity) string {
	switch s {
	case model.Error:
		return "major"
	case model.Warning:
		return "minor"
	}
	return "info"
}
