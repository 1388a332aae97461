package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/all"
)

// analyzerPackage is the import path of the package that defines a's Run.
func analyzerPackage(a *analysis.Analyzer) string {
	name := runtime.FuncForPC(reflect.ValueOf(a.Run).Pointer()).Name() // import/path.func
	slash := strings.LastIndexByte(name, '/')
	pkg, _, _ := strings.Cut(name[slash+1:], ".")
	return name[:slash+1] + pkg
}

// TestNogoPage keeps docs/nogo.md in step with the analyzers: its nogo
// target lists the package of every analyzer that go vet runs, each
// package exports the analyzer as Analyzer (what nogo links), and its
// configuration names only analyzers and flags that exist.
func TestNogoPage(t *testing.T) {
	page, err := os.ReadFile(filepath.Join(reportRoot, "docs", "nogo.md"))
	if err != nil {
		t.Fatal(err)
	}
	const repo = "@com_github_retrylint_retrylint//"
	var listed []string
	_, build, _ := strings.Cut(string(page), "\nnogo(\n")
	build, _, _ = strings.Cut(build, "```")
	for _, m := range regexp.MustCompile(`"`+regexp.QuoteMeta(repo)+`([^"]+)"`).FindAllStringSubmatch(build, -1) {
		listed = append(listed, "github.com/retrylint/retrylint/"+m[1])
	}
	byName := make(map[string]*analysis.Analyzer)
	var want []string
	for _, a := range all.WithSettings() {
		byName[a.Name] = a
		pkg := analyzerPackage(a)
		want = append(want, pkg)
		if !strings.HasSuffix(pkg, "/"+a.Name) {
			t.Errorf("analyzer %s lives in %s: nogo's label would not name it", a.Name, pkg)
		}
		if !strings.Contains(string(page), "| `"+repo+strings.TrimPrefix(pkg, "github.com/retrylint/retrylint/")+"` | `"+a.Name+"` |") {
			t.Errorf("docs/nogo.md: the table has no row for %s", a.Name)
		}
	}
	if err := analysis.Validate(all.WithSettings()); err != nil {
		t.Error(err)
	}
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("docs/nogo.md's nogo target lists\n%v\nthe analyzers are in\n%v", listed, want)
	}

	_, cfg, _ := strings.Cut(string(page), "```json\n")
	cfg, _, _ = strings.Cut(cfg, "```")
	var config map[string]struct {
		AnalyzerFlags map[string]string `json:"analyzer_flags"`
		OnlyFiles     map[string]string `json:"only_files"`
		ExcludeFiles  map[string]string `json:"exclude_files"`
	}
	if err := json.Unmarshal([]byte(cfg), &config); err != nil {
		t.Fatalf("docs/nogo.md's nogo_config.json: %v", err)
	}
	for name, c := range config {
		a, ok := byName[name]
		if !ok && name != "_base" {
			t.Errorf("nogo_config.json configures %q, which is no analyzer of the nogo target", name)
			continue
		}
		for flag, value := range c.AnalyzerFlags {
			f := a.Flags.Lookup(flag)
			if f == nil {
				t.Errorf("nogo_config.json: %s has no flag %s", name, flag)
				continue
			}
			old := f.Value.String()
			if err := f.Value.Set(value); err != nil {
				t.Errorf("nogo_config.json: -%s.%s=%s: %v", name, flag, value, err)
			}
			f.Value.Set(old)
		}
		for re := range mapsKeys(c.OnlyFiles, c.ExcludeFiles) {
			if _, err := regexp.Compile(re); err != nil {
				t.Errorf("nogo_config.json: %s: %v", name, err)
			}
		}
	}
}

// mapsKeys yields the keys of the maps.
func mapsKeys(ms ...map[string]string) map[string]bool {
	out := make(map[string]bool)
	for _, m := range ms {
		for k := range m {
			out[k] = true
		}
	}
	return out
}
