package rules

import (
	"fmt"

	"github.com/retrylint/retrylint/internal/suppress"
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

// invalidSuppression: a `# retrylint:ignore` comment without a rule or a
// reason; it suppresses nothing.
var invalidSuppression = &Rule{
	Info: Info{
		ID:          "invalid-suppression",
		Severity:    model.Warning,
		Summary:     "a `# retrylint:ignore` comment names no rule or gives no reason; it suppresses nothing",
		Remediation: "write `# retrylint:ignore RULE reason`",
		Doc:         "docs/rules/invalid-suppression.md",
	},
	check: func(p *Pass) {
		if p.Graph.Suppress == nil {
			return
		}
		for _, d := range p.Graph.Suppress.Invalid {
			msg := "retrylint:ignore needs a reason: `# retrylint:ignore RULE reason`; nothing is suppressed"
			if len(d.Rules) == 0 {
				msg = "retrylint:ignore names no rule: `# retrylint:ignore RULE reason`; nothing is suppressed"
			}
			p.Report(d.Pos, "", msg)
		}
		for _, d := range p.Graph.Suppress.Valid {
			for _, r := range (suppress.Directive{Rules: d.Rules}).Unknown(p.known) {
				p.Report(d.Pos, "", fmt.Sprintf("retrylint:ignore names %q, which is no topology rule (see retrylint rules), so it suppresses nothing", r))
			}
		}
	},
}
