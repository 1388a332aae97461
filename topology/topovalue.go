package topology

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/lazyre"
)

// The topology file is read as its JSON Schema (schemas/topology-v1.schema.json)
// reads it: a value has the JSON type YAML decodes it to, so a quoted "3"
// is a string, not a number, and `yes` a string, not a boolean. What the
// schema refuses the loader refuses, and the reverse; the tests hold each
// rule of the schema against the loader.

// maxTopoInt is the largest integer the topology file takes (the schema's
// maximum).
const maxTopoInt = math.MaxInt32

// A duration written as a string: seconds as a plain number ("600",
// "0.5"), or numbers with units ("10m", "1h30m", "2d", "250ms"). The
// schema's duration pattern is this one.
const (
	durationNumber  = `(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)`
	durationUnit    = `(?:ns|us|µs|ms|s|m|h|d|w)`
	durationPattern = `^(?:` + durationNumber + `|(?:` + durationNumber + durationUnit + `)+)$`
)

// urlPattern is what `url:` takes, as the schema says: an optional scheme,
// a host (a name or a bracketed IPv6 address), an optional port and path.
const urlPattern = `^(?:[A-Za-z][A-Za-z0-9+.-]*://)?([A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]+)?(?:[/?#]\S*)?$`

var (
	durationRE      = lazyre.New(durationPattern)
	durationTokenRE = lazyre.New(`(` + durationNumber + `)(` + durationUnit + `)`)
	urlRE           = lazyre.New(urlPattern)
)

// unitSeconds are the seconds of each duration unit.
var unitSeconds = map[string]float64{"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1,
	"m": 60, "h": 3600, "d": 86400, "w": 604800}

// decoded is the value YAML decodes n to, nil when it does not decode.
func decoded(n *yaml.Node) any {
	var v any
	if n == nil || n.Decode(&v) != nil {
		return nil
	}
	return v
}

// jsonNumber is v as a JSON number, if it is one.
func jsonNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	return 0, false
}

// jsonString reports whether v is a JSON string (a timestamp YAML
// resolves is written as one).
func jsonString(v any) bool {
	switch v.(type) {
	case string, time.Time:
		return true
	}
	return false
}

// shown describes the value of n for an error.
func shown(n *yaml.Node) string {
	switch v := decoded(n); {
	case n == nil || v == nil && n.Kind == yaml.ScalarNode:
		return "null"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case jsonString(v):
		return fmt.Sprintf("the string %q", n.Value)
	}
	return n.Value
}

// topoInt reads an integer from min to maxTopoInt.
func topoInt(file string, n *yaml.Node, what string, min int) (int, error) {
	f, ok := jsonNumber(decoded(n))
	if !ok || f != math.Trunc(f) {
		return 0, errorf(posOf(file, n), "%s: expected an integer, got %s", what, shown(n))
	}
	if f < float64(min) {
		return 0, errorf(posOf(file, n), "%s: expected %d or more, got %s", what, min, n.Value)
	}
	if f > maxTopoInt {
		return 0, errorf(posOf(file, n), "%s: expected at most %d, got %s", what, maxTopoInt, n.Value)
	}
	return int(f), nil
}

// topoNumber reads a number of at least min.
func topoNumber(file string, n *yaml.Node, what string, min float64) (float64, error) {
	f, ok := jsonNumber(decoded(n))
	if !ok {
		return 0, errorf(posOf(file, n), "%s: expected a number, got %s", what, shown(n))
	}
	if f < min {
		return 0, errorf(posOf(file, n), "%s: expected %s or more, got %s", what, strconv.FormatFloat(min, 'f', -1, 64), n.Value)
	}
	return f, nil
}

// topoString reads a string; nonBlank asks for something besides spaces.
func topoString(file string, n *yaml.Node, what, expected string, nonBlank bool) (string, error) {
	if !jsonString(decoded(n)) || nonBlank && strings.TrimSpace(n.Value) == "" {
		return "", errorf(posOf(file, n), "%s: expected %s, got %s", what, expected, shown(n))
	}
	return n.Value, nil
}

// topoName reads a component name: a string that is not empty.
func topoName(file string, n *yaml.Node, what string) (string, error) {
	if !jsonString(decoded(n)) || n.Value == "" {
		return "", errorf(posOf(file, n), "%s: expected a component name, got %s", what, shown(n))
	}
	return n.Value, nil
}

// topoBool reads true or false.
func topoBool(file string, n *yaml.Node, what string) (bool, error) {
	b, ok := decoded(n).(bool)
	if !ok {
		return false, errorf(posOf(file, n), "%s: expected true or false, got %s", what, shown(n))
	}
	return b, nil
}

// topoDuration reads a duration in seconds: a number of seconds, or a
// string of durationPattern.
func topoDuration(file string, n *yaml.Node, what string) (float64, error) {
	v := decoded(n)
	if f, ok := jsonNumber(v); ok && f >= 0 {
		return f, nil
	}
	if jsonString(v) && durationRE.Regexp().MatchString(n.Value) {
		return durationSeconds(n.Value), nil
	}
	return 0, errorf(posOf(file, n), "%s: expected a duration such as 600s, 10m or 1h30m, or seconds as a number, got %s", what, shown(n))
}

// durationSeconds sums a duration that matches durationPattern.
func durationSeconds(s string) float64 {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	var total float64
	for _, m := range durationTokenRE.Regexp().FindAllStringSubmatch(s, -1) {
		f, _ := strconv.ParseFloat(m[1], 64)
		total += f * unitSeconds[m[2]]
	}
	return total
}

// urlHost is the host of a URL, or of a bare host name, lower-cased; ""
// if s is neither (urlPattern).
func urlHost(s string) string {
	m := urlRE.Regexp().FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return strings.ToLower(strings.Trim(m[1], "[]"))
}
