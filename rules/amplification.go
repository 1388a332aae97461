package rules

import (
	"fmt"
	"strings"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/multiply"
	"github.com/retrylint/retrylint/topology"
)

// amplification: worst-case executions of a component per event exceed the
// budget.
var amplification = &Rule{
	Info: Info{
		ID:          "amplification",
		Severity:    model.Warning,
		Summary:     "worst-case executions of a component per event exceed the budget (default 10; an explicit budget makes it an error)",
		Remediation: "remove a retry layer or lower its retries so the product of (retries+1) stays within the budget",
		Doc:         "docs/rules/amplification.md",
	},
	check: func(p *Pass) {
		sev := model.Warning
		budget := "the default budget of"
		if p.Explicit {
			sev, budget = model.Error, "the budget of"
		}
		nestedTries := false // read a chain's factors only when some call has them
		for _, e := range p.Graph.Edges {
			nestedTries = nestedTries || len(e.Tries) > 1 && e.Note != ""
		}
		for _, c := range p.Graph.Components {
			ch := p.Mult.Worst[c]
			if c.Kind == topology.KindSink {
				continue // notifications received, not executions
			}
			if ch == nil || ch.Count.Unbounded || ch.Count.N <= int64(p.Budget) {
				continue
			}
			if !ch.Retried() {
				continue
			}
			nested := ""
			for _, f := range factorsIf(nestedTries, ch) {
				if e := f.Edge; f.Effective && len(e.Tries) > 1 && e.Note != "" {
					nested += fmt.Sprintf("; %s: %s", where(e), e.Note)
				}
			}
			p.ReportSeverity(c.Pos, c.Name, sev, fmt.Sprintf(
				"%s runs up to %s times per event from %s: %s, over %s %d (path %s)%s",
				c.Name, ch.Count, ch.Root.Name, ch.Formula(), budget, p.Budget, strings.Join(ch.Path(), " → "), nested))
		}
	},
}

// factorsIf is the chain's factors when want, none otherwise: walking
// every chain's factors would cost the square of a long line.
func factorsIf(want bool, ch *multiply.Chain) []multiply.Factor {
	if !want {
		return nil
	}
	return ch.Factors()
}
