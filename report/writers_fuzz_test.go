package report

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/retrylint/retrylint/internal/shareddata"
	"github.com/retrylint/retrylint/model"
)

// modelReader turns fuzz bytes into a result model: every field, string or
// number, comes from the input, so the writers see names, messages and
// paths with any byte in them, absent or negative numbers, unknown
// severities.
type modelReader struct{ data []byte }

func (m *modelReader) byte() byte {
	if len(m.data) == 0 {
		return 0
	}
	b := m.data[0]
	m.data = m.data[1:]
	return b
}

func (m *modelReader) str() string {
	n := min(int(m.byte()%24), len(m.data))
	s := string(m.data[:n])
	m.data = m.data[n:]
	return s
}

func (m *modelReader) int() int { return int(int8(m.byte())) * int(m.byte()) }

func (m *modelReader) optInt() *int {
	if m.byte()%3 == 0 {
		return nil
	}
	v := m.int()
	return &v
}

func (m *modelReader) severity() model.Severity {
	return []model.Severity{model.Error, model.Warning, model.Note, "", model.Severity(m.str())}[m.byte()%5]
}

// pipeline is none, one of two names that findings and chains share, or
// any bytes.
func (m *modelReader) pipeline() string {
	return []string{"", "", "envs/prod", "envs/stg", m.str()}[m.byte()%5]
}

func (m *modelReader) result() *model.Result {
	r := &model.Result{Version: 1, Tool: model.Tool{Name: m.str(), Version: m.str()}}
	for range m.byte() % 6 {
		r.Findings = append(r.Findings, model.Finding{Rule: m.str(), Severity: m.severity(), Message: m.str(), File: m.str(),
			Line: m.int(), Column: m.int(), EndLine: m.int(), EndColumn: m.int(), Component: m.str(), Fix: m.str(), Pipeline: m.pipeline()})
	}
	for range m.byte() % 6 {
		c := model.Chain{Root: m.str(), Target: m.str(), Formula: m.str(), Unbounded: m.byte()%2 == 0, Estimate: m.str(), OmittedFactors: m.int()}
		for range m.byte() % 4 {
			c.Path = append(c.Path, m.str())
		}
		for range m.byte() % 4 {
			c.Factors = append(c.Factors, model.Factor{From: m.str(), To: m.str(), Retries: m.optInt(), Effective: m.byte()%2 == 0,
				Attempts: m.optInt(), File: m.str(), Line: m.int()})
		}
		if a := m.optInt(); a != nil {
			n := int64(*a)
			c.Attempts = &n
		}
		c.Pipeline = m.pipeline()
		r.Chains = append(r.Chains, c)
	}
	return r
}

// officialSARIFSchema is the official SARIF schema when the shared data is there.
var officialSARIFSchema = sync.OnceValue(func() *jsonschema.Schema {
	p, ok := shareddata.Find("schemas/sarif-schema-2.1.0.json")
	if !ok {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if c.AddResource("sarif.json", doc) != nil {
		return nil
	}
	s, _ := c.Compile("sarif.json")
	return s
})

// FuzzWriters: every writer takes any model without panicking; JSON and
// SARIF stay valid JSON, SARIF valid against its schema, text one line a
// finding, Markdown within its size with whole fences; no format writes
// what a CI runner takes for a command, a raw control character or a
// mention (forgeries).
func FuzzWriters(f *testing.F) {
	f.Add([]byte("\x05ruleX\x02v1\x03\x05fixed\x00\x07message\x06a.yaml\x02\x03\x01\x01\x02\x03\x04\x05comp\x03fix\x02\x04root\x03tgt\x05(2+1)\x01\x00\x02\x01a\x01\x05from\x02to\x01\x05\x01"))
	f.Add([]byte("\xff\n::error::x\x1b[31m\x00\xfe\xfd<script>|`*_[]()#"))
	f.Add([]byte{})
	for _, h := range hostile {
		f.Add([]byte("\x03" + string(rune(len(h))) + h + "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" + string(rune(len(h))) + h))
	}
	// A finding in one pipeline, a chain in another.
	f.Add([]byte("\x00\x00\x01\x01r\x00\x00\x01m\x01f\x01\x01\x01\x01\x01\x01\x01\x01\x01c\x00\x00\x02\x01\x01a\x01b\x011\x01\x00\x00\x00\x00\x00\x01\x01\x02\x00\x03"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := (&modelReader{data}).result()
		var b bytes.Buffer
		if err := WriteTextOptions(&b, r, TextOptions{Color: len(data)%2 == 0}); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(b.String(), "\n"); n != len(r.Findings) {
			t.Fatalf("text: %d lines for %d findings:\n%q", n, len(r.Findings), b.String())
		}
		b.Reset()
		if err := WriteJSON(&b, r); err != nil || !json.Valid(b.Bytes()) {
			t.Fatalf("JSON: %v\n%s", err, b.String())
		}
		b.Reset()
		if err := WriteSARIF(&b, r, SARIFOptions{Rules: catalogue}); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(b.Bytes()) {
			t.Fatalf("SARIF is not JSON:\n%s", b.String())
		}
		if s := officialSARIFSchema(); s != nil {
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(inst); err != nil {
				t.Fatalf("invalid SARIF: %v\n%s", err, b.String())
			}
		}
		b.Reset()
		if err := WriteMarkdown(&b, r, MarkdownOptions{Rules: catalogue, MaxBytes: 4000, LinkBase: "https://example.com/blob/x"}); err != nil {
			t.Fatal(err)
		}
		if utf8.RuneCount(b.Bytes()) > 4000 || strings.Count(b.String(), "```")%2 != 0 {
			t.Fatalf("Markdown: %d characters, fences %d", utf8.RuneCount(b.Bytes()), strings.Count(b.String(), "```"))
		}
		b.Reset()
		if err := WriteDOT(&b, r); err != nil {
			t.Fatal(err)
		}
		if open, closed := strings.Count(b.String(), "subgraph cluster_"), strings.Count(b.String(), "\n  }\n"); open != closed {
			t.Fatalf("DOT: %d clusters opened, %d closed:\n%s", open, closed, b.String())
		}
		for format, out := range renderAll(t, r) {
			if bad := forgeries(format, out); len(bad) > 0 {
				t.Fatalf("%s: %s\n%q", format, bad[0], out)
			}
		}
	})
}

// FuzzCompare: any two models compare without panicking, and a model
// compared with itself has nothing new and nothing fixed.
func FuzzCompare(f *testing.F) {
	f.Add([]byte("\x02r\x01m\x01f\x02\x03"), []byte("\x02r\x01m\x01f\x02\x04"))
	f.Add([]byte{}, []byte("\x00\x00\x00\x03\x02a\x01b"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		base, head := (&modelReader{a}).result(), (&modelReader{b}).result()
		ch := model.Compare(base, head)
		if ch == nil {
			t.Fatal("nil changes")
		}
		head.Changes = ch
		var buf bytes.Buffer
		if err := WriteMarkdown(&buf, head, MarkdownOptions{}); err != nil {
			t.Fatal(err)
		}
		if self := model.Compare(head, head); len(self.New) != 0 || len(self.Fixed) != 0 {
			t.Fatalf("a result compared with itself: %d new, %d fixed", len(self.New), len(self.Fixed))
		}
	})
}
