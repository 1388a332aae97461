package rules

import "github.com/retrylint/retrylint/model"

// topologyCodeDrift: the topology file states a call's retries or
// predicate by hand, and the app's Go code (source: and func:) does
// otherwise. The code wins; the finding names both places.
var topologyCodeDrift = &Rule{
	Info: Info{
		ID:          "topology-code-drift",
		Severity:    model.Warning,
		Summary:     "the topology file states a call's retries or predicate, and the Go code that `source:` and `func:` name does otherwise; the code wins",
		Remediation: "delete retries/on from the call and let the code fill them, or change the code if the file says what is meant",
		Doc:         "docs/rules/topology-code-drift.md",
	},
	check: func(p *Pass) {
		for _, f := range p.Graph.Findings {
			if f.Rule == "topology-code-drift" {
				p.Report(f.Pos, f.Component, f.Message)
			}
		}
	},
}
