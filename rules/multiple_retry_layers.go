package rules

import (
	"fmt"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

// multipleRetryLayers: two or more layers on one path retry the same
// failure, so attempts multiply.
var multipleRetryLayers = &Rule{
	Info: Info{
		ID:          "multiple-retry-layers",
		Severity:    model.Warning,
		Summary:     "two or more layers on one path retry the same failure: attempts multiply (inner × outer)",
		Remediation: "choose one retry owner per failure; set the other layers to no retries or to failures the owner does not handle",
		Doc:         "docs/rules/multiple-retry-layers.md",
	},
	check: func(p *Pass) {
		g := p.Graph
		for _, outer := range g.Edges {
			if outer.Kind == topology.EdgeDeliver || !p.factor(outer).Effective {
				continue
			}
			inner, via := firstBelow(g, outer.To, func(e *topology.Edge) bool {
				return e.Kind != topology.EdgeDeliver && e.Kind != topology.EdgeNotify && p.factor(e).Effective
			})
			if inner == nil {
				continue
			}
			fo, fi := p.factor(outer), p.factor(inner)
			p.Report(pos(outer), outer.From.Name, fmt.Sprintf(
				"%s retries %s %s, and below it %s retries %s %s (path %s → %s): the same failure is retried by both layers, so attempts multiply: %s×%s",
				where(outer), outer.To.Name, retriesText(outer), where(inner), inner.To.Name, retriesText(inner),
				outer.From.Name, pathTo(via, inner.To), fo.Term, fi.Term))
		}
	},
}
