package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/retrylint/retrylint/model"
)

// Baseline is a set of accepted findings, so that a team can adopt the
// gate without fixing every existing finding first. An entry of version 2
// names where its finding is: the rule, the file, and the function and
// the loop's shape (code) or the component (topology); neither the line
// nor the message, so that moved lines, a changed delay or attempt count
// and a reworded message keep it. An entry of version 1, as written
// before, holds the fingerprint of its finding, message included; it is
// still read. The message is kept for the reader.
type Baseline struct {
	Version  int             `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// BaselineEntry is one accepted finding.
type BaselineEntry struct {
	Fingerprint string `json:"fingerprint,omitempty"` // version 1
	Rule        string `json:"rule"`
	File        string `json:"file"`
	Function    string `json:"function,omitempty"`
	Loop        string `json:"loop,omitempty"`
	Component   string `json:"component,omitempty"`
	// Pipeline is said only for a finding outside its pipeline's
	// directory, where two pipelines may report the same finding.
	Pipeline string `json:"pipeline,omitempty"`
	Message  string `json:"message"`
}

// baselineVersion is the version NewBaseline writes.
const baselineVersion = 2

// NewBaseline accepts every one of findings.
func NewBaseline(findings []model.Finding) *Baseline {
	b := &Baseline{Version: baselineVersion, Findings: []BaselineEntry{}}
	for _, f := range findings {
		b.Findings = append(b.Findings, entryOf(f))
	}
	return b
}

// entryOf is the version 2 entry that accepts f.
func entryOf(f model.Finding) BaselineEntry {
	e := BaselineEntry{Rule: f.Rule, File: f.File, Function: f.Function, Loop: f.Loop, Component: f.Component, Message: f.Message}
	if f.OutsidePipeline() {
		e.Pipeline = f.Pipeline
	}
	return e
}

// key is what a version 2 entry matches on.
func (e BaselineEntry) key() string {
	return strings.Join([]string{e.Rule, e.File, e.Function, e.Loop, e.Component, e.Pipeline}, "\x00")
}

// String says the entry for a person: "fixed-sleep in pay.go, (*C).Get",
// "amplification in job.yaml, component job".
func (e BaselineEntry) String() string {
	s := e.Rule + " in " + e.File
	if e.File == "" {
		s = e.Rule
	}
	switch {
	case e.Function != "":
		s += ", " + e.Function
	case e.Component != "":
		s += ", component " + e.Component
	case e.Fingerprint != "" && e.Message != "":
		s += ": " + e.Message
	}
	if e.Pipeline != "" {
		s += " (pipeline " + e.Pipeline + ")"
	}
	return s
}

// WriteBaseline writes b as indented JSON.
func WriteBaseline(w io.Writer, b *Baseline) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(b)
}

// ReadBaseline decodes a baseline file; name is the file name its errors
// carry, with the line and column of the problem.
func ReadBaseline(name string, src []byte) (*Baseline, error) {
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("%s: invalid baseline: %v", positionOf(name, src, dec.InputOffset(), err), jsonMessage(err))
	}
	switch b.Version {
	case 1:
		for _, e := range b.Findings {
			if e.Fingerprint == "" {
				return nil, fmt.Errorf("%s:1:1: invalid baseline: a finding without a fingerprint", name)
			}
		}
	case baselineVersion:
		for _, e := range b.Findings {
			if e.Rule == "" {
				return nil, fmt.Errorf("%s:1:1: invalid baseline: a finding without a rule", name)
			}
		}
	default:
		return nil, fmt.Errorf("%s:1:1: invalid baseline: want \"version\": %d (or 1), got %d", name, baselineVersion, b.Version)
	}
	return &b, nil
}

// positionOf is "name:line:col" of the byte offset a JSON error is at.
func positionOf(name string, src []byte, offset int64, err error) string {
	switch e := err.(type) {
	case *json.SyntaxError:
		offset = e.Offset - 1 // the offset is past the offending byte
	case *json.UnmarshalTypeError:
		offset = e.Offset
	}
	offset = min(max(offset, 0), int64(len(src)))
	before := src[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("%s:%d:%d", name, line, col)
}

// jsonMessage is a JSON error without the package's prefix.
func jsonMessage(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// Filter returns the findings the baseline does not accept, and the
// entries that accept none of findings: stale, once what they recorded
// was fixed or removed. An entry accepts one finding: two findings of
// one loop and rule need two entries.
func (b *Baseline) Filter(findings []model.Finding) ([]model.Finding, []BaselineEntry) {
	open := make(map[string][]int, len(b.Findings)) // key → entries not yet matched
	for i, e := range b.Findings {
		k := b.entryKey(e)
		open[k] = append(open[k], i)
	}
	used := make([]bool, len(b.Findings))
	out := findings[:0:0]
	for i, k := range b.findingKeys(findings) {
		if entries := open[k]; len(entries) > 0 {
			used[entries[0]] = true
			open[k] = entries[1:]
			continue
		}
		out = append(out, findings[i])
	}
	var stale []BaselineEntry
	for i, e := range b.Findings {
		if !used[i] {
			stale = append(stale, e)
		}
	}
	return out, stale
}

// entryKey is what e matches on: its fingerprint in version 1.
func (b *Baseline) entryKey(e BaselineEntry) string {
	if b.Version == 1 {
		return e.Fingerprint
	}
	return e.key()
}

// findingKeys are the keys of findings, as entryKey's: their fingerprints
// in version 1.
func (b *Baseline) findingKeys(findings []model.Finding) []string {
	if b.Version == 1 {
		return model.Fingerprints(findings)
	}
	keys := make([]string, len(findings))
	for i, f := range findings {
		keys[i] = entryOf(f).key()
	}
	return keys
}
