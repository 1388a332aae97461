package rules

import (
	"fmt"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

// retryNonIdempotent: the idempotent default retry policy of Workflows on a
// call that must not run twice.
var retryNonIdempotent = &Rule{
	Info: Info{
		ID:          "retry-non-idempotent",
		Severity:    model.Warning,
		Summary:     "http.default_retry or http.default_retry_predicate on a POST, a PATCH or a call that starts work (jobs.run, executions run/create), which it may repeat after it took effect",
		Remediation: "use ${http.default_retry_non_idempotent} (or predicate ${http.default_retry_predicate_non_idempotent}), or make the call idempotent (a request ID the callee deduplicates) and say so in a suppression",
		Doc:         "docs/rules/retry-non-idempotent.md",
	},
	check: func(p *Pass) {
		for _, e := range p.Graph.Edges {
			if e.Kind != topology.EdgeCall {
				continue // a deliverer's redelivery is failure-triggers-redelivery's
			}
			what := ""
			switch {
			case e.StartsWork && e.To.Kind == topology.KindJob:
				what = "jobs.run of"
			case e.StartsWork:
				what = "the start of an execution of"
			case e.Method == "POST" || e.Method == "PATCH":
				what = "a " + e.Method + " to"
			default:
				continue
			}
			layers := e.Tries
			if len(layers) == 0 {
				layers = []topology.RetryLayer{{Retries: e.Retries, Unbounded: e.Unbounded, Predicate: e.Predicate, Pos: pos(e)}}
			}
			for _, l := range layers {
				switch l.Predicate.Name {
				case "http.default_retry", "http.default_retry_predicate":
				default:
					continue
				}
				if !l.Unbounded && l.Retries < 1 {
					continue
				}
				p.Report(l.Pos, e.From.Name, fmt.Sprintf(
					"%s retries %s %s with %s, which also retries HTTP 502 and 504, connection errors and timeouts: failures that can come after the request took effect, so a retry may apply it twice (%s); %s is the policy for calls that must not repeat",
					where(e), what, e.To.Name, l.Predicate.Name, effect(e), nonIdempotent(l.Predicate.Name)))
			}
		}
	},
}

// effect names what running e twice does.
func effect(e *topology.Edge) string {
	switch {
	case e.To.Kind == topology.KindJob:
		return "a second job execution while the first may still run"
	case e.StartsWork:
		return "a second execution of " + e.To.Name
	case e.Method == "PATCH":
		return "the update applied twice, over a change made in between"
	}
	return "a second order, charge or record"
}

func nonIdempotent(name string) string {
	if name == "http.default_retry_predicate" {
		return "http.default_retry_predicate_non_idempotent"
	}
	return "http.default_retry_non_idempotent"
}
