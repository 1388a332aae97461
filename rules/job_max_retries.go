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
		Summary:     "a Cloud Run job has maxRetries >= 1 (the default when the field is absent is 3), or a Kubernetes Job or CronJob backoffLimit >= 1 (default 6); the orchestrator should own retries",
		Remediation: "set maxRetries: 0 (max_retries = 0; for Kubernetes backoffLimit: 0) and let one layer, the orchestrator, own retries",
		Doc:         "docs/rules/job-max-retries.md",
	},
	check: func(p *Pass) {
		for _, c := range p.Graph.Components {
			if c.Kind != topology.KindJob && c.Kind != topology.KindK8sJob || c.Job == nil || c.Assumed || c.Job.MaxRetries < 1 {
				continue
			}
			j := c.Job
			field, what, unit, def := "maxRetries", "Cloud Run job", "task", topology.DefaultJobMaxRetries
			if c.Kind == topology.KindK8sJob {
				field, what, unit, def = "backoffLimit", "Kubernetes job", "pod", topology.DefaultK8sBackoffLimit
			}
			how := fmt.Sprintf("%s %d", field, j.MaxRetries)
			switch {
			case j.MaxRetriesNote != "":
				how = j.MaxRetriesNote
			case j.MaxRetriesDefault:
				how = fmt.Sprintf("no %s field, so the platform default %d applies (default)", field, def)
			}
			for _, o := range c.Overridden {
				if strings.HasPrefix(o, "max_retries") {
					how += ", set by the topology file at " + strings.TrimPrefix(o, "max_retries ")
				}
			}
			runs := fmt.Sprintf("each failed %s runs up to %d times", unit, j.MaxRetries+1)
			if c.Kind == topology.KindK8sJob {
				runs = fmt.Sprintf("the job starts up to %d pods", j.MaxRetries+1)
			}
			if len(p.Graph.In[c]) == 0 {
				p.Report(j.MaxRetriesPos, c.Name, fmt.Sprintf(
					"%s %s has %s: %s; no loaded manifest invokes it, so today that is its only retry layer, but "+
						"once an orchestrator (a workflow, a scheduler, a pipeline) retries it the layers multiply and work whose failure was already reported runs again",
					what, c.Name, how, runs))
				continue
			}
			p.Report(j.MaxRetriesPos, c.Name, fmt.Sprintf(
				"%s %s has %s: %s behind its caller's back, "+
					"multiplying every outer retry by %d and re-running work whose failure was already reported",
				what, c.Name, how, runs, j.MaxRetries+1))
		}
	},
}
