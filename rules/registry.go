// Package rules holds the topology rules and their registry.
package rules

import (
	"fmt"
	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/multiply"
	"github.com/retrylint/retrylint/topology"
	"strings"
)

// Info describes a rule for the catalogue (`retrylint rules`).
type Info struct {
	ID       string
	Severity model.Severity
	Summary  string
	// Remediation is the one-line fix shown with each finding.
	Remediation string
	// Doc is the rule's page, relative to the repository root.
	Doc string
}

// Rule is one topology check.
type Rule struct {
	Info
	check func(*Pass)
}

// all lists the rules in catalogue order (SPEC §4).
var all = []*Rule{
	jobMaxRetries,
	failureTriggersRedelivery,
	timeoutShorterThanRetries,
	ineffectiveRetryPredicate,
	prematureFailureNotification,
	unboundedRedelivery,
	retryCycle,
	amplification,
	multipleRetryLayers,
	transientNotRetried,
	retryWithoutBackoff,
	retryNonIdempotent,
	unresolvedReference,
	topologyCodeDrift,
	invalidSuppression,
}

// Catalog lists the topology rules in catalogue order.
func Catalog() []Info {
	out := make([]Info, len(all))
	for i, r := range all {
		out[i] = r.Info
	}
	return out
}

// Lookup returns the rule with the given ID.
func Lookup(id string) (Info, bool) {
	for _, r := range all {
		if r.ID == id {
			return r.Info, true
		}
	}
	return Info{}, false
}

// Options configure a run of the rules.
type Options struct {
	// Budget is the maximum executions of a component per event; 0 takes
	// the topology file's budget, or else topology.DefaultBudget (then
	// amplification only warns).
	Budget int
}

// Pass is what a rule sees.
type Pass struct {
	Graph    *topology.Graph
	Mult     *multiply.Result
	Budget   int
	Explicit bool // the budget was given (flag or topology file)
	rule     *Rule
	findings []model.Finding
}

// Report records a finding of the running rule at its default severity.
func (p *Pass) Report(pos topology.Pos, component, msg string) {
	p.ReportSeverity(pos, component, p.rule.Severity, msg)
}

// ReportSeverity records a finding with an explicit severity.
func (p *Pass) ReportSeverity(pos topology.Pos, component string, sev model.Severity, msg string) {
	if pos.Line == 0 {
		pos.Line, pos.Col = 1, 1
	}
	end := pos.EndCol
	if end <= pos.Col {
		end = pos.Col
	}
	p.findings = append(p.findings, model.Finding{
		Rule: p.rule.ID, Severity: sev, Message: msg,
		File: pos.File, Line: pos.Line, Column: pos.Col, EndLine: pos.Line, EndColumn: end,
		Component: component, Fix: p.rule.Remediation,
	})
}

// Run multiplies attempts over g, runs every rule and returns the findings
// that no `# retrylint:ignore` comment suppresses, sorted.
func Run(g *topology.Graph, opts Options) ([]model.Finding, *multiply.Result) {
	mult := multiply.Compute(g)
	p := &Pass{Graph: g, Mult: mult, Budget: topology.DefaultBudget}
	switch {
	case opts.Budget > 0:
		p.Budget, p.Explicit = opts.Budget, true
	case g.Budget > 0:
		p.Budget, p.Explicit = g.Budget, true
	}
	for _, r := range all {
		p.rule = r
		r.check(p)
	}
	var out []model.Finding
	seen := map[model.Finding]bool{}
	assumed := assumedComponents(g)
	for _, f := range p.findings {
		pos := topology.Pos{File: f.File, Line: f.Line, Col: f.Column}
		if f.Rule != invalidSuppression.ID && g.Suppress.Suppressed(f.Rule, pos) {
			continue
		}
		if c := g.Component(f.Component); c != nil && c.MayNotExist != "" {
			// Resting on a resource that may not be created: a warning
			// that says so.
			if f.Severity == model.Error {
				f.Severity = model.Warning
			}
			f.Message += " (" + c.MayNotExist + ")"
		}
		if f.Rule != unresolvedReference.ID && f.Rule != invalidSuppression.ID {
			f.Message += assumedNote(assumed, f.Message)
		}
		if seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	model.SortFindings(out)
	return out, mult
}

// assumedNote says which of the components a message names no manifest
// describes, so that a finding resting on assumed defaults says so.
func assumedNote(assumed []*topology.Component, msg string) string {
	var names []string
	for _, c := range assumed {
		if !mentions(msg, c.Name) {
			continue
		}
		names = append(names, fmt.Sprintf("%s is not loaded, so the defaults of a %s are assumed (%s)", c.Name, c.Kind, topology.KindDefaults(c.Kind)))
	}
	if len(names) == 0 {
		return ""
	}
	return "; " + strings.Join(names, "; ")
}

// assumedComponents are the components of g that no manifest describes and
// whose defaults a finding may rest on, found once for all findings.
func assumedComponents(g *topology.Graph) []*topology.Component {
	var out []*topology.Component
	for _, c := range g.Components {
		if c.Assumed && c.Kind != topology.KindExternal && c.Kind != topology.KindSink && len(c.Name) >= 3 {
			out = append(out, c)
		}
	}
	return out
}

// mentions reports whether msg holds name as a whole word.
func mentions(msg, name string) bool {
	for i := 0; ; {
		j := strings.Index(msg[i:], name)
		if j < 0 {
			return false
		}
		j += i
		before, after := j == 0 || !nameByte(msg[j-1]), j+len(name) == len(msg) || !nameByte(msg[j+len(name)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func nameByte(b byte) bool {
	return b == '-' || b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}
