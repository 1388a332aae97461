// Package diag reports retrylint findings and honours suppression
// directives:
//
//	//retrylint:ignore RULE[,RULE] reason
//	//nolint:retrylint
//
// on the line of the finding or the line above it, in the grammar the
// topology half shares (package internal/suppress). A retrylint:ignore
// directive that is malformed or gives no reason suppresses nothing, and a
// rule name no analyzer has suppresses nothing either; the rule
// invalid-suppression reports them.
package diag

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/suppress"
)

// Report reports a finding of rule over [pos, end) unless a directive
// suppresses it. The message is prefixed with the rule name so that go vet
// output names the rule as retrylint's own text output does.
func Report(pass *analysis.Pass, rule string, pos, end token.Pos, msg string, fixes ...analysis.SuggestedFix) {
	if suppressed(pass, rule, pos) {
		return
	}
	pass.Report(analysis.Diagnostic{
		Pos:            pos,
		End:            end,
		Category:       rule,
		Message:        rule + ": " + msg,
		SuggestedFixes: fixes,
	})
}

// directive is one parsed suppression comment.
type directive struct {
	pos    token.Pos
	rules  []string // nil: every rule (nolint)
	ignore bool     // a retrylint:ignore directive
	valid  bool     // a retrylint:ignore directive that suppresses: well formed, with a reason
}

func (d directive) covers(rule string) bool {
	return d.rules == nil || suppress.Directive{Rules: d.rules}.Covers(rule)
}

func parse(c *ast.Comment) (directive, bool) {
	text, ok := DirectiveText(c)
	if !ok {
		return directive{}, false
	}
	text = strings.TrimSpace(text)
	if sd, ok := suppress.Parse(text); ok {
		return directive{pos: c.Pos(), ignore: true, valid: sd.Valid(), rules: append([]string{}, sd.Rules...)}, true
	}
	switch {
	case text == "nolint" || strings.HasPrefix(text, "nolint ") || strings.HasPrefix(text, "nolint//"):
		return directive{pos: c.Pos()}, true
	case strings.HasPrefix(text, "nolint:"):
		list := strings.TrimPrefix(text, "nolint:")
		if i := strings.IndexAny(list, " \t/"); i >= 0 {
			list = list[:i]
		}
		d := directive{pos: c.Pos(), rules: []string{}}
		for _, r := range strings.Split(list, ",") {
			d.rules = append(d.rules, strings.TrimSpace(r))
		}
		return d, true
	}
	return directive{}, false
}

// DirectiveText is the text of a line comment after its //, where a
// directive is written; ok is false for a /* block */ comment.
func DirectiveText(c *ast.Comment) (string, bool) {
	text, ok := strings.CutPrefix(c.Text, "//")
	if !ok || strings.HasPrefix(text, "/*") {
		return "", false
	}
	return text, true
}

func fileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

func suppressed(pass *analysis.Pass, rule string, pos token.Pos) bool {
	f := fileOf(pass, pos)
	if f == nil {
		return false
	}
	line := pass.Fset.Position(pos).Line
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			d, ok := parse(c)
			if !ok || !d.covers(rule) || d.ignore && !d.valid {
				continue
			}
			if l := pass.Fset.Position(c.Pos()).Line; l == line || l == line-1 {
				return true
			}
		}
	}
	return false
}
