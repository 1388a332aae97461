package rules

import (
	"fmt"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/multiply"
	"github.com/retrylint/retrylint/topology"
)

// unboundedRedelivery: a subscription (or an Eventarc trigger's) with no
// dead-letter policy redelivers a failing message until retention expires.
var unboundedRedelivery = &Rule{
	Info: Info{
		ID:          "unbounded-redelivery",
		Severity:    model.Error,
		Summary:     "a push or pull subscription (also Eventarc's) has no dead-letter policy: a failing message is redelivered until retention expires (error if the target can fail, else warning)",
		Remediation: "add a dead-letter policy with maxDeliveryAttempts (5–100); for Eventarc, on the trigger's generated subscription, or retryPolicy.maxAttempts: 1",
		Doc:         "docs/rules/unbounded-redelivery.md",
	},
	check: func(p *Pass) {
		g := p.Graph
		for _, c := range g.Components {
			if !redeliversUnbounded(g, c) {
				continue
			}
			d := c.Delivery
			sev := model.Warning
			target := "its subscribers"
			for _, e := range g.Out[c] {
				if e.Kind == topology.EdgeDeliver {
					target = e.To.Name
					if len(e.EmitsTo()) > 0 {
						sev = model.Error
					}
				}
			}
			what := "subscription"
			switch {
			case c.Kind == topology.KindTrigger && d.Eventarc:
				what = "Eventarc trigger (its generated push subscription)"
			case c.Kind == topology.KindTrigger:
				what = "event trigger"
			}
			mode := "pull"
			if d.Push {
				mode = "push"
			}
			p.ReportSeverity(c.Pos, c.Name, sev, fmt.Sprintf(
				"%s %s (%s) has no dead-letter policy: a message that %s keeps failing is redelivered until its retention of %s expires (%s)",
				what, c.Name, mode, target, multiply.HumanDuration(d.Retention), multiply.EstimateDeliveries(d)))
		}
	},
}

// redeliversUnbounded reports whether c is a subscription or trigger that
// unbounded-redelivery reports: one without a dead-letter policy that
// redelivers what fails.
func redeliversUnbounded(g *topology.Graph, c *topology.Component) bool {
	d := c.Delivery
	if d == nil || c.Assumed || d.DeadLetter || d.SingleAttempt || d.AckAtStart {
		return false
	}
	return c.Kind != topology.KindTrigger || len(g.Out[c]) > 0
}
