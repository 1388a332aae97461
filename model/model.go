// Package model is the one result model shared by the code and topology
// halves of retrylint: findings, severities, positions, chains and their
// factors, the result of a run and how it changed from a base. The
// analyzers' reporting, the topology loaders, multiply, the rules and the
// report writers all use it; it depends on none of them.
package model

import (
	"fmt"
	"sort"
)

// Severity of a finding.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Note    Severity = "note"
)

// Rank orders severities: error > warning > note.
func (s Severity) Rank() int {
	switch s {
	case Error:
		return 3
	case Warning:
		return 2
	case Note:
		return 1
	}
	return 0
}

// Finding is one diagnostic, from an analyzer or a topology rule.
type Finding struct {
	Rule      string   `json:"rule"`
	Severity  Severity `json:"severity"`
	Message   string   `json:"message"`
	File      string   `json:"file"`
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	EndLine   int      `json:"end_line"`
	EndColumn int      `json:"end_column"`
	Component string   `json:"component,omitempty"`
	Fix       string   `json:"fix,omitempty"`
	// Pipeline names the pipeline of a topology finding when a run holds
	// several: the directory of its topology file or Terraform root
	// module, as the text output's heading names it; "" for the rest of
	// what was named, for a run of one pipeline and for the code half.
	Pipeline string `json:"pipeline,omitempty"`
	// Function and Loop place a finding of the code half for the
	// baseline, which keys on them rather than on its line or message:
	// the function that encloses it as Go names it (F, T.M, (*T).M) and
	// the shape of the loop it is in or at, its header with the literals
	// elided. No format writes them.
	Function string `json:"-"`
	Loop     string `json:"-"`
}

// Factor is one edge of a chain's witness path with what it contributes.
type Factor struct {
	From      string `json:"from"`
	To        string `json:"to"`
	Retries   *int   `json:"retries"` // nil: unbounded
	Effective bool   `json:"effective"`
	Attempts  *int   `json:"attempts"` // executions this edge multiplies by; nil: unbounded
	File      string `json:"file,omitempty"`
	Line      int    `json:"line,omitempty"`
}

// Elision stands for the components or terms left out of a long path: a
// chain keeps the ends of its path, so that the chains of a path of n
// components take O(n) room, not O(n²).
const Elision = "…"

// Chain is the worst case of executions of Target per event at Root.
type Chain struct {
	Root   string `json:"root"`
	Target string `json:"target"`
	// Path names the components of the witness path; a long one keeps its
	// ends around Elision.
	Path []string `json:"path"`
	// Factors are the last edges of the witness path, the one into Target
	// last; OmittedFactors counts the edges before them left out.
	Factors        []Factor `json:"factors"`
	OmittedFactors int      `json:"omitted_factors,omitempty"`
	Formula        string   `json:"formula"`
	Attempts       *int64   `json:"attempts"` // nil when unbounded
	Unbounded      bool     `json:"unbounded"`
	Estimate       string   `json:"estimate,omitempty"`
	// Pipeline names the chain's pipeline as Finding.Pipeline does.
	Pipeline string `json:"pipeline,omitempty"`
	// Assumed: with several pipelines, the target is assumed in this one
	// (Result.Assumed lists the names assumed in any).
	Assumed bool `json:"assumed,omitempty"`
}

// Tool names the producer.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Result is everything one run produced.
type Result struct {
	Version  int       `json:"version"`
	Tool     Tool      `json:"tool"`
	Findings []Finding `json:"findings"`
	Chains   []Chain   `json:"chains"`
	// Assumed names the components no manifest describes, whose numbers
	// rest on the defaults of their kind (a job referenced but not
	// loaded), sorted; none when every component was read.
	Assumed []string `json:"assumed,omitempty"`
	// Changes compares the result with a base (retrylint report --base);
	// nil otherwise.
	Changes *Changes `json:"changes,omitempty"`
	// Scope lists the files the run read, as findings name them: the Go
	// files of the packages checked, the manifests loaded. A baseline
	// entry of one of them that matches no finding is stale; one of
	// another file may be the other half's. No format writes it.
	Scope []string `json:"-"`
}

// Sort puts findings and chains in a deterministic order: chains by
// pipeline, root and target.
func (r *Result) Sort() {
	SortFindings(r.Findings)
	sort.SliceStable(r.Chains, func(i, j int) bool {
		a, b := r.Chains[i], r.Chains[j]
		if a.Pipeline != b.Pipeline {
			return a.Pipeline < b.Pipeline
		}
		if a.Root != b.Root {
			return a.Root < b.Root
		}
		return a.Target < b.Target
	})
}

// SortFindings orders findings by file, line, column, rule, message and
// pipeline.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
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
		if a.Message != b.Message {
			return a.Message < b.Message
		}
		return a.Pipeline < b.Pipeline
	})
}

// Origin is where a factor's number comes from: the manifest, topology
// file or Go file and line of its retry setting, "file:line".
func (f Factor) Origin() string {
	if f.File == "" {
		return ""
	}
	if f.Line == 0 {
		return f.File
	}
	return fmt.Sprintf("%s:%d", f.File, f.Line)
}

// Multiplies reports whether the factor multiplies executions.
func (f Factor) Multiplies() bool {
	return f.Effective && (f.Attempts == nil || *f.Attempts > 1)
}

// Origins lists, in path order, where the factors that multiply the chain
// come from; a chain that keeps only its last factors starts with Elision
// when an omitted one multiplies or may.
func (c Chain) Origins() []string {
	if c.Formula == "1" {
		return nil
	}
	var out []string
	if c.OmittedFactors > 0 {
		out = append(out, Elision)
	}
	for _, f := range c.Factors {
		if f.Multiplies() {
			if o := f.Origin(); o != "" {
				out = append(out, o)
			}
		}
	}
	return out
}
