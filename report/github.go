package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/retrylint/retrylint/model"
)

// WriteGitHub writes one GitHub Actions workflow command a finding
// ("::error file=f,line=l,col=c,endLine=…,endColumn=…,title=rule::message"),
// so that a workflow step shows the findings as annotations on the diff
// without code scanning. Errors become ::error, warnings ::warning and notes
// ::notice; a finding without a file or line leaves those properties out.
// Values are escaped as the runner expects, so a message cannot end the
// command early or start another one.
func WriteGitHub(w io.Writer, r *model.Result) error {
	for _, f := range r.Findings {
		if _, err := io.WriteString(w, githubCommand(f)+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// githubCommand is the workflow command of one finding.
func githubCommand(f model.Finding) string {
	var props []string
	add := func(key, value string) { props = append(props, key+"="+githubProperty(value)) }
	if f.File != "" {
		add("file", f.File)
		if f.Line > 0 {
			add("line", fmt.Sprint(f.Line))
			if f.Column > 0 {
				add("col", fmt.Sprint(f.Column))
			}
			if f.EndLine >= f.Line {
				add("endLine", fmt.Sprint(f.EndLine))
				if f.EndColumn > 0 && (f.EndLine > f.Line || f.EndColumn >= f.Column) {
					add("endColumn", fmt.Sprint(f.EndColumn))
				}
			}
		}
	}
	add("title", "retrylint "+f.Rule)
	msg := f.Message
	if f.Fix != "" && !strings.Contains(msg, f.Fix) {
		msg = sentence(msg) + " Fix: " + f.Fix
	}
	return "::" + githubLevel(f.Severity) + " " + strings.Join(props, ",") + "::" + githubData(msg)
}

// githubLevel is the workflow command of a severity.
func githubLevel(s model.Severity) string {
	switch s {
	case model.Error:
		return "error"
	case model.Warning:
		return "warning"
	}
	return "notice"
}

// githubData escapes the message of a workflow command: "%", CR and LF as
// the runner decodes them, other control characters as EscapeText writes
// them, and a legacy "##[" command broken up (the runner shows "%23").
func githubData(s string) string {
	return githubEscape(s, strings.NewReplacer("%", "%25"))
}

// githubProperty escapes a property value of a workflow command: as the
// message, and ":" and "," that separate properties.
func githubProperty(s string) string {
	return githubEscape(s, strings.NewReplacer("%", "%25", ":", "%3A", ",", "%2C"))
}

// githubEscape escapes s with r line by line, joined by the encoded line
// breaks.
func githubEscape(s string, r *strings.Replacer) string {
	var b strings.Builder
	for s != "" {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			i = len(s)
		}
		b.WriteString(r.Replace(EscapeText(s[:i])))
		if i < len(s) {
			b.WriteString(map[byte]string{'\r': "%0D", '\n': "%0A"}[s[i]])
			i++
		}
		s = s[i:]
	}
	return strings.NewReplacer("##[", "#"+githubEscapes.hash+"[", "##vso[", "#"+githubEscapes.hash+"vso[").Replace(b.String())
}
