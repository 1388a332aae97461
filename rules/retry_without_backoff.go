package rules

import (
	"fmt"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

// retryWithoutBackoff: a custom retry policy with more than one retry and no
// growing wait between attempts.
var retryWithoutBackoff = &Rule{
	Info: Info{
		ID:          "retry-without-backoff",
		Severity:    model.Warning,
		Summary:     "a custom retry policy retries more than once with no backoff or a multiplier <= 1",
		Remediation: "add an exponential backoff with a cap and jitter (e.g. initial 1s, max 60s, multiplier 2)",
		Doc:         "docs/rules/retry-without-backoff.md",
	},
	check: func(p *Pass) {
		for _, e := range p.Graph.Edges {
			if e.Kind != topology.EdgeCall || !retriesAtLeast(e, 2) {
				continue
			}
			switch e.Predicate.Name {
			case "http.default_retry", "http.default_retry_non_idempotent":
				continue // named policies carry retry.default_backoff
			}
			b := e.Backoff
			switch {
			case b == nil:
				p.Report(pos(e), e.From.Name, fmt.Sprintf(
					"%s retries %s %s with no backoff: the retries land together on a struggling dependency", where(e), e.To.Name, retriesText(e)))
			case b.Multiplier <= 1:
				p.Report(pos(e), e.From.Name, fmt.Sprintf(
					"%s retries %s %s with a constant wait (multiplier %g): clients stay synchronised and the storm keeps its shape", where(e), e.To.Name, retriesText(e), b.Multiplier))
			}
		}
	},
}
