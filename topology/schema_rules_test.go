package topology

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/schematest"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// compileTopologySchema compiles schemas/topology-v1.schema.json.
func compileTopologySchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return schematest.Compile(t, "../schemas/topology-v1.schema.json")
}

// schemaAccepts reports whether the schema accepts the YAML document src,
// as an editor's YAML language server checks it.
func schemaAccepts(t *testing.T, s *jsonschema.Schema, src string) bool {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	js, err := json.Marshal(jsonKeys(v))
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(inst) == nil
}

// jsonKeys turns mappings with keys that are not strings into JSON
// objects, as a YAML language server reads them.
func jsonKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonKeys(e)
		}
	case map[any]any:
		m := map[string]any{}
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonKeys(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonKeys(e)
		}
	}
	return v
}

// serviceManifest describes the component svc, so that the topology file
// may name it without a kind.
const serviceManifest = "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata:\n  name: svc\nspec:\n  template:\n    spec:\n      containers:\n        - image: svc:1\n"

// loaderAccepts reports whether loading src as retrylint.yaml, beside a
// manifest of svc, succeeds; a refusal must be an input error at a line.
func loaderAccepts(t *testing.T, src string) bool {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{"retrylint.yaml": src, "svc.yaml": serviceManifest} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Load([]string{dir}, Options{WorkDir: dir})
	if err == nil {
		return true
	}
	var ie *InputError
	if !errors.As(err, &ie) || ie.Pos.Line < 1 {
		t.Errorf("%q: refused without a line: %v", src, err)
	}
	return false
}

// TestSchemaRulesAreTheLoaders feeds documents that keep or break each
// rule of schemas/topology-v1.schema.json to both the schema and the
// loader: what an editor flags is what a run refuses, and the reverse.
func TestSchemaRulesAreTheLoaders(t *testing.T) {
	s := compileTopologySchema(t)
	const head = "version: 1\ncomponents:\n"
	comp := func(body string) string { return head + "  a:\n" + indent(body, "    ") }
	call := func(body string) string {
		return head + "  a:\n    kind: app\n    source: ./app\n    calls:\n      - " + strings.ReplaceAll(strings.TrimSuffix(body, "\n"), "\n", "\n        ") + "\n"
	}
	cases := []struct {
		rule, src string
		ok        bool
	}{
		// The document.
		{"valid", head, true},
		{"valid", "version: 1\ncomponents: {}\n", true},
		{"type object", "[version, components]\n", false},
		{"type object", "", false},
		{"type object", "just text\n", false},
		{"required components", "version: 1\n", false},
		{"required version", "components: {}\n", false},
		{"additionalProperties", head + "bugdet: 4\n", false},
		{"version const 1", "version: 2\ncomponents:\n", false},
		{"version const 1", "version: \"1\"\ncomponents:\n", false},
		{"version const 1", "version: 1.0\ncomponents:\n", true},
		{"budget integer", head + "budget: 4\n", true},
		{"budget integer", head + "budget: 4.0\n", true},
		{"budget integer", head + "budget: \"4\"\n", false},
		{"budget integer", head + "budget: 2.5\n", false},
		{"budget integer", head + "budget: null\n", false},
		{"budget minimum", head + "budget: 0\n", false},
		{"budget maximum", head + "budget: 2147483648\n", false},
		{"include", head + "include: []\n", true},
		{"include", head + "include: \"*.none.yaml\"\n", true},
		{"include", head + "include: [\"*.none.yaml\"]\n", true},
		{"include string", head + "include: 3\n", false},
		{"include string", head + "include: [3]\n", false},
		{"include string", head + "include: {a: b}\n", false},
		{"include string", head + "include: null\n", false},
		{"include pattern", head + "include: \"\"\n", false},
		{"include pattern", head + "include: [\" \"]\n", false},
		{"components object", "version: 1\ncomponents: [a]\n", false},
		{"components object", "version: 1\ncomponents: 3\n", false},
		{"components propertyNames", head + "  \"\": {kind: app}\n", false},
		// A component.
		{"component null", head + "  svc:\n", true},
		{"component object", head + "  a: 3\n", false},
		{"component object", head + "  a: [kind]\n", false},
		{"component additionalProperties", comp("kind: app\ncolour: red\n"), false},
		{"kind enum", comp("kind: app\n"), true},
		{"kind enum", comp("kind: lambda\n"), false},
		{"kind enum", comp("kind: 3\n"), false},
		{"kind enum", comp("kind: null\n"), false},
		{"description string", comp("kind: app\ndescription: what it is\n"), true},
		{"description string", comp("kind: app\ndescription: 3\n"), false},
		{"description string", comp("kind: app\ndescription: null\n"), false},
		{"source string", comp("kind: app\nsource: ./app\n"), true},
		{"source string", comp("kind: app\nsource: 3\n"), false},
		{"source kind", comp("kind: sink\nsource: ./app\n"), false},
		{"url", comp("kind: external\nurl: https://api.example.com/v1\n"), true},
		{"url", comp("kind: external\nurl: api.example.com\n"), true},
		{"url", comp("kind: external\nurl: http://localhost:8080\n"), true},
		{"url pattern", comp("kind: external\nurl: \"\"\n"), false},
		{"url pattern", comp("kind: external\nurl: \" \"\n"), false},
		{"url pattern", comp("kind: external\nurl: \"///\"\n"), false},
		{"url pattern", comp("kind: external\nurl: \"https://\"\n"), false},
		{"url string", comp("kind: external\nurl: 3\n"), false},
		{"url kind", comp("kind: app\nurl: api.example.com\n"), false},
		{"emits", comp("kind: app\nemits: [http-503, timeout, http-5xx, any]\n"), true},
		{"emits", comp("kind: app\nemits: []\n"), true},
		{"signal pattern", comp("kind: app\nemits: [http-600]\n"), false},
		{"signal string", comp("kind: app\nemits: [503]\n"), false},
		{"signals array", comp("kind: app\nemits: http-503\n"), false},
		{"notifies", comp("kind: app\nnotifies: saga\n"), true},
		{"notifies", comp("kind: app\nnotifies: [saga, audit]\n"), true},
		{"notifies", comp("kind: app\nnotifies: []\n"), true},
		{"name minLength", comp("kind: app\nnotifies: \"\"\n"), false},
		{"name minLength", comp("kind: app\nnotifies: [\"\"]\n"), false},
		{"name string", comp("kind: app\nnotifies: 3\n"), false},
		{"name string", comp("kind: app\nnotifies: [3]\n"), false},
		{"notifies oneOf", comp("kind: app\nnotifies: {a: b}\n"), false},
		{"runs", comp("kind: cloudrun.job\nruns: app\n"), true},
		{"runs", comp("kind: k8s.job\nruns: app\n"), true},
		{"name string", comp("kind: cloudrun.job\nruns: 3\n"), false},
		{"name minLength", comp("kind: cloudrun.job\nruns: \"\"\n"), false},
		{"runs kind", comp("kind: app\nruns: b\n"), false},
		{"max_retries", comp("kind: cloudrun.job\nmax_retries: 0\n"), true},
		{"max_retries minimum", comp("kind: cloudrun.job\nmax_retries: -1\n"), false},
		{"max_retries integer", comp("kind: cloudrun.job\nmax_retries: \"3\"\n"), false},
		{"max_retries integer", comp("kind: cloudrun.job\nmax_retries: 1.5\n"), false},
		{"max_retries kind", comp("kind: cloudrun.service\nmax_retries: 0\n"), false},
		{"task_count", comp("kind: cloudrun.job\ntask_count: 1\n"), true},
		{"task_count minimum", comp("kind: cloudrun.job\ntask_count: 0\n"), false},
		{"task_count integer", comp("kind: cloudrun.job\ntask_count: \"2\"\n"), false},
		{"task_count kind", comp("kind: k8s.job\ntask_count: 2\n"), false},
		{"duration", comp("kind: cloudrun.job\ntask_timeout: 10m\n"), true},
		{"duration", comp("kind: cloudrun.job\ntask_timeout: 600\n"), true},
		{"duration", comp("kind: cloudrun.job\ntask_timeout: 0.5\n"), true},
		{"duration", comp("kind: cloudrun.job\ntask_timeout: \"600\"\n"), true},
		{"duration", comp("kind: cloudrun.job\ntask_timeout: 1.5h\n"), true},
		{"duration", comp("kind: cloudrun.job\ntask_timeout: 1h30m\n"), true},
		{"duration", comp("kind: cloudrun.job\ntask_timeout: 2d3h\n"), true},
		{"duration", comp("kind: cloudrun.job\ntask_timeout: 1w\n"), true},
		{"duration", comp("kind: cloudrun.job\ntask_timeout: 250ms\n"), true},
		{"duration minimum", comp("kind: cloudrun.job\ntask_timeout: -5\n"), false},
		{"duration pattern", comp("kind: cloudrun.job\ntask_timeout: -5s\n"), false},
		{"duration pattern", comp("kind: cloudrun.job\ntask_timeout: 10 minutes\n"), false},
		{"duration pattern", comp("kind: cloudrun.job\ntask_timeout: \".\"\n"), false},
		{"duration pattern", comp("kind: cloudrun.job\ntask_timeout: 1e3\n"), true},
		{"duration pattern", comp("kind: cloudrun.job\ntask_timeout: \"1e3\"\n"), false},
		{"duration pattern", comp("kind: cloudrun.job\ntask_timeout: \"+5s\"\n"), false},
		{"duration pattern", comp("kind: cloudrun.job\ntask_timeout: 5x\n"), false},
		{"duration oneOf", comp("kind: cloudrun.job\ntask_timeout: true\n"), false},
		{"duration oneOf", comp("kind: cloudrun.job\ntask_timeout: null\n"), false},
		{"task_timeout kind", comp("kind: app\ntask_timeout: 10m\n"), false},
		{"push_to", comp("kind: pubsub.subscription\npush_to: b\n"), true},
		{"name string", comp("kind: pubsub.subscription\npush_to: 3\n"), false},
		{"push_to kind", comp("kind: app\npush_to: b\n"), false},
		{"max_delivery_attempts", comp("kind: pubsub.subscription\nmax_delivery_attempts: 5\n"), true},
		{"max_delivery_attempts minimum", comp("kind: pubsub.subscription\nmax_delivery_attempts: 0\n"), false},
		{"max_delivery_attempts integer", comp("kind: pubsub.subscription\nmax_delivery_attempts: \"5\"\n"), false},
		{"retention", comp("kind: eventarc.trigger\nretention: 7d\n"), true},
		{"duration minimum", comp("kind: pubsub.subscription\nretention: -1\n"), false},
		{"backoffs", comp("kind: pubsub.subscription\nmin_backoff: 10s\nmax_backoff: 600s\nack_deadline: 10s\n"), true},
		{"ack_deadline kind", comp("kind: cloudrun.service\nack_deadline: 10s\n"), false},
		// A call.
		{"calls array", comp("kind: app\ncalls: {to: b}\n"), false},
		{"calls array", comp("kind: app\ncalls: []\n"), true},
		{"call object", comp("kind: app\ncalls: [3]\n"), false},
		{"call required to", call("{}\n"), false},
		{"call additionalProperties", call("{to: b, colour: red}\n"), false},
		{"to", call("to: b\n"), true},
		{"to", call("to: \"b-*\"\n"), true},
		{"name minLength", call("to: \"\"\n"), false},
		{"name string", call("to: 3\n"), false},
		{"name string", call("to: null\n"), false},
		{"retries", call("to: b\nretries: 3\n"), true},
		{"retries", call("to: b\nretries: 0\n"), true},
		{"retries", call("to: b\nretries: 3.0\n"), true},
		{"retries", call("to: b\nretries: unbounded\n"), true},
		{"retries", call("to: b\nretries: \"unbounded\"\n"), true},
		{"retries integer", call("to: b\nretries: \"3\"\n"), false},
		{"retries integer", call("to: b\nretries: 2.5\n"), false},
		{"retries integer", call("to: b\nretries: null\n"), false},
		{"retries minimum", call("to: b\nretries: -1\n"), false},
		{"retries maximum", call("to: b\nretries: 2147483648\n"), false},
		{"retries const", call("to: b\nretries: Unbounded\n"), false},
		{"on", call("to: b\non: [http-429, connection]\n"), true},
		{"on", call("to: b\non: []\n"), true},
		{"signal pattern", call("to: b\non: [http-6xx]\n"), false},
		{"backoff", call("to: b\nbackoff: {initial: 1s, max: 30s, multiplier: 2, jitter: full}\n"), true},
		{"backoff", call("to: b\nbackoff: {}\n"), true},
		{"backoff", call("to: b\nbackoff: {multiplier: 1}\n"), true},
		{"backoff", call("to: b\nbackoff: {multiplier: 1.5}\n"), true},
		{"backoff object", call("to: b\nbackoff: null\n"), false},
		{"backoff object", call("to: b\nbackoff: 3\n"), false},
		{"backoff additionalProperties", call("to: b\nbackoff: {steps: 3}\n"), false},
		{"multiplier minimum", call("to: b\nbackoff: {multiplier: -2}\n"), false},
		{"multiplier minimum", call("to: b\nbackoff: {multiplier: 0.5}\n"), false},
		{"multiplier minimum", call("to: b\nbackoff: {multiplier: 0}\n"), false},
		{"multiplier number", call("to: b\nbackoff: {multiplier: \"2\"}\n"), false},
		{"multiplier number", call("to: b\nbackoff: {multiplier: null}\n"), false},
		{"jitter enum", call("to: b\nbackoff: {jitter: some}\n"), false},
		{"jitter enum", call("to: b\nbackoff: {jitter: null}\n"), false},
		{"duration minimum", call("to: b\nbackoff: {initial: -1}\n"), false},
		{"duration pattern", call("to: b\nbackoff: {max: soon}\n"), false},
		{"timeout", call("to: b\ntimeout: 30s\n"), true},
		{"duration pattern", call("to: b\ntimeout: abc\n"), false},
		{"duration oneOf", call("to: b\ntimeout: true\n"), false},
		{"awaits", call("to: b\nawaits: true\n"), true},
		{"awaits boolean", call("to: b\nawaits: \"true\"\n"), false},
		{"awaits boolean", call("to: b\nawaits: yes\n"), false},
		{"awaits boolean", call("to: b\nawaits: 1\n"), false},
		{"func", call("to: b\nfunc: example.com/app.Call\n"), true},
		{"func pattern", call("to: b\nfunc: \"\"\n"), false},
		{"func pattern", call("to: b\nfunc: \" \"\n"), false},
		{"func string", call("to: b\nfunc: 3\n"), false},
	}
	for _, c := range cases {
		if got := schemaAccepts(t, s, c.src); got != c.ok {
			t.Errorf("%s: %q: schema accepts %v, want %v", c.rule, c.src, got, c.ok)
		}
		if got := loaderAccepts(t, c.src); got != c.ok {
			t.Errorf("%s: %q: loader accepts %v, want %v", c.rule, c.src, got, c.ok)
		}
	}
}

// TestLoaderRulesTheSchemaCannotSay: a JSON Schema cannot compare two
// values, so these are the loader's alone (the schema's descriptions say
// them): a backoff whose max is below its initial wait, a subscription
// whose max_backoff is below its min_backoff.
func TestLoaderRulesTheSchemaCannotSay(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"version: 1\ncomponents:\n  a:\n    kind: app\n    calls:\n      - to: b\n        backoff: {initial: 30s, max: 1s}\n",
			"retrylint.yaml:7:38: component a: calls: backoff.max: 1 s is below backoff.initial, 30 s"},
		{"version: 1\ncomponents:\n  a:\n    kind: pubsub.subscription\n    min_backoff: 600s\n    max_backoff: 10s\n",
			"retrylint.yaml:6:18: component a: max_backoff: 10 s is below min_backoff, 600 s"},
	} {
		_, err := LoadBytes("retrylint.yaml", []byte(tc.src), Options{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: error %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

// indent prefixes every line of s.
func indent(s, pre string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pre + l
		}
	}
	return strings.Join(lines, "")
}

// TestSchemaPatternsAreTheLoaders: the schema checks durations and URLs
// with the loader's own patterns.
func TestSchemaPatternsAreTheLoaders(t *testing.T) {
	b, err := os.ReadFile("../schemas/topology-v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Defs struct {
			Duration struct {
				OneOf []struct {
					Pattern string `json:"pattern"`
				} `json:"oneOf"`
			} `json:"duration"`
			Component struct {
				Properties struct {
					URL struct {
						Pattern string `json:"pattern"`
					} `json:"url"`
				} `json:"properties"`
			} `json:"component"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if oneOf := s.Defs.Duration.OneOf; len(oneOf) != 2 || oneOf[1].Pattern != durationPattern {
		t.Errorf("schema duration %+v, loader pattern %s", oneOf, durationPattern)
	}
	if got := s.Defs.Component.Properties.URL.Pattern; got != urlPattern {
		t.Errorf("schema url pattern %s, loader %s", got, urlPattern)
	}
}
