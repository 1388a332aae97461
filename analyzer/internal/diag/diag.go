// Package diag reports retrylint findings and honours suppression
// directives:
//
//	//retrylint:ignore RULE[,RULE] reason
//	//nolint:retrylint
//
// on the line of the finding or the line above it, in the grammar the
// topology half shares (package internal/suppress). A retrylint:ignore
// directive without a reason, or naming a rule no analyzer has, does not
// suppress anything and is itself reported.
package diag

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
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
	reason string
	ignore bool // a retrylint:ignore directive (needs a reason)
}

func (d directive) covers(rule string) bool {
	return d.rules == nil || suppress.Directive{Rules: d.rules}.Covers(rule)
}

func parse(c *ast.Comment) (directive, bool) {
	text := strings.TrimPrefix(c.Text, "//")
	if strings.HasPrefix(text, "/*") || c.Text[:2] == "/*" {
		return directive{}, false
	}
	text = strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(text, suppress.Keyword):
		sd, ok := suppress.Parse(text)
		if !ok {
			return directive{}, false
		}
		return directive{pos: c.Pos(), ignore: true, rules: append([]string{}, sd.Rules...), reason: sd.Reason}, true
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
				if !ok || !d.ignore {
					continue
				}
				if d.reason != "" {
					if rule == First {
						checkRuleNames(pass, c, d)
					}
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

// checkRuleNames reports the rule names of a directive that no analyzer
// has, a misspelling that would otherwise silently suppress nothing.
func checkRuleNames(pass *analysis.Pass, c *ast.Comment, d directive) {
	for _, r := range (suppress.Directive{Rules: d.rules}).Unknown(isRule) {
		pass.Report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Category: First,
			Message: fmt.Sprintf("%s: retrylint:ignore names %q, which is no retrylint rule (see retrylint rules), so it suppresses nothing", First, r)})
	}
}

// Rules are the rules of the code analyzers, as directives name them.
var Rules = []string{"fixed-sleep", "no-jitter", "no-cap", "unbounded-retry", "unclassified-retry", "retry-permanent", "sleep-ignores-context", "nested-retry"}

func isRule(name string) bool { return slices.Contains(Rules, name) }

// First is the rule that reports directives naming no rule at all, or a
// rule that does not exist.
const First = "fixed-sleep"
