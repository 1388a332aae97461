// Package diag reports retrylint findings and honours suppression
// directives:
//
//	//retrylint:ignore RULE[,RULE] reason
//	//nolint:retrylint
//
// on the line of the finding or the line above it. A retrylint:ignore
// directive without a reason does not suppress anything and is itself
// reported.
package diag

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
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
	reason string
	ignore bool // a retrylint:ignore directive (needs a reason)
}

func (d directive) covers(rule string) bool {
	if d.rules == nil {
		return true
	}
	for _, r := range d.rules {
		if r == rule || r == "retrylint" || r == "all" {
			return true
		}
	}
	return false
}

func parse(c *ast.Comment) (directive, bool) {
	text := strings.TrimPrefix(c.Text, "//")
	if strings.HasPrefix(text, "/*") || c.Text[:2] == "/*" {
		return directive{}, false
	}
	text = strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(text, "retrylint:ignore"):
		rest := strings.TrimPrefix(text, "retrylint:ignore")
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			return directive{}, false
		}
		fields := strings.Fields(rest)
		d := directive{pos: c.Pos(), ignore: true, rules: []string{}}
		if len(fields) > 0 {
			for _, r := range strings.Split(fields[0], ",") {
				if r = strings.TrimSpace(r); r != "" {
					d.rules = append(d.rules, r)
				}
			}
			d.reason = strings.Join(fields[1:], " ")
		}
		return d, true
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
			if !ok || !d.covers(rule) || d.ignore && d.reason == "" {
				continue
			}
			if l := pass.Fset.Position(c.Pos()).Line; l == line || l == line-1 {
				return true
			}
		}
	}
	return false
}

// CheckDirectives reports retrylint:ignore directives for rule that give
// no reason. Each directive is reported once, by the first rule it names.
func CheckDirectives(pass *analysis.Pass, rule string) {
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				d, ok := parse(c)
				if !ok || !d.ignore || d.reason != "" {
					continue
				}
				switch {
				case len(d.rules) == 0:
					if rule == First {
						pass.Report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: rule,
							Message: rule + ": retrylint:ignore names no rule and gives no reason; write //retrylint:ignore RULE reason"})
					}
				case d.rules[0] == rule:
					pass.Report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: rule,
						Message: rule + ": retrylint:ignore " + strings.Join(d.rules, ",") + " gives no reason, so it suppresses nothing; say why the finding does not apply"})
				}
			}
		}
	}
}

// First is the rule that reports directives naming no rule at all.
const First = "fixed-sleep"
