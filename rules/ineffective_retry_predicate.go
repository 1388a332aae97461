package rules

import (
	"fmt"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

// ineffectiveRetryPredicate: a retry policy whose predicate cannot see the
// failure it wraps (the seed's incident 1, layer 3).
var ineffectiveRetryPredicate = &Rule{
	Info: Info{
		ID:          "ineffective-retry-predicate",
		Severity:    model.Error,
		Summary:     "a retry policy's predicate cannot see the failure it wraps, e.g. http.default_retry_predicate around jobs.run never matches OperationError",
		Remediation: "use a predicate that matches the callee's failure (for jobs.run: a subworkflow that returns true for \"OperationError\" in e.tags), or remove the dead retry",
		Doc:         "docs/rules/ineffective-retry-predicate.md",
	},
	check: func(p *Pass) {
		for _, e := range p.Graph.Edges {
			if len(e.Tries) == 0 {
				checkPredicate(p, e)
				continue
			}
			// Nested try blocks: each layer on its own.
			for _, l := range e.Tries {
				le, lc := *e, *e.Call
				lc.Retries, lc.Predicate, lc.RetryPos, lc.Unbounded = l.Retries, l.Predicate, l.Pos, l.Unbounded
				le.Call = &lc
				checkPredicate(p, &le)
			}
		}
	},
}

// checkPredicate reports e when its predicate matches none of the failures
// its callee reports.
func checkPredicate(p *Pass, e *topology.Edge) {
	if e.Kind != topology.EdgeCall || !retriesAtLeast(e, 1) || e.Predicate.Any || !e.Predicate.Known {
		return
	}
	emitted := e.EmitsTo()
	if len(emitted) == 0 {
		return
	}
	failure := emitted
	switch e.To.Kind {
	case topology.KindJob:
		failure = topology.Signals{topology.SigOperationError}
	case topology.KindWorkflow:
		failure = topology.Signals{topology.SigWorkflowFailed}
	}
	if e.Predicate.MatchesAny(failure) {
		return
	}
	still := ""
	if m := e.Predicate.Matched(emitted); len(m) > 0 {
		still = fmt.Sprintf("; it still retries %s, which re-runs %s", m, e.To.Name)
	}
	what := failure.String()
	if e.To.Kind == topology.KindJob {
		what = "operation-error (Workflows raises OperationError when the job execution fails)"
	}
	noun := "call"
	switch e.To.Kind {
	case topology.KindJob:
		noun = "job"
	case topology.KindWorkflow:
		noun = "execution"
	}
	p.Report(pos(e), e.From.Name, fmt.Sprintf(
		"the retry policy of %s (%s, %s) cannot see the failure of %s: %s, which it never matches, so a failed %s is never retried and this retry layer is dead%s",
		where(e), e.Predicate, retriesText(e), e.To.Name, what, noun, still))
}
