package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/retrylint/retrylint/model"
)

// Baseline is a set of accepted findings, by fingerprint, so that a team
// can adopt the gate without fixing every existing finding first. Rule,
// file and message are kept for the reader; only the fingerprint counts.
type Baseline struct {
	Version  int             `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// BaselineEntry is one accepted finding.
type BaselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule"`
	File        string `json:"file"`
	Message     string `json:"message"`
}

// NewBaseline accepts every one of findings.
func NewBaseline(findings []model.Finding) *Baseline {
	b := &Baseline{Version: 1, Findings: []BaselineEntry{}}
	for i, fp := range model.Fingerprints(findings) {
		f := findings[i]
		b.Findings = append(b.Findings, BaselineEntry{Fingerprint: fp, Rule: f.Rule, File: f.File, Message: f.Message})
	}
	return b
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
	if b.Version != 1 {
		return nil, fmt.Errorf("%s:1:1: invalid baseline: want \"version\": 1, got %d", name, b.Version)
	}
	for _, e := range b.Findings {
		if e.Fingerprint == "" {
			return nil, fmt.Errorf("%s:1:1: invalid baseline: a finding without a fingerprint", name)
		}
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

// Filter returns the findings the baseline does not accept, and how many
// it accepted.
func (b *Baseline) Filter(findings []model.Finding) ([]model.Finding, int) {
	accepted := make(map[string]bool, len(b.Findings))
	for _, e := range b.Findings {
		accepted[e.Fingerprint] = true
	}
	out := findings[:0:0]
	for i, fp := range model.Fingerprints(findings) {
		if !accepted[fp] {
			out = append(out, findings[i])
		}
	}
	return out, len(findings) - len(out)
}
