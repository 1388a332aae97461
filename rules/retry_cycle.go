package rules

import (
	"fmt"
	"strings"

	"github.com/retrylint/retrylint/model"
)

// retryCycle: an event path leads back to its own trigger.
var retryCycle = &Rule{
	Info: Info{
		ID:          "retry-cycle",
		Severity:    model.Error,
		Summary:     "an event path leads back to its own trigger; through a retrying or redelivering edge the executions are unbounded",
		Remediation: "break the cycle: publish results to a different topic, or filter out the events this path produces",
		Doc:         "docs/rules/retry-cycle.md",
	},
	check: func(p *Pass) {
		for _, cyc := range p.Mult.Cycles {
			if len(cyc.Edges) == 0 {
				continue
			}
			e := cyc.Edges[0]
			tail := ""
			if cyc.Retrying {
				tail = "; a layer on it retries or redelivers, so executions are unbounded"
			}
			p.Report(e.Pos, e.From.Name, fmt.Sprintf("event path leads back to its own trigger: %s%s",
				strings.Join(cyc.Names(), " → "), tail))
		}
	},
}
