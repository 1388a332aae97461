package topology

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/yamlpos"
)

// InputError is an invalid input: where it is and what was expected.
type InputError struct {
	Pos Pos
	Msg string
}

// Error renders "file:line:col: msg".
func (e *InputError) Error() string { return e.Pos.String() + ": " + e.Msg }

func errorf(p Pos, format string, args ...any) error {
	return &InputError{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// maxAliasDepth bounds how many aliases are followed from one node.
const maxAliasDepth = 16

// decodeDocuments splits src into its YAML documents. A syntax error is an
// InputError at the place the source breaks, and so is a key written twice
// in one mapping, at the second. Positions count the file's lines.
func decodeDocuments(file string, src []byte) (docs []*yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			docs, err = nil, errorf(Pos{File: file, Line: 1, Col: 1}, "invalid YAML: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, yamlError(file, src, err)
		}
		if n.Kind == 0 || (n.Kind == yaml.DocumentNode && len(n.Content) == 0) {
			continue
		}
		docs = append(docs, &n)
	}
	yamlpos.Fix(src, docs...)
	if second, first := yamlpos.Duplicate(docs...); second != nil {
		return nil, errorf(posOf(file, second), "invalid YAML: duplicate key %q (first at line %d, column %d)", second.Value, first.Line, first.Column)
	}
	return docs, nil
}

// yamlError is a syntax error at the line and column where the source
// breaks.
func yamlError(file string, src []byte, err error) error {
	line, col, msg := yamlpos.Locate(src, err)
	return errorf(Pos{File: file, Line: line, Col: col}, "invalid YAML: %s", msg)
}

// root returns the top node of a document.
func root(doc *yaml.Node) *yaml.Node {
	if doc != nil && doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		return resolve(doc.Content[0])
	}
	return resolve(doc)
}

// resolve follows aliases, a bounded number of times.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxAliasDepth; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

func posOf(file string, n *yaml.Node) Pos {
	if n == nil {
		return Pos{File: file, Line: 1, Col: 1}
	}
	p := Pos{File: file, Line: n.Line, Col: n.Column}
	if n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 && !strings.Contains(n.Value, "\n") {
		w := len([]rune(n.Value))
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			w += 2
		}
		p.EndCol = p.Col + w
	}
	return p
}

// get returns the key and value nodes of key in mapping n (nil, nil if n is
// not a mapping or has no such key).
func get(n *yaml.Node, key string) (k, v *yaml.Node) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if kn := n.Content[i]; kn.Kind == yaml.ScalarNode && kn.Value == key {
			return kn, resolve(n.Content[i+1])
		}
	}
	return nil, nil
}

// val returns the value node of key in mapping n.
func val(n *yaml.Node, key string) *yaml.Node {
	_, v := get(n, key)
	return v
}

// path follows keys through nested mappings.
func path(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		n = val(n, k)
		if n == nil {
			return nil
		}
	}
	return n
}

// scalar returns the value of a scalar node and whether it is one.
func scalar(n *yaml.Node) (string, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	return n.Value, true
}

// str is the scalar value of key in n, or "".
func str(n *yaml.Node, keys ...string) string {
	s, _ := scalar(path(n, keys...))
	return s
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || n.Value == "~" || n.Value == "null" && n.Style == 0)
}

// intValue reads an integer, accepting a quoted string of digits (API
// exports write int64 fields as strings).
func intValue(file string, n *yaml.Node, what string) (int, error) {
	s, ok := scalar(n)
	if !ok {
		return 0, errorf(posOf(file, n), "%s: expected an integer", what)
	}
	s = strings.TrimSpace(s)
	i, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if f, ferr := strconv.ParseFloat(s, 64); ferr == nil && f == math.Trunc(f) && math.Abs(f) < 1e15 {
			return int(f), nil
		}
		return 0, errorf(posOf(file, n), "%s: expected an integer, got %q", what, s)
	}
	if i > math.MaxInt32 || i < math.MinInt32 {
		return 0, errorf(posOf(file, n), "%s: %d is out of range", what, i)
	}
	return int(i), nil
}

// floatValue reads a number, accepting a quoted string.
func floatValue(file string, n *yaml.Node, what string) (float64, error) {
	s, ok := scalar(n)
	if !ok {
		return 0, errorf(posOf(file, n), "%s: expected a number", what)
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, errorf(posOf(file, n), "%s: expected a number, got %q", what, s)
	}
	return f, nil
}

// boolValue reads a boolean.
func boolValue(file string, n *yaml.Node, what string) (bool, error) {
	s, ok := scalar(n)
	if ok {
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "true", "yes", "on":
			return true, nil
		case "false", "no", "off":
			return false, nil
		}
	}
	return false, errorf(posOf(file, n), "%s: expected true or false", what)
}

// durationValue reads a duration in seconds: a number of seconds, a
// protobuf duration ("600s", "3.5s"), or a Go duration ("10m0s", "1h").
func durationValue(file string, n *yaml.Node, what string) (float64, error) {
	s, ok := scalar(n)
	if !ok {
		return 0, errorf(posOf(file, n), "%s: expected a duration such as 600s or 10m", what)
	}
	d, err := ParseDuration(s)
	if err != nil {
		return 0, errorf(posOf(file, n), "%s: expected a duration such as 600s or 10m, got %q", what, s)
	}
	return d, nil
}

// ParseDuration parses a duration in seconds: "600", "600s", "1.5s",
// "10m0s", "1h30m", "2d" (days), "1w" (weeks).
func ParseDuration(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errors.New("empty duration")
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) && f >= 0 {
		return f, nil
	}
	for _, u := range []struct {
		suffix string
		secs   float64
	}{{"d", 86400}, {"w", 604800}} {
		if strings.HasSuffix(s, u.suffix) {
			if f, err := strconv.ParseFloat(strings.TrimSuffix(s, u.suffix), 64); err == nil && f >= 0 && f < 1e9 {
				return f * u.secs, nil
			}
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("bad duration %q", s)
	}
	return d.Seconds(), nil
}

// lastSegment is the part of a resource name after its last "/".
func lastSegment(name string) string {
	name = strings.TrimRight(name, "/")
	if i := strings.LastIndex(name, "/"); i >= 0 {
		return name[i+1:]
	}
	return name
}
