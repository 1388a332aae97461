// Package suppress is the one grammar of retrylint's suppression comments,
// shared by the Go analyzers (//retrylint:ignore) and the manifests of the
// topology half (# retrylint:ignore in YAML and HCL):
//
//	retrylint:ignore RULE[,RULE...] reason
//
// on the line of the finding or the line above it. RULE "all" (or
// "retrylint") covers every rule. A directive without a rule or a reason
// suppresses nothing, and so does a rule name that no rule has: all three
// are reported.
package suppress

import "strings"

// Keyword opens a directive, after the comment marker.
const Keyword = "retrylint:ignore"

// Directive is one parsed suppression comment.
type Directive struct {
	Rules  []string // as written; empty when none is named
	Reason string
}

// Parse reads a directive from the text of a comment after its marker
// ("//", "#"), leading space allowed. ok is false when the text is not a
// directive (another comment, or "retrylint:ignored").
func Parse(text string) (d Directive, ok bool) {
	rest, ok := strings.CutPrefix(strings.TrimLeft(text, " \t"), Keyword)
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return Directive{}, false
	}
	rest = strings.TrimLeft(rest, " \t")
	list, reason, _ := strings.Cut(rest, " ")
	if i := strings.IndexByte(list, '\t'); i >= 0 {
		list, reason = list[:i], list[i+1:]+" "+reason
	}
	for _, r := range strings.Split(list, ",") {
		if r = strings.TrimSpace(r); r != "" {
			d.Rules = append(d.Rules, r)
		}
	}
	d.Reason = strings.Join(strings.Fields(reason), " ")
	return d, true
}

// Wildcard reports whether rule names every rule.
func Wildcard(rule string) bool { return rule == "all" || rule == "retrylint" }

// Covers reports whether d names rule or every rule.
func (d Directive) Covers(rule string) bool {
	for _, r := range d.Rules {
		if r == rule || Wildcard(r) {
			return true
		}
	}
	return false
}

// Valid reports whether d suppresses anything: it names a rule and gives a
// reason.
func (d Directive) Valid() bool { return len(d.Rules) > 0 && d.Reason != "" }

// Unknown lists the rule names of d that are neither a wildcard nor known.
func (d Directive) Unknown(known func(rule string) bool) []string {
	var out []string
	for _, r := range d.Rules {
		if !Wildcard(r) && !known(r) {
			out = append(out, r)
		}
	}
	return out
}
