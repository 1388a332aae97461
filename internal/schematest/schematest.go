// Package schematest compiles the JSON Schemas that tests validate
// retrylint's files and outputs against: the topology and configuration
// schemas, SARIF 2.1.0, GitLab's Code Climate report.
package schematest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Load compiles the schema in the file at path; "format" keywords
// annotate, as the specification's default has it.
func Load(path string) (*jsonschema.Schema, error) { return load(path, false) }

// LoadStrict compiles it with "format" keywords asserted (SARIF's uri and
// date-time fields).
func LoadStrict(path string) (*jsonschema.Schema, error) { return load(path, true) }

func load(path string, strict bool) (*jsonschema.Schema, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	c := jsonschema.NewCompiler()
	if strict {
		c.AssertFormat()
	}
	if err := c.AddResource(name, doc); err != nil {
		return nil, err
	}
	return c.Compile(name)
}

// Compile is Load for a test: a schema that does not compile fails it.
func Compile(t testing.TB, path string) *jsonschema.Schema {
	t.Helper()
	return must(t, path, false)
}

// CompileStrict is LoadStrict for a test.
func CompileStrict(t testing.TB, path string) *jsonschema.Schema {
	t.Helper()
	return must(t, path, true)
}

func must(t testing.TB, path string, strict bool) *jsonschema.Schema {
	t.Helper()
	s, err := load(path, strict)
	if err != nil {
		t.Fatalf("schema %s: %v", path, err)
	}
	return s
}
