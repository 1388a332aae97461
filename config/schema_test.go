package config

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/retrylint/retrylint/internal/schematest"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

const schemaFile = "../schemas/retrylint-config-v1.schema.json"

// compileSchema compiles the configuration file's JSON Schema.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return schematest.Compile(t, schemaFile)
}

// validYAML reports whether the schema accepts the YAML document src, as
// an editor's YAML language server would check it.
func validYAML(t *testing.T, s *jsonschema.Schema, src string) bool {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(inst) == nil
}

// TestSchemaKeysAreTheDecoders keeps the schema's top-level keys those
// the decoder reads.
func TestSchemaKeysAreTheDecoders(t *testing.T) {
	b, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(maps.Keys(s.Properties))
	want := slices.Sorted(slices.Values(keys))
	if !slices.Equal(got, want) {
		t.Errorf("schema keys %v, decoder keys %v", got, want)
	}
}

// TestSchemaAgreesWithDecoder checks documents that the decoder accepts
// against the schema, and documents it rejects: an editor must flag
// exactly what the run would refuse.
func TestSchemaAgreesWithDecoder(t *testing.T) {
	s := compileSchema(t)
	cases := []struct {
		src string
		ok  bool
	}{
		{"", true},
		{"budget: 4\n", true},
		{"budget: 0\n", false},
		{"budget: many\n", false},
		{"bugdet: 4\n", false},
		{"severity:\n  no-jitter: warning\n  retry-without-backoff: off\n  fixed-sleep: note\n  amplification: error\n", true},
		{"severity:\n  no-jitter: loud\n", false},
		{"severity:\n  no-such-rule: warning\n", false},
		{"severity: [no-jitter]\n", false},
		{"ignore:\n  - vendor/\n  - \"**/testdata/**\"\n", true},
		{"ignore: vendor/\n", true},
		{"ignore: [\"\"]\n", false},
		{"ignore: {a: b}\n", false},
		{"classifiers: [mypkg.IsTransient, example.com/platform/retry.Retryable, mypkg.Type.Method]\n", true},
		{"classifiers: mypkg.IsTransient\n", true},
		{"classifiers: [IsTransient]\n", false},
		{"classifiers: [mypkg.]\n", false},
		{"classifiers: [example.com/x/.Foo]\n", false},
		{"classifiers: [\"a.b, c.d\"]\n", false},
		{"classifiers: [\"my pkg.F\"]\n", false},
		{"classifiers: [example.com/x.y/pkg]\n", false},
		{"classifiers:\n", false},
		{"retry_helpers:\n  - mypkg.Do\n  - {func: example.com/platform/retry.Run, attempts: arg 2}\n  - {func: mypkg.Three, attempts: 3}\n  - {func: mypkg.Str, attempts: \"4\"}\n  - {func: mypkg.Plain}\n", true},
		{"retry_helpers: mypkg.Do\n", false},
		{"retry_helpers:\n  - {attempts: 3}\n", false},
		{"retry_helpers:\n  - {func: mypkg.Do, attempts: 0}\n", false},
		{"retry_helpers:\n  - {func: mypkg.Do, attempts: arg 0}\n", false},
		{"retry_helpers:\n  - {func: mypkg.Do, attempts: argument 2}\n", false},
		{"retry_helpers:\n  - {func: mypkg.Do, tries: 2}\n", false},
		{"retry_helpers:\n  - [mypkg.Do]\n", false},
		{"retry_helpers:\n  - Do\n", false},
		{"[budget]\n", false},
	}
	for _, c := range cases {
		_, err := Parse("t.yaml", []byte(c.src), Options{KnownRule: knownRule(t)})
		if decoded := err == nil; decoded != c.ok {
			t.Errorf("%q: decoder accepts: %v, want %v (%v)", c.src, decoded, c.ok, err)
		}
		if valid := validYAML(t, s, c.src); valid != c.ok {
			t.Errorf("%q: schema accepts: %v, want %v", c.src, valid, c.ok)
		}
	}
}

// knownRule accepts the rule names that the schema lists; that they are
// the catalogue's is checked where the catalogue is (cmd/retrylint).
func knownRule(t *testing.T) func(string) bool {
	t.Helper()
	names := schemaRuleNames(t)
	return func(r string) bool { return slices.Contains(names, r) }
}

// schemaRuleNames are the rule names the schema accepts under severity.
func schemaRuleNames(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties struct {
			Severity struct {
				PropertyNames struct {
					Enum []string `json:"enum"`
				} `json:"propertyNames"`
			} `json:"severity"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s.Properties.Severity.PropertyNames.Enum
}
