package report

import (
	"bytes"
	"encoding/json"
	"io"
	"path"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/retrylint/retrylint/model"
)

// RuleInfo describes a rule for the formats that carry rule metadata
// (SARIF) or link to a rule's page (Markdown).
type RuleInfo struct {
	ID       string
	Severity model.Severity // default severity
	Summary  string         // one clause or sentence
	Help     string         // a longer description: what it flags and why it hurts
	HelpURI  string         // the rule's page
	Page     string         // the rule's page itself, Markdown
}

// Rules is the rule catalogue handed to the writers.
type Rules []RuleInfo

// lookup returns the rule with the given ID.
func (rs Rules) lookup(id string) (RuleInfo, bool) {
	for _, r := range rs {
		if r.ID == id {
			return r, true
		}
	}
	return RuleInfo{}, false
}

// SARIFOptions control the SARIF format.
type SARIFOptions struct {
	// Rules is the catalogue; every rule in it becomes a
	// tool.driver.rules entry. A result whose rule is not in it gets an
	// entry of its own.
	Rules Rules
	// InformationURI is the tool's home page.
	InformationURI string
	// Source reads a finding's file, named as the finding names it; nil
	// reads none. From a file's text come each result's
	// primaryLocationLineHash, the fingerprint GitHub code scanning
	// tracks alerts by, and its columns in UTF-16 code units; a file that
	// cannot be read gives neither (columns are then as the finding has
	// them, exact on ASCII lines).
	Source func(file string) ([]byte, error)
}

// SARIF 2.1.0 objects, as much of them as retrylint fills.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool     `json:"tool"`
		Results    []sarifResult `json:"results"`
		ColumnKind string        `json:"columnKind"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string          `json:"id"`
		ShortDescription     sarifText       `json:"shortDescription"`
		FullDescription      sarifText       `json:"fullDescription"`
		HelpURI              string          `json:"helpUri,omitempty"`
		Help                 *sarifHelp      `json:"help,omitempty"`
		DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
	}
	sarifRuleConfig struct {
		Level string `json:"level"`
	}
	sarifHelp struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		BaselineState       string            `json:"baselineState,omitempty"`
		Properties          map[string]string `json:"properties,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
)

// FingerprintKey is the partialFingerprints key of retrylint's
// fingerprints in SARIF.
const FingerprintKey = "retrylintFingerprint/v1"

// lineHashKey is the partialFingerprints key GitHub code scanning tracks
// alerts by (see lineHashes).
const lineHashKey = "primaryLocationLineHash"

// columnKind is the unit of the columns in a log: UTF-16 code units, as
// GitHub and the editors that read SARIF count them.
const columnKind = "utf16CodeUnits"

// sarifSchema is the schema URI of SARIF 2.1.0.
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// WriteSARIF writes the result as a SARIF 2.1.0 log with one run: the
// catalogue's rules, and one result per finding with its location relative
// to the source root, a fingerprint that survives moved lines, and its
// component and pipeline, when it has them, as properties.
func WriteSARIF(w io.Writer, r *model.Result, opts SARIFOptions) error {
	driver := sarifDriver{Name: r.Tool.Name, Version: r.Tool.Version, InformationURI: opts.InformationURI}
	if driver.Name == "" {
		driver.Name = "retrylint"
	}
	// Rules are keyed by the id as JSON writes it: two ids that differ
	// only in invalid UTF-8 are one id in the log.
	index := make(map[string]int)
	addRule := func(info RuleInfo) {
		index[jsonText(info.ID)] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRuleOf(info))
	}
	for _, info := range opts.Rules {
		if _, dup := index[jsonText(info.ID)]; !dup {
			addRule(info)
		}
	}
	results := make([]sarifResult, 0, len(r.Findings))
	fps := model.Fingerprints(r.Findings)
	isNew := newFindings(r)
	sources := newSourceTexts(opts.Source)
	for i, f := range r.Findings {
		if _, ok := index[jsonText(f.Rule)]; !ok {
			addRule(RuleInfo{ID: f.Rule, Severity: f.Severity, Summary: f.Rule})
		}
		res := sarifResultOf(f, index[jsonText(f.Rule)], fps[i], sources.of(f.File))
		if isNew != nil {
			res.BaselineState = "unchanged"
			if isNew[f] {
				res.BaselineState = "new"
			}
		}
		results = append(results, res)
	}
	if driver.Rules == nil {
		driver.Rules = []sarifRule{}
	}
	log := sarifLog{Schema: sarifSchema, Version: "2.1.0",
		Runs: []sarifRun{{Tool: sarifTool{Driver: driver}, Results: results, ColumnKind: columnKind}}}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&log); err != nil {
		return err
	}
	_, err := w.Write(jsonControls(b.Bytes()))
	return err
}

// newFindings returns the findings of r that its Changes call new,
// or nil without Changes.
func newFindings(r *model.Result) map[model.Finding]bool {
	if r.Changes == nil {
		return nil
	}
	out := make(map[model.Finding]bool, len(r.Changes.New))
	for _, f := range r.Changes.New {
		out[f] = true
	}
	return out
}

// sarifRuleOf is the reportingDescriptor of a rule.
func sarifRuleOf(info RuleInfo) sarifRule {
	short := strings.TrimSpace(info.Summary)
	if short == "" {
		short = info.ID
	}
	full := strings.TrimSpace(info.Help)
	if full == "" {
		full = short
	}
	rule := sarifRule{
		ID:                   info.ID,
		ShortDescription:     sarifText{sentence(capitalize(short))},
		FullDescription:      sarifText{sentence(capitalize(full))},
		HelpURI:              info.HelpURI,
		DefaultConfiguration: sarifRuleConfig{Level: sarifLevel(info.Severity)},
	}
	if info.Page != "" {
		rule.Help = &sarifHelp{Text: info.Page, Markdown: info.Page}
	}
	return rule
}

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// sentence ends s with a full stop, as SARIF's descriptions are.
func sentence(s string) string {
	if s == "" || strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}

// sarifResultOf is the SARIF result of one finding; src is the text of its
// file, nil when unknown.
func sarifResultOf(f model.Finding, ruleIndex int, fingerprint string, src *sourceText) sarifResult {
	msg := f.Message
	if f.Fix != "" && !strings.Contains(msg, f.Fix) {
		msg = sentence(msg) + " Fix: " + f.Fix
	}
	res := sarifResult{
		RuleID:              f.Rule,
		RuleIndex:           ruleIndex,
		Level:               sarifLevel(f.Severity),
		Message:             sarifText{msg},
		PartialFingerprints: map[string]string{FingerprintKey: fingerprint},
	}
	if f.Component != "" || f.Pipeline != "" {
		res.Properties = map[string]string{}
		if f.Component != "" {
			res.Properties["component"] = f.Component
		}
		// One run holds every pipeline; the property says which a
		// result is from.
		if f.Pipeline != "" {
			res.Properties["pipeline"] = f.Pipeline
		}
	}
	if f.File != "" {
		loc := sarifPhysical{ArtifactLocation: artifactOf(f.File)}
		if f.Line > 0 {
			loc.Region = regionOf(src.inUTF16(f))
			if h := src.lineHash(f.Line); h != "" {
				res.PartialFingerprints[lineHashKey] = h
			}
		}
		res.Locations = []sarifLocation{{PhysicalLocation: loc}}
	}
	return res
}

// regionOf is a finding's region; columns and the end are given only when
// they are valid (SARIF requires them to be at least 1 and not before the
// start).
func regionOf(f model.Finding) *sarifRegion {
	r := &sarifRegion{StartLine: f.Line}
	if f.Column > 0 {
		r.StartColumn = f.Column
	}
	if f.EndLine >= f.Line {
		r.EndLine = f.EndLine
		if f.EndColumn > 0 && (f.EndLine > f.Line || f.EndColumn >= f.Column) {
			r.EndColumn = f.EndColumn
		}
	}
	return r
}

// artifactOf is where file is: relative to %SRCROOT%, the repository
// root, or, for a file outside the repository, its absolute file: URI.
func artifactOf(file string) sarifArtifact {
	if !absPath(file) {
		return sarifArtifact{URI: fileURI(file), URIBaseID: "%SRCROOT%"}
	}
	uri := fileURI(file)
	if !strings.HasPrefix(uri, "/") {
		uri = "/" + uri // C:/x
	}
	return sarifArtifact{URI: "file://" + uri}
}

// absPath reports whether the slash path file is absolute: a file
// outside the repository.
func absPath(file string) bool {
	return path.IsAbs(file) || filepath.IsAbs(filepath.FromSlash(file))
}

// fileURI turns a relative slash path into a relative URI reference:
// characters that are not allowed in a URI path are percent-encoded.
func fileURI(file string) string {
	var b strings.Builder
	for i := 0; i < len(file); i++ {
		c := file[i]
		if uriSafe(c) {
			b.WriteByte(c)
		} else {
			b.WriteString("%")
			b.WriteString(strings.ToUpper(hexByte(c)))
		}
	}
	return b.String()
}

// uriSafe reports whether c may appear unescaped in a URI path.
func uriSafe(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~/!$&'()*+,;=@", c) >= 0
}

func hexByte(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s model.Severity) string {
	switch s {
	case model.Error:
		return "error"
	case model.Warning:
		return "warning"
	}
	return "note"
}

// jsonText is s as encoding/json writes it: each byte of invalid UTF-8
// becomes U+FFFD.
func jsonText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
