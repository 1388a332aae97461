package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// A finding is one diagnostic of retrylint, its path relative to the
// repository root.
type finding struct {
	Repo    string
	Path    string
	Line    int
	Rule    string
	Message string
}

// outcome says what a finding or a label turned out to be.
type outcome int

const (
	truePositive outcome = iota
	falsePositive
	falseNegative
	outside // a finding away from every labelled loop: to be reviewed
)

// A verdict is one scored item: a finding (TP, FP, outside) or a missed
// label (FN).
type verdict struct {
	Outcome outcome
	Finding finding
	Label   label // the label matched (TP), missed (FN), or whose loop holds the FP
}

// tolerance is how far a finding's line may be from its label's: a loop's
// keyword and its label, a select and its timer case.
const tolerance = 1

// score matches findings against labels. regions gives, per label, the lines
// of the loop it belongs to. A finding matches a label with the same repo,
// path and rule within tolerance lines (each label at most once, the closest
// first); an unmatched finding inside a labelled loop is a false positive;
// any other is outside. A label no finding matched is a false negative.
func score(labels []label, regions []span, findings []finding) []verdict {
	type key struct{ repo, path, rule string }
	byKey := map[key][]int{}
	byFile := map[[2]string][]int{}
	for i, l := range labels {
		byFile[[2]string{l.Repo, l.Path}] = append(byFile[[2]string{l.Repo, l.Path}], i)
		if l.Rule != silent {
			k := key{l.Repo, l.Path, l.Rule}
			byKey[k] = append(byKey[k], i)
		}
	}
	findings = dedupe(findings)
	matched := make([]bool, len(labels))
	var out []verdict
	for _, f := range findings {
		best, bestDist := -1, tolerance+1
		for _, i := range byKey[key{f.Repo, f.Path, f.Rule}] {
			if d := abs(labels[i].Line - f.Line); d < bestDist && !matched[i] {
				best, bestDist = i, d
			}
		}
		if best >= 0 {
			matched[best] = true
			out = append(out, verdict{Outcome: truePositive, Finding: f, Label: labels[best]})
			continue
		}
		v := verdict{Outcome: outside, Finding: f}
		for _, i := range byFile[[2]string{f.Repo, f.Path}] {
			if regions[i].has(f.Line) {
				v = verdict{Outcome: falsePositive, Finding: f, Label: labels[i]}
				break
			}
		}
		out = append(out, v)
	}
	for i, l := range labels {
		if l.Rule != silent && !matched[i] {
			out = append(out, verdict{Outcome: falseNegative, Label: l})
		}
	}
	return out
}

// dedupe drops repeated findings (the same rule at the same place reported
// twice, e.g. by two modules that share a file) and sorts them.
func dedupe(fs []finding) []finding {
	seen := map[string]bool{}
	var out []finding
	for _, f := range fs {
		k := fmt.Sprintf("%s\t%s\t%d\t%s", f.Repo, f.Path, f.Line, f.Rule)
		if !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Repo != b.Repo {
			return a.Repo < b.Repo
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Rule < b.Rule
	})
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// tally counts the outcomes of one slice of the verdicts.
type tally struct{ TP, FP, FN, Outside int }

func (t *tally) add(o outcome) {
	switch o {
	case truePositive:
		t.TP++
	case falsePositive:
		t.FP++
	case falseNegative:
		t.FN++
	case outside:
		t.Outside++
	}
}

func ratio(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(d))
}

func (t tally) precision() string { return ratio(t.TP, t.TP+t.FP) }
func (t tally) recall() string    { return ratio(t.TP, t.TP+t.FN) }

// loopCounts counts the labelled loops (distinct regions) and how many of
// them carry at least one expected finding.
func loopCounts(labels []label, regions []span) (loops, defective int) {
	type loop struct {
		repo, path string
		s          span
	}
	bad := map[loop]bool{}
	for i, l := range labels {
		k := loop{l.Repo, l.Path, regions[i]}
		bad[k] = bad[k] || l.Rule != silent
	}
	for _, b := range bad {
		loops++
		if b {
			defective++
		}
	}
	return loops, defective
}

// printSummary writes the figures per repository, overall and per rule.
func printSummary(w io.Writer, labels []label, regions []span, vs []verdict) {
	repos := map[string]*tally{}
	perRule := map[string]*tally{}
	var all tally
	get := func(m map[string]*tally, k string) *tally {
		if m[k] == nil {
			m[k] = &tally{}
		}
		return m[k]
	}
	for _, l := range labels {
		get(repos, l.Repo)
		if l.Rule != silent {
			get(perRule, l.Rule)
		}
	}
	for _, v := range vs {
		repo, rule := v.Finding.Repo, v.Finding.Rule
		if v.Outcome == falseNegative {
			repo, rule = v.Label.Repo, v.Label.Rule
		}
		get(repos, repo).add(v.Outcome)
		get(perRule, rule).add(v.Outcome)
		all.add(v.Outcome)
	}
	loops, defective := loopCounts(labels, regions)
	fmt.Fprintf(w, "labels: %d rows, %d loops (%d with defects, %d look-alikes) in %d repositories\n\n",
		len(labels), loops, defective, loops-defective, len(repos))
	table := func(title string, m map[string]*tally) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(w, "%-32s %4s %4s %4s %9s %9s %7s\n", title, "TP", "FP", "FN", "precision", "recall", "outside")
		for _, k := range keys {
			t := m[k]
			fmt.Fprintf(w, "%-32s %4d %4d %4d %9s %9s %7d\n", k, t.TP, t.FP, t.FN, t.precision(), t.recall(), t.Outside)
		}
		fmt.Fprintln(w)
	}
	table("repository", repos)
	table("rule", perRule)
	fmt.Fprintf(w, "%-32s %4d %4d %4d %9s %9s %7d\n", "overall", all.TP, all.FP, all.FN, all.precision(), all.recall(), all.Outside)
}

// writeDetails writes every verdict as a tab-separated line: outcome, repo,
// path, line, rule, and the label's note or the finding's message.
func writeDetails(w io.Writer, vs []verdict, which func(outcome) bool) {
	names := map[outcome]string{truePositive: "TP", falsePositive: "FP", falseNegative: "FN", outside: "outside"}
	fmt.Fprintln(w, strings.Join([]string{"outcome", "repo", "path", "line", "rule", "label", "text"}, "\t"))
	for _, v := range vs {
		if !which(v.Outcome) {
			continue
		}
		f, text, lab := v.Finding, v.Finding.Message, ""
		if v.Outcome == falseNegative {
			f = finding{Repo: v.Label.Repo, Path: v.Label.Path, Line: v.Label.Line, Rule: v.Label.Rule}
			text = v.Label.Note
		}
		if v.Outcome != outside {
			lab = fmt.Sprintf("%d %s: %s", v.Label.Line, v.Label.Rule, v.Label.Note)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\t%s\n", names[v.Outcome], f.Repo, f.Path, f.Line, f.Rule, lab, text)
	}
}
