package model

import (
	"fmt"
	"sort"
)

// Changes is what a change did, the head compared with its base: the
// findings it introduced and fixed, and how the worst-case executions of
// each component moved.
type Changes struct {
	Base     string          `json:"base"` // the base as given: a directory or a git ref
	New      []Finding       `json:"new"`
	Fixed    []Finding       `json:"fixed"`
	Attempts []AttemptChange `json:"attempts"`
}

// AttemptChange is the worst case of one component before and after; a
// side is nil when the component does not exist there.
type AttemptChange struct {
	Component string `json:"component"`
	// Pipeline names the component's pipeline when the run holds several
	// (Chain.Pipeline): two pipelines may each have a component of that
	// name.
	Pipeline string `json:"pipeline,omitempty"`
	Before   *Worst `json:"before"`
	After    *Worst `json:"after"`
}

// WorstKey names a component within its pipeline.
type WorstKey struct {
	Pipeline  string
	Component string
}

// Worst is the worst-case executions of a component per event, over every
// root that reaches it.
type Worst struct {
	Attempts  *int64 `json:"attempts"` // nil when unbounded
	Unbounded bool   `json:"unbounded"`
	Root      string `json:"root"`    // the root of the worst chain
	Formula   string `json:"formula"` // that chain's formula
}

// String is the number of executions, or "unbounded".
func (w *Worst) String() string {
	switch {
	case w == nil:
		return "—"
	case w.Unbounded || w.Attempts == nil:
		return "unbounded"
	}
	return fmt.Sprint(*w.Attempts)
}

// Worse reports whether w is a worse case than v.
func (w *Worst) Worse(v *Worst) bool {
	switch {
	case v == nil:
		return true
	case w.Unbounded || w.Attempts == nil:
		return !(v.Unbounded || v.Attempts == nil)
	case v.Unbounded || v.Attempts == nil:
		return false
	}
	return *w.Attempts > *v.Attempts
}

// Same reports whether w and v are the same number of executions.
func (w *Worst) Same(v *Worst) bool {
	return w != nil && v != nil && !w.Worse(v) && !v.Worse(w)
}

// WorstCases returns the worst case of every component that a chain
// reaches, over all its roots in its pipeline; ties keep the first root in
// order. A component of one name in two pipelines is two components.
func WorstCases(chains []Chain) map[WorstKey]*Worst {
	out := make(map[WorstKey]*Worst)
	for _, c := range chains {
		k := WorstKey{c.Pipeline, c.Target}
		w := &Worst{Attempts: c.Attempts, Unbounded: c.Unbounded, Root: c.Root, Formula: c.Formula}
		if cur, ok := out[k]; !ok || w.Worse(cur) || (w.Same(cur) && c.Root < cur.Root) {
			out[k] = w
		}
	}
	return out
}

// Compare returns what changed from base to head: findings whose
// fingerprint is only in head (new) or only in base (fixed), and every
// component whose worst case differs, by pipeline and name.
func Compare(base, head *Result) *Changes {
	ch := &Changes{New: []Finding{}, Fixed: []Finding{}, Attempts: []AttemptChange{}}
	ch.New = onlyIn(head.Findings, base.Findings)
	ch.Fixed = onlyIn(base.Findings, head.Findings)

	before, after := WorstCases(base.Chains), WorstCases(head.Chains)
	keys := make(map[WorstKey]bool)
	for k := range before {
		keys[k] = true
	}
	for k := range after {
		keys[k] = true
	}
	for k := range keys {
		b, a := before[k], after[k]
		if b.Same(a) {
			continue
		}
		ch.Attempts = append(ch.Attempts, AttemptChange{Component: k.Component, Pipeline: k.Pipeline, Before: b, After: a})
	}
	sort.Slice(ch.Attempts, func(i, j int) bool {
		a, b := ch.Attempts[i], ch.Attempts[j]
		if a.Pipeline != b.Pipeline {
			return a.Pipeline < b.Pipeline
		}
		return a.Component < b.Component
	})
	return ch
}

// onlyIn returns the findings of xs whose fingerprint is not among those
// of ys, in the order of xs.
func onlyIn(xs, ys []Finding) []Finding {
	in := make(map[string]bool)
	for _, fp := range Fingerprints(ys) {
		in[fp] = true
	}
	out := []Finding{}
	for i, fp := range Fingerprints(xs) {
		if !in[fp] {
			out = append(out, xs[i])
		}
	}
	return out
}
