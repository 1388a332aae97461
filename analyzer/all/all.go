// Package all lists every code analyzer of retrylint, in a stable order.
package all

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/fixedsleep"
	"github.com/retrylint/retrylint/analyzer/invalidsuppression"
	"github.com/retrylint/retrylint/analyzer/nestedretry"
	"github.com/retrylint/retrylint/analyzer/nocap"
	"github.com/retrylint/retrylint/analyzer/nojitter"
	"github.com/retrylint/retrylint/analyzer/retryconfig"
	"github.com/retrylint/retrylint/analyzer/retrypermanent"
	"github.com/retrylint/retrylint/analyzer/sleepignorescontext"
	"github.com/retrylint/retrylint/analyzer/unboundedretry"
	"github.com/retrylint/retrylint/analyzer/unclassifiedretry"
	"github.com/retrylint/retrylint/model"
)

// Rule pairs an analyzer with its stable kebab-case rule name.
type Rule struct {
	Name     string
	Analyzer *analysis.Analyzer
}

// Rules returns the code rules in catalogue order.
func Rules() []Rule {
	return []Rule{
		{fixedsleep.Rule, fixedsleep.Analyzer},
		{nojitter.Rule, nojitter.Analyzer},
		{nocap.Rule, nocap.Analyzer},
		{unboundedretry.Rule, unboundedretry.Analyzer},
		{unclassifiedretry.Rule, unclassifiedretry.Analyzer},
		{retrypermanent.Rule, retrypermanent.Analyzer},
		{sleepignorescontext.Rule, sleepignorescontext.Analyzer},
		{nestedretry.Rule, nestedretry.Analyzer},
		{invalidsuppression.Rule, invalidsuppression.Analyzer},
	}
}

// Severity is the default severity of a code rule: error, except for
// invalid-suppression, a warning as in the topology half: the directive
// it reports suppresses nothing, so it hides no finding.
func Severity(rule string) model.Severity {
	if rule == invalidsuppression.Rule {
		return model.Warning
	}
	return model.Error
}

// WithSettings returns the analyzers of Rules preceded by the settings
// analyzer, whose flags configure them: what go vet and other drivers run.
func WithSettings() []*analysis.Analyzer {
	return append([]*analysis.Analyzer{retryconfig.Analyzer}, Analyzers()...)
}

// Analyzers returns the analyzers of Rules, in the same order.
func Analyzers() []*analysis.Analyzer {
	var as []*analysis.Analyzer
	for _, r := range Rules() {
		as = append(as, r.Analyzer)
	}
	return as
}
