package rules

import (
	"fmt"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

// transientNotRetried: a retry policy covers some transient failures but not
// others (retries 429 but not 503 — the seed's incident 1, layer 1).
var transientNotRetried = &Rule{
	Info: Info{
		ID:          "transient-not-retried",
		Severity:    model.Warning,
		Summary:     "a retry policy covers some transient failures but not others (retries 429 but not 503)",
		Remediation: "retry every transient failure the callee can report: 429 and 503 (and connection errors, timeouts) alike",
		Doc:         "docs/rules/transient-not-retried.md",
	},
	check: func(p *Pass) {
		pair := topology.TransientPair()
		for _, e := range p.Graph.Edges {
			if e.Kind != topology.EdgeCall || !retriesAtLeast(e, 1) || e.Predicate.Any || !e.Predicate.Known {
				continue
			}
			emitted := e.EmitsTo()
			var covered, missed []topology.Signal
			for _, s := range pair {
				if !topology.Signals(emitted).Matches(s) {
					continue
				}
				if e.Predicate.Matches(s) {
					covered = append(covered, s)
				} else {
					missed = append(missed, s)
				}
			}
			if len(covered) == 0 || len(missed) == 0 {
				continue
			}
			p.Report(pos(e), e.From.Name, fmt.Sprintf(
				"%s retries %s on %s but not on %s, which %s can also answer: that transient failure fails at once",
				where(e), e.To.Name, topology.Signals(covered), topology.Signals(missed), e.To.Name))
		}
	},
}
