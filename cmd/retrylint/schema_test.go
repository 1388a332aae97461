package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/config"
)

// TestConfigSchemaRules keeps the rule names that the configuration's
// schema accepts under severity those of the catalogue.
func TestConfigSchemaRules(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(reportRoot, "schemas", "retrylint-config-v1.schema.json"))
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
	var names []string
	for _, r := range catalogue() {
		names = append(names, r.Name)
	}
	got, want := slices.Sorted(slices.Values(s.Properties.Severity.PropertyNames.Enum)), slices.Sorted(slices.Values(names))
	if !slices.Equal(got, want) {
		t.Errorf("schema rules %v, catalogue %v", got, want)
	}
}

// TestReadmeConfigExample decodes the README's .retrylint.yaml example,
// which starts with the schema line editors read.
func TestReadmeConfigExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(reportRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const schemaLine = "# yaml-language-server: $schema=https://raw.githubusercontent.com/retrylint/retrylint/main/schemas/retrylint-config-v1.schema.json\n"
	_, after, ok := strings.Cut(string(readme), "```yaml\n"+schemaLine)
	if !ok {
		t.Fatalf("README.md: no ```yaml block that starts with %q", schemaLine)
	}
	example, _, _ := strings.Cut(after, "```")
	known := func(r string) bool {
		return slices.ContainsFunc(catalogue(), func(i ruleInfo) bool { return i.Name == r })
	}
	cfg, err := config.Parse("README.md", []byte(schemaLine+example), config.Options{KnownRule: known})
	if err != nil {
		t.Fatalf("the README's configuration example: %v", err)
	}
	if cfg.Budget == 0 || len(cfg.Severity) == 0 || len(cfg.Ignore) == 0 || len(cfg.Classifiers) == 0 || len(cfg.RetryHelpers) == 0 {
		t.Errorf("the README's example leaves a key out: %+v", cfg)
	}
	for _, file := range []string{"schemas/retrylint-config-v1.schema.json", "schemas/topology-v1.schema.json"} {
		if !strings.Contains(string(readme), "https://raw.githubusercontent.com/retrylint/retrylint/main/"+file) {
			t.Errorf("README.md does not point editors at %s", file)
		}
		if _, err := os.Stat(filepath.Join(reportRoot, file)); err != nil {
			t.Error(err)
		}
	}
}
