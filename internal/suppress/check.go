package suppress

import (
	"fmt"
	"slices"
	"strings"
)

// Half is what a directive of one half of retrylint may name, and how its
// comments are written.
type Half struct {
	Marker string   // the comment marker directives are written after: "//", "#"
	Rules  []string // the rules of this half: what a directive here suppresses
	// Other names the other half ("topology", "code") and Where says where
	// its findings are not ("Go code", "manifests"); OtherRules are its
	// rules, named here by mistake.
	Other, Where string
	OtherRules   []string
}

// The rule names of each half, as directives name them. The analyzers'
// and the topology registry's tests hold these lists to the rules they
// have, so that a new rule is known and a removed one is not.
var (
	CodeRules = []string{"fixed-sleep", "no-jitter", "no-cap", "unbounded-retry", "unclassified-retry",
		"retry-permanent", "sleep-ignores-context", "nested-retry", "invalid-suppression"}
	TopologyRules = []string{"job-max-retries", "failure-triggers-redelivery", "timeout-shorter-than-retries",
		"ineffective-retry-predicate", "premature-failure-notification", "unbounded-redelivery", "retry-cycle",
		"amplification", "multiple-retry-layers", "transient-not-retried", "retry-without-backoff",
		"retry-non-idempotent", "unresolved-reference", "topology-code-drift", "invalid-suppression"}
)

// Code and Topology are the two halves.
var (
	Code     = Half{Marker: "//", Rules: CodeRules, Other: "topology", Where: "Go code", OtherRules: TopologyRules}
	Topology = Half{Marker: "# ", Rules: TopologyRules, Other: "code", Where: "manifests", OtherRules: CodeRules}
)

// Check says what is wrong with the directive in text, the text of a
// comment after its marker, and what to write instead: "" when text is a
// valid directive, or no directive at all. A rule name that is no rule of
// the half is answered with the nearest that is, when one is near.
func Check(text string, h Half) string {
	d, ok := Parse(text)
	if !ok {
		return ""
	}
	fix := h.Marker + Keyword + " RULE REASON"
	if d.Malformed != "" {
		return fmt.Sprintf("%s, so it suppresses nothing; write %s", d.Malformed, fix)
	}
	var problems, meant, known []string
	for _, r := range d.Rules {
		switch near := Nearest(r, h.Rules); {
		case Wildcard(r) || slices.Contains(h.Rules, r):
			known = append(known, r)
			meant = append(meant, r)
		case slices.Contains(h.OtherRules, r):
			problems = append(problems, fmt.Sprintf("%q is a %s rule, with no finding in %s", r, h.Other, h.Where))
		case near != "":
			problems = append(problems, fmt.Sprintf("%q is no rule (did you mean %s?)", r, near))
			meant = append(meant, near)
		default:
			problems = append(problems, fmt.Sprintf("%q is no rule (retrylint rules lists them)", r))
		}
	}
	if len(d.Rules) == 0 {
		problems = append(problems, "it names no rule")
	}
	if d.Reason == "" {
		problems = append(problems, "it gives no reason")
	}
	if len(problems) == 0 {
		return ""
	}
	effect := "suppresses nothing"
	if len(known) > 0 && d.Reason != "" {
		effect = "suppresses " + strings.Join(known, ",") + " only"
	}
	msg := Keyword + " " + effect + ": " + sentence(problems)
	if len(d.Rules) == 0 || d.Reason == "" {
		if len(meant) > 0 {
			fix = h.Marker + Keyword + " " + strings.Join(meant, ",") + " REASON"
		}
		msg += "; write " + fix + ", the reason saying why the finding does not apply"
	}
	return msg
}

// sentence joins clauses as "a", "a and b", "a, b and c".
func sentence(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// Nearest returns the name of names closest to name — in edit distance,
// case and the separators - and _ aside, or the one name containing it —
// when it is near enough to be what was meant: "no-jiter" → "no-jitter",
// "nojitter" → "no-jitter", "jitter" → "no-jitter"; "retry", in four
// names, is none of them. "" when none is near.
func Nearest(name string, names []string) string {
	key := func(s string) string {
		return strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(s))
	}
	k := key(name)
	containing := 0
	for _, n := range names {
		if strings.Contains(key(n), k) {
			containing++
		}
	}
	best, bestDist := "", 0
	for _, n := range names {
		d := Distance(k, key(n))
		if len(k) >= 4 && containing == 1 && strings.Contains(key(n), k) {
			d = min(d, 2)
		}
		if d <= max(2, len(k)/4) && (best == "" || d < bestDist) {
			best, bestDist = n, d
		}
	}
	return best
}

// Distance is the edit distance of a and b: the fewest single-byte
// insertions, deletions and substitutions that turn a into b.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
