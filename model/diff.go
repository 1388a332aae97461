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
	Before    *Worst `json:"before"`
	After     *Worst `json:"after"`
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
// reaches, over all its roots; ties keep the first root in order.
func WorstCases(chains []Chain) map[string]*Worst {
	out := make(map[string]*Worst)
	for _, c := range chains {
		w := &Worst{Attempts: c.Attempts, Unbounded: c.Unbounded, Root: c.Root, Formula: c.Formula}
		if cur, ok := out[c.Target]; !ok || w.Worse(cur) || (w.Same(cur) && c.Root < cur.Root) {
			out[c.Target] = w
		}
	}
	return out
}

// Compare returns what changed from base to head: findings whose
// fingerprint is only in head (new) or only in base (fixed), and every
// component whose worst case differs, by name.
func Compare(base, head *Result) *Changes {
	ch := &Changes{New: []Finding{}, Fixed: []Finding{}, Attempts: []AttemptChange{}}
	ch.New = onlyIn(head.Findings, base.Findings)
	ch.Fixed = onlyIn(base.Findings, head.Findings)

	before, after := WorstCases(base.Chains), WorstCases(head.Chains)
	names := make(map[string]bool)
	for n := range before {
		names[n] = true
	}
	for n := range after {
		names[n] = true
	}
	for n := range names {
		b, a := before[n], after[n]
		if b.Same(a) {
			continue
		}
		ch.Attempts = append(ch.Attempts, AttemptChange{Component: n, Before: b, After: a})
	}
	sort.Slice(ch.Attempts, func(i, j int) bool { return ch.Attempts[i].Component < ch.Attempts[j].Component })
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
