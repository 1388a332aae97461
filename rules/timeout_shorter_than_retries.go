package rules

import (
	"fmt"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

// timeoutShorterThanRetries: an outer layer stops waiting before the inner
// layer's worst case and retries on that timeout, starting a duplicate.
var timeoutShorterThanRetries = &Rule{
	Info: Info{
		ID:          "timeout-shorter-than-retries",
		Severity:    model.Error,
		Summary:     "an outer layer's timeout is shorter than the inner layer's worst case and the outer layer retries on timeout, starting a duplicate while the first run goes on",
		Remediation: "raise the outer timeout (connector_params.timeout, ack deadline) above (maxRetries+1) × task timeout, or stop retrying on timeout",
		Doc:         "docs/rules/timeout-shorter-than-retries.md",
	},
	check: func(p *Pass) {
		for _, e := range p.Graph.Edges {
			if e.Timeout <= 0 || !(e.Unbounded || e.Retries > 0) || !e.EmitsTo().Has(topology.SigTimeout) || !e.Predicate.Matches(topology.SigTimeout) {
				continue
			}
			// Only a callee that can outlast the wait: a call whose callee's
			// duration is not known (an external API) times out like any
			// call, which is not this rule's case.
			worst := topology.WorstDuration(e.To)
			if e.To.Job != nil {
				worst = e.JobWorstDuration()
			}
			if worst <= e.Timeout {
				continue
			}
			inner := fmt.Sprintf("%s can take %s", e.To.Name, secs(worst))
			if j := e.To.Job; j != nil {
				t, over := j.TaskTimeout, ""
				if e.TaskTimeout > 0 {
					t, over = e.TaskTimeout, " (timeout overridden by the call)"
				}
				inner = fmt.Sprintf("job %s can run (%d+1) × %s = %s per task%s", e.To.Name, j.MaxRetries, secs(t), secs(e.JobWorstDuration()), over)
			}
			wait := fmt.Sprintf("waits %s", secs(e.Timeout))
			if !e.TimeoutSet {
				wait += " (the default)"
			}
			switch e.Kind {
			case topology.EdgeDeliver:
				p.Report(e.Pos, e.From.Name, fmt.Sprintf(
					"%s's ack deadline is %s but its push target %s retries for up to %s: the delivery times out and is redelivered while the handler is still working",
					e.From.Name, secs(e.Timeout), e.To.Name, secs(worst)))
			default:
				p.Report(pos(e), e.From.Name, fmt.Sprintf(
					"%s %s for %s, but %s; its retry policy %s retries the timeout %s, starting a new run while the first may still be going",
					where(e), wait, e.To.Name, inner, e.Predicate, retriesText(e)))
			}
		}
	},
}
