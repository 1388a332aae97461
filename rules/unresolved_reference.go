package rules

import (
	"github.com/retrylint/retrylint/model"
)

// unresolvedReference: a reference matches no loaded component; the kind's
// defaults are assumed and said.
var unresolvedReference = &Rule{
	Info: Info{
		ID:          "unresolved-reference",
		Severity:    model.Warning,
		Summary:     "a reference (job in a workflow call, trigger destination, push target) matches no loaded component; the kind's defaults are assumed",
		Remediation: "load the referenced manifest too, or declare the component in the topology file",
		Doc:         "docs/rules/unresolved-reference.md",
	},
	check: func(p *Pass) {
		for _, f := range p.Graph.Findings {
			if f.Rule == "unresolved-reference" {
				p.Report(f.Pos, f.Component, f.Message)
			}
		}
	},
}

// invalidSuppression: a `# retrylint:ignore` comment that is wrong in
// whole or in part: no rule, no reason, a rule no topology rule has, a
// misspelt keyword. What it gets wrong suppresses nothing.
var invalidSuppression = &Rule{
	Info: Info{
		ID:          "invalid-suppression",
		Severity:    model.Warning,
		Summary:     "a retrylint:ignore directive is malformed, names no rule or a rule that does not exist, or gives no reason; it suppresses nothing",
		Remediation: "write `# retrylint:ignore RULE[,RULE] reason`, the reason saying why the finding does not apply",
		Doc:         "docs/rules/invalid-suppression.md",
	},
	check: func(p *Pass) {
		if p.Graph.Suppress == nil {
			return
		}
		for _, d := range p.Graph.Suppress.Invalid {
			p.Report(d.Pos, "", d.Problem)
		}
	},
}
