package rules

import (
	"fmt"
	"strings"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

// jobMaxRetries: a Cloud Run job retries its own tasks (maxRetries >= 1,
// default 3 when absent) although an orchestrator owns retries.
var jobMaxRetries = &Rule{
	Info: Info{
		ID:          "job-max-retries",
		Severity:    model.Error,
		Summary:     "a Cloud Run job has maxRetries >= 1 (the default when the field is absent is 3); the orchestrator should own retries",
		Remediation: "set maxRetries: 0 (max_retries = 0) and let one layer, the orchestrator, own retries",
		Doc:         "docs/rules/job-max-retries.md",
	},
	check: func(p *Pass) {
		for _, c := range p.Graph.Components {
			if c.Kind != topology.KindJob || c.Job == nil || c.Assumed || c.Job.MaxRetries < 1 {
				continue
			}
			j := c.Job
			how := fmt.Sprintf("maxRetries %d", j.MaxRetries)
			switch {
			case j.MaxRetriesNote != "":
				how = j.MaxRetriesNote
			case j.MaxRetriesDefault:
				how = "no maxRetries field, so the platform default 3 applies (default)"
			}
			for _, o := range c.Overridden {
				if strings.HasPrefix(o, "max_retries") {
					how += ", set by the topology file at " + strings.TrimPrefix(o, "max_retries ")
				}
			}
			p.Report(j.MaxRetriesPos, c.Name, fmt.Sprintf(
				"Cloud Run job %s has %s: each failed task runs up to %d times behind its caller's back, "+
					"multiplying every outer retry by %d and re-running work whose failure was already reported",
				c.Name, how, j.MaxRetries+1, j.MaxRetries+1))
		}
	},
}
