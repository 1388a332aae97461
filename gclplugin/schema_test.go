package gclplugin

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/schematest"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// TestConfigsAgainstGolangciSchemas validates the fixture's .golangci.yml
// and the .golangci.yml and .custom-gcl.yml of docs/golangci-lint.md
// against the JSON Schemas that golangci-lint ships in its module
// (scripts/golangci-custom.sh sets RETRYLINT_GOLANGCI_DIR to it).
func TestConfigsAgainstGolangciSchemas(t *testing.T) {
	dir := os.Getenv("RETRYLINT_GOLANGCI_DIR")
	if dir == "" {
		t.Skip("RETRYLINT_GOLANGCI_DIR unset: scripts/golangci-custom.sh sets it to golangci-lint's module")
	}
	page, err := os.ReadFile("../docs/golangci-lint.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(page), -1)
	var lint, custom string
	for _, b := range blocks {
		switch {
		case strings.Contains(b[1], "plugins:"):
			custom = b[1]
		case strings.HasPrefix(b[1], `version: "2"`):
			lint = b[1]
		}
	}
	fixture, err := os.ReadFile("testdata/fixture/.golangci.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, schema, doc string }{
		{"docs/golangci-lint.md .golangci.yml", "golangci.jsonschema.json", lint},
		{"testdata/fixture/.golangci.yml", "golangci.jsonschema.json", string(fixture)},
		{"docs/golangci-lint.md .custom-gcl.yml", "custom-gcl.jsonschema.json", custom},
	} {
		if c.doc == "" {
			t.Errorf("%s: not found", c.name)
			continue
		}
		if err := validateYAML(filepath.Join(dir, "jsonschema", c.schema), c.doc); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// validateYAML validates a YAML document against a JSON Schema file.
func validateYAML(schemaFile, doc string) error {
	schema, err := schematest.Load(schemaFile)
	if err != nil {
		return err
	}
	var v any
	if err := yaml.Unmarshal([]byte(doc), &v); err != nil {
		return err
	}
	js, err := json.Marshal(v)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return err
	}
	return schema.Validate(inst)
}
