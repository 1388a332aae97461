// Package suppress is the one grammar of retrylint's suppression comments,
// shared by the Go analyzers (//retrylint:ignore) and the manifests of the
// topology half (# retrylint:ignore in YAML and HCL):
//
//	retrylint:ignore RULE[,RULE...] reason
//
// on the line of the finding or the line above it. RULE "all" (or
// "retrylint") covers every rule. A directive without a rule or a reason
// suppresses nothing, and so does a rule name that no rule of the half
// has, and a directive that is malformed (a misspelt keyword, a space
// after a comma of the rule list): Check says what is wrong with each, and
// both halves report it as the rule invalid-suppression.
package suppress

import (
	"fmt"
	"strings"
)

// Keyword opens a directive, after the comment marker.
const Keyword = "retrylint:ignore"

// Directive is one parsed suppression comment.
type Directive struct {
	Rules  []string // as written; empty when none is named
	Reason string
	// Malformed says how the directive departs from the grammar ("" when
	// it does not); a malformed directive suppresses nothing.
	Malformed string
}

// Parse reads a directive from the text of a comment after its marker
// ("//", "#"), leading space allowed. ok is false when the text is no
// directive: another comment, or prose such as "retrylint ignores…". A
// near miss of the keyword ("retrylint-ignore", "retrylint:ignore:rule",
// "Retrylint:ignore") is a directive, Malformed.
func Parse(text string) (d Directive, ok bool) {
	text = strings.TrimLeft(text, " \t")
	rest, ok := strings.CutPrefix(text, Keyword)
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		if written, near := nearKeyword(text); near {
			return Directive{Malformed: fmt.Sprintf("%q is not %s", written, Keyword)}, true
		}
		return Directive{}, false
	}
	rest = strings.TrimLeft(rest, " \t")
	list, reason, _ := strings.Cut(rest, " ")
	if i := strings.IndexByte(list, '\t'); i >= 0 {
		list, reason = list[:i], list[i+1:]+" "+reason
	}
	empty := false
	for _, r := range strings.Split(list, ",") {
		if r = strings.TrimSpace(r); r != "" {
			d.Rules = append(d.Rules, r)
		} else if list != "" {
			empty = true
		}
	}
	d.Reason = strings.Join(strings.Fields(reason), " ")
	if empty {
		d.Malformed = fmt.Sprintf("the rule list %q has an empty name (write RULE,RULE, with no space after a comma)", list)
	}
	return d, true
}

// nearKeyword reports whether text opens with a near miss of Keyword:
// "retrylint" in any case, a separator, and a word within two edits of
// "ignore" ("retrylint-ignore", "retrylint:ingore", "retrylint:ignored"),
// or the keyword glued to what follows ("retrylint:ignore:rule"). A space
// alone separates only "ignore" itself: "retrylint ignores…" is prose. It
// returns the near miss as written.
func nearKeyword(text string) (written string, ok bool) {
	const name = "retrylint"
	if len(text) < len(name) || !strings.EqualFold(text[:len(name)], name) {
		return "", false
	}
	rest := text[len(name):]
	sep := rest[:len(rest)-len(strings.TrimLeft(rest, ":-_ \t"))]
	word := strings.TrimLeft(rest, ":-_ \t")
	word = word[:len(word)-len(strings.TrimLeftFunc(word, isLetter))]
	lower := strings.ToLower(word)
	switch {
	case lower == "" || Distance(lower, "ignore") > 2:
		return "", false
	case strings.TrimSpace(sep) == "" && lower != "ignore":
		return "", false
	}
	written = text[:len(name)+len(sep)+len(word)]
	if tail := text[len(written):]; tail != "" && !strings.ContainsAny(tail[:1], " \t") {
		written += tail[:1] // the character glued to the keyword
	}
	return written, true
}

func isLetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }

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

// Valid reports whether d suppresses anything: it is well formed, names a
// rule and gives a reason.
func (d Directive) Valid() bool { return d.Malformed == "" && len(d.Rules) > 0 && d.Reason != "" }

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
