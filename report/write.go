package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
)

// Sort puts findings and chains in a deterministic order.
func (r *Result) Sort() {
	sort.SliceStable(r.Findings, func(i, j int) bool {
		a, b := r.Findings[i], r.Findings[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
	sort.SliceStable(r.Chains, func(i, j int) bool {
		a, b := r.Chains[i], r.Chains[j]
		if a.Root != b.Root {
			return a.Root < b.Root
		}
		return a.Target < b.Target
	})
}

// WriteJSON writes the result as SPEC §6 JSON.
func WriteJSON(w io.Writer, r *Result) error {
	out := *r
	if out.Findings == nil {
		out.Findings = []Finding{}
	}
	if out.Chains == nil {
		out.Chains = []Chain{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&out)
}

// WriteText writes one finding a line, compiler style.
func WriteText(w io.Writer, r *Result) error {
	for _, f := range r.Findings {
		if _, err := fmt.Fprintf(w, "%s:%d:%d: %s: %s\n", f.File, f.Line, f.Column, f.Rule, f.Message); err != nil {
			return err
		}
	}
	return nil
}
