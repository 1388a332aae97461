package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/retrylint/retrylint/analyzer/all"
	"github.com/retrylint/retrylint/docs"
	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/rules"
)

// ruleInfo is one line of the rule catalogue.
type ruleInfo struct {
	Name     string
	Half     string // "code", "topology", or "both" for a rule of each
	Severity model.Severity
	Summary  string
}

// catalogue lists every rule once: the code rules, then the topology
// rules. A code rule's summary is its page's; a rule of both halves
// (invalid-suppression) is listed with the code rules, its half "both".
func catalogue() []ruleInfo {
	var list []ruleInfo
	for _, r := range all.Rules() {
		list = append(list, ruleInfo{r.Name, "code", all.Severity(r.Name), summaryLine(docs.Summary(r.Name))})
	}
	for _, r := range rules.Catalog() {
		if i := slices.IndexFunc(list, func(c ruleInfo) bool { return c.Name == r.ID }); i >= 0 {
			list[i].Half = "both"
			continue
		}
		list = append(list, ruleInfo{r.ID, "topology", r.Severity, r.Summary})
	}
	return list
}

// summaryLine turns a page's summary sentence into the catalogue's style,
// a clause: "A retry loop waits." becomes "a retry loop waits".
func summaryLine(sentence string) string {
	s := strings.TrimSuffix(sentence, ".")
	word, _, _ := strings.Cut(s, " ")
	if acronym := len(word) > 1 && word == strings.ToUpper(word); s == "" || acronym {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[size:]
}

func newRulesCmd() *cobra.Command {
	format := "text"
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List every rule: name, half (code or topology), default severity, summary",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch format {
			case "text":
				return writeCatalogue(cmd.OutOrStdout(), catalogue())
			case "json":
				return writeCatalogueJSON(cmd.OutOrStdout(), catalogue())
			}
			return fmt.Errorf("--format: want text or json, got %q", format)
		},
	}
	cmd.Flags().StringVar(&format, "format", format, "output format: text|json")
	return cmd
}

// writeCatalogue prints one rule a line, in aligned columns.
func writeCatalogue(w io.Writer, list []ruleInfo) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, r := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Name, r.Half, r.Severity, r.Summary)
	}
	return tw.Flush()
}

// rulePageURL is the URL of the page of rule.
func rulePageURL(rule string) string {
	return projectURL + "/blob/main/docs/rules/" + rule + ".md"
}

// catalogueEntry is a rule as rules --format json lists it.
type catalogueEntry struct {
	Name     string         `json:"name"`
	Half     string         `json:"half"`
	Severity model.Severity `json:"severity"`
	Summary  string         `json:"summary"`
	URL      string         `json:"url"`
}

// writeCatalogueJSON prints the rules as an indented JSON array, each
// with the URL of its page.
func writeCatalogueJSON(w io.Writer, list []ruleInfo) error {
	entries := make([]catalogueEntry, 0, len(list))
	for _, r := range list {
		entries = append(entries, catalogueEntry{r.Name, r.Half, r.Severity, r.Summary, rulePageURL(r.Name)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(entries)
}

func newExplainCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "explain RULE",
		Short: "Explain a rule: what it flags, why it hurts, a bad and a good example, the fix",
		Args:  cobra.ExactArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			var names []string
			for _, r := range catalogue() {
				names = append(names, r.Name)
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return explain(cmd.OutOrStdout(), args[0])
		},
	}
}

// explain prints the page of the named rule.
func explain(w io.Writer, name string) error {
	known := slices.ContainsFunc(catalogue(), func(r ruleInfo) bool { return r.Name == name })
	page, ok := docs.Rule(name)
	switch {
	case !known:
		return fmt.Errorf("explain: unknown rule %q (\"retrylint rules\" lists them)", name)
	case !ok:
		return fmt.Errorf("explain: rule %q has no page", name)
	}
	_, err := w.Write(page)
	return err
}
