package rules

import (
	"fmt"
	"strings"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

// failureTriggersRedelivery: a failure reaches a deliverer that redelivers
// on it, and below the deliverer the path already retries or notifies a
// sink (the seed's incident 2).
var failureTriggersRedelivery = &Rule{
	Info: Info{
		ID:          "failure-triggers-redelivery",
		Severity:    model.Error,
		Summary:     "a failure reaches a deliverer that redelivers on it (Pub/Sub push, Eventarc to Cloud Run) while the path below already retries or notifies a sink",
		Remediation: "notify-then-ack: report the failure to the system of record once, then end normally (2xx / workflow success) so the delivery is acknowledged",
		Doc:         "docs/rules/failure-triggers-redelivery.md",
	},
	check: func(p *Pass) {
		g := p.Graph
		for _, e := range g.Edges {
			if e.Kind != topology.EdgeDeliver {
				continue
			}
			if d := e.From.Delivery; d != nil && d.AckAtStart {
				continue // acknowledged at start: ChainInfo says so
			}
			if !e.Unbounded && e.Retries == 0 {
				continue // a single attempt: nothing is redelivered
			}
			if len(e.EmitsTo()) == 0 {
				continue
			}
			order, via := below(g, e.To)
			var reasons []string
			var first *topology.Component
			for _, c := range order {
				n := len(reasons)
				if _, what, ok := notifyPos(g, c); ok {
					reasons = append(reasons, fmt.Sprintf("%s %s", c.Name, what))
				}
				for _, out := range g.Out[c] {
					if f := p.factor(out); f.Effective && out.Kind != topology.EdgeDeliver {
						reasons = append(reasons, fmt.Sprintf("%s retries %s %s", where(out), out.To.Name, retriesText(out)))
					}
				}
				if first == nil && len(reasons) > n {
					first = c
				}
			}
			if len(reasons) == 0 {
				continue
			}
			path := e.From.Name + " → " + pathTo(via, first)
			fail := ""
			for _, c := range order {
				if t := failPathText(c); t != "" {
					fail = fmt.Sprintf("; %s fails by %s", c.Name, t)
					break
				}
			}
			deliveries := "until retention expires"
			if !e.Unbounded {
				deliveries = fmt.Sprintf("up to %d deliveries", e.Retries+1)
			}
			p.Report(e.Pos, e.From.Name, fmt.Sprintf(
				"%s redelivers to %s on any non-2xx answer (%s), and the failure comes up from below along %s%s; "+
					"below it %s: each redelivery is an unplanned outer retry layer that re-runs that work and its notifications",
				e.From.Name, e.To.Name, deliveries, path, fail, strings.Join(reasons, ", ")))
		}
	},
}

// ChainInfo lists, per root, what its chain tables should say that is not a
// finding: an Eventarc delivery to a workflow that can end FAILED is
// acknowledged when the execution starts, so the failure is not redelivered
// (GCP-SEMANTICS.md §3).
func ChainInfo(g *topology.Graph) map[string][]string {
	out := map[string][]string{}
	for _, e := range g.Edges {
		d := e.From.Delivery
		if e.Kind == topology.EdgeDeliver && (d == nil || !d.AckAtStart) && (e.Unbounded || e.Retries > 0) && !e.To.Assumed {
			// Redelivery that nothing below can set off: say what the
			// deliveries in the table stand for.
			var quiet []string
			loud := false
			for _, o := range g.Out[e.To] {
				if o.Kind == topology.EdgeNotify {
					continue
				}
				if propagates(o) {
					loud = true
				} else {
					quiet = append(quiet, o.To.Name)
				}
			}
			if !loud && len(quiet) > 0 {
				deliveries := "until retention expires"
				if !e.Unbounded {
					deliveries = fmt.Sprintf("up to %d deliveries", e.Retries+1)
				}
				out[e.From.Name] = append(out[e.From.Name], fmt.Sprintf(
					"%s redelivers to %s (%s) only when %s itself fails — crashes, times out, answers non-2xx on its own: nothing below it (%s) reports a failure up to it, so those counts are the worst case of %s's own failures",
					e.From.Name, e.To.Name, deliveries, e.To.Name, strings.Join(quiet, ", "), e.To.Name))
			}
		}
		if e.Kind != topology.EdgeDeliver || d == nil || !d.AckAtStart {
			continue
		}
		if e.To.Kind == topology.KindWorkflow && !e.To.Assumed && len(e.To.DefaultEmits()) > 0 {
			out[e.From.Name] = append(out[e.From.Name], fmt.Sprintf(
				"%s → %s is acknowledged when the execution starts: the workflow can end FAILED (%s), and that is not redelivered",
				e.From.Name, e.To.Name, failPathText(e.To)))
		}
	}
	return out
}
