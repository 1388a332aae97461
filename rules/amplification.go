package rules

import (
	"fmt"
	"strings"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/multiply"
	"github.com/retrylint/retrylint/topology"
)

// amplification: worst-case executions of a component per event exceed the
// budget.
var amplification = &Rule{
	Info: Info{
		ID:          "amplification",
		Severity:    model.Warning,
		Summary:     "worst-case executions of a component per event exceed the budget (default 10; an explicit budget makes it an error)",
		Remediation: "remove a retry layer or lower its retries so the product of (retries+1) stays within the budget",
		Doc:         "docs/rules/amplification.md",
	},
	check: func(p *Pass) {
		sev := model.Warning
		budget := "the default budget of"
		if p.Explicit {
			sev, budget = model.Error, "the budget of"
		}
		nestedTries := false // read a chain's factors only when some call has them
		for _, e := range p.Graph.Edges {
			nestedTries = nestedTries || len(e.Tries) > 1 && e.Note != ""
		}
		unbounded := unboundedChains(p)
		for _, c := range p.Graph.Components {
			ch := p.Mult.Worst[c]
			if c.Kind == topology.KindSink {
				continue // notifications received, not executions
			}
			if u := unbounded[c]; u != nil {
				reportUnbounded(p, c, u)
				continue
			}
			if ch == nil || ch.Count.Unbounded || ch.Count.N <= int64(p.Budget) {
				continue
			}
			if !ch.Retried() {
				continue
			}
			nested := ""
			for _, f := range factorsIf(nestedTries, ch) {
				if e := f.Edge; f.Effective && len(e.Tries) > 1 && e.Note != "" {
					nested += fmt.Sprintf("; %s: %s", where(e), e.Note)
				}
			}
			p.ReportSeverity(c.Pos, c.Name, sev, fmt.Sprintf(
				"%s runs up to %s times per event from %s: %s, over %s %d (path %s)%s",
				c.Name, ch.Count, ch.Root.Name, ch.Formula(), budget, p.Budget, strings.Join(ch.Path(), " → "), nested))
		}
	},
}

// factorsIf is the chain's factors when want, none otherwise: walking
// every chain's factors would cost the square of a long line.
func factorsIf(want bool, ch *multiply.Chain) []multiply.Factor {
	if !want {
		return nil
	}
	return ch.Factors()
}

// unboundedChains picks, per component, a chain from some root on which
// its executions are unbounded through a cause no other rule reports: a
// caller's own retries without limit, or a redelivery without limit that
// unbounded-redelivery leaves unsaid. A subscription without a dead-letter
// policy is unbounded-redelivery's finding, a retry cycle retry-cycle's.
func unboundedChains(p *Pass) map[*topology.Component]*multiply.Chain {
	out := map[*topology.Component]*multiply.Chain{}
	for _, ch := range p.Mult.Chains {
		if !ch.Count.Unbounded || !ch.Retried() || out[ch.Target] != nil || unboundedCause(p, ch) == nil {
			continue
		}
		out[ch.Target] = ch
	}
	return out
}

// unboundedCause is the factor that makes ch unbounded and that no other
// rule reports; nil when there is none.
func unboundedCause(p *Pass, ch *multiply.Chain) *multiply.Factor {
	if f := ch.UnboundedRetry(); f != nil {
		return f
	}
	if f := ch.UnboundedDelivery(); f != nil && !redeliversUnbounded(p.Graph, f.Edge.From) {
		return f
	}
	return nil
}

// reportUnbounded reports c, whose executions per event ch shows to be
// unbounded: no budget holds that, declared or not, so it is an error.
func reportUnbounded(p *Pass, c *topology.Component, ch *multiply.Chain) {
	p.ReportSeverity(c.Pos, c.Name, model.Error, fmt.Sprintf(
		"%s runs without limit per event from %s: %s; %s; an unbounded worst case is over every budget (path %s)",
		c.Name, ch.Root.Name, ch.Formula(), unboundedText(unboundedCause(p, ch)), strings.Join(ch.Path(), " → ")))
}

// unboundedText says where the retries without limit of f are set, and
// why when they were assumed.
func unboundedText(f *multiply.Factor) string {
	e := f.Edge
	for _, l := range e.Layers {
		if !l.Unbounded || !l.Predicate.MatchesAny(e.EmitsTo()) {
			continue
		}
		if l.CountUnknown {
			// Something bounds the loop, but no count: assumed at its worst.
			return fmt.Sprintf("the retry loop in %s at %s has no count the analysis can read (%s), so it is assumed to retry the call to %s without limit; give the count with `retries:` on the call",
				l.Func, l.Pos, l.Note, e.To.Name)
		}
		return fmt.Sprintf("the retry loop in %s at %s retries the call to %s without limit", l.Func, l.Pos, e.To.Name)
	}
	s := fmt.Sprintf("%s retries %s without limit at %s", where(e), e.To.Name, pos(e))
	if e.Note != "" {
		s += " (" + e.Note + ")"
	}
	return s
}
