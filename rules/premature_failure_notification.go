package rules

import (
	"fmt"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

// prematureFailureNotification: a component reports terminal failure to a
// sink while an outer layer may still retry it ("SAGA Failed, later success
// dropped").
var prematureFailureNotification = &Rule{
	Info: Info{
		ID:          "premature-failure-notification",
		Severity:    model.Error,
		Summary:     "a component notifies a sink of terminal failure while an outer layer may still retry it, so a later success is dropped",
		Remediation: "let the outermost retry owner report the final outcome, or remove the outer retry (maxRetries: 0, notify-then-ack)",
		Doc:         "docs/rules/premature-failure-notification.md",
	},
	check: func(p *Pass) {
		g := p.Graph
		for _, c := range g.Components {
			at, what, ok := notifyPos(g, c)
			if !ok {
				continue
			}
			// Walk up the failure-propagation chain looking for a layer
			// that retries c's failure.
			seen := map[*topology.Component]bool{c: true}
			queue := []*topology.Component{c}
			var outer *topology.Edge
			for len(queue) > 0 && outer == nil {
				x := queue[0]
				queue = queue[1:]
				for _, e := range g.In[x] {
					if p.factor(e).Effective {
						outer = e
						break
					}
					if propagates(e) && !seen[e.From] {
						seen[e.From] = true
						queue = append(queue, e.From)
					}
				}
			}
			if outer == nil {
				continue
			}
			p.Report(at, c.Name, fmt.Sprintf(
				"%s %s, but %s retries %s %s on that failure: the sink records a failure that a retry may turn into a success, and the late success is dropped as a duplicate",
				c.Name, what, where(outer), outer.To.Name, retriesText(outer)))
		}
	},
}
