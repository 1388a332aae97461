// Package gclplugin runs retrylint's code rules inside golangci-lint v2, as
// a module plugin. Build a golangci-lint that contains it with
// "golangci-lint custom" and a .custom-gcl.yml that names this package,
// then enable the linter "retrylint" in .golangci.yml:
//
//	linters:
//	  enable: [retrylint]
//	  settings:
//	    custom:
//	      retrylint:
//	        type: module
//	        settings:
//	          classifiers: [mypkg.IsTransient]
//	          retry_helpers:
//	            - {func: example.com/platform/retry.Run, attempts: arg 2}
//	          severity: {no-jitter: off}
//
// The settings are those of .retrylint.yaml, read by the same decoder:
// classifiers, retry_helpers, and severity with "off" to turn a code rule
// off. budget belongs to the topology half, ignore to golangci-lint's
// linters.exclusions.paths and other severities to its severity section;
// they are refused rather than silently dropped. One more setting, tests
// (default false), makes the rules read _test.go files, as retrylint code
// --tests does. docs/golangci-lint.md has the whole set-up.
package gclplugin

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzer/all"
	"github.com/retrylint/retrylint/analyzer/retryconfig"
	"github.com/retrylint/retrylint/config"
)

// Name is the linter's name in .golangci.yml and .custom-gcl.yml.
const Name = "retrylint"

func init() {
	register.Plugin(Name, New)
}

// Plugin is retrylint's golangci-lint plugin: the code rules that are on
// and the settings of the retryconfig analyzer.
type Plugin struct {
	rules    []all.Rule
	settings retryconfig.Config
}

// New decodes the plugin's settings from .golangci.yml; golangci-lint
// calls it once per run.
func New(settings any) (register.LinterPlugin, error) {
	s, err := decode(settings)
	if err != nil {
		return nil, fmt.Errorf("settings of %s: %w", Name, err)
	}
	return s, nil
}

// decode turns the settings into a Plugin.
func decode(settings any) (*Plugin, error) {
	m, err := settingsMap(settings)
	if err != nil {
		return nil, err
	}
	if err := checkSettings("", m, 0); err != nil {
		return nil, err
	}
	tests, err := popBool(m, "tests")
	if err != nil {
		return nil, err
	}
	cfg, err := parseConfig(m)
	if err != nil {
		return nil, err
	}
	p := &Plugin{settings: retryconfig.Config{Classifiers: cfg.Classifiers, RetryHelpers: cfg.RetryHelpers, Tests: tests}}
	for _, r := range all.Rules() {
		if cfg.Severity[r.Name] != config.Off {
			p.rules = append(p.rules, r)
		}
	}
	return p, nil
}

// settingsMap is the settings as a mapping; none is an empty one.
func settingsMap(settings any) (map[string]any, error) {
	switch s := settings.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return maps.Clone(s), nil
	}
	return nil, fmt.Errorf("want a mapping of settings as in .retrylint.yaml, got %T", settings)
}

// maxSettingsDepth bounds how deeply settings nest: .retrylint.yaml's
// deepest setting is four levels down, and re-encoding a deeper one costs
// the square of its depth in indentation.
const maxSettingsDepth = 16

// checkSettings refuses what YAML cannot hold (a channel, a function, a
// complex number) and settings nested deeper than maxSettingsDepth (a map
// that holds itself among them), before they are re-encoded: the encoder
// panics on the first and recurses without end on the last. at is the
// value's place, as in "retry_helpers[0].func".
func checkSettings(at string, v any, depth int) error {
	if depth > maxSettingsDepth {
		return fmt.Errorf("%s: settings nested deeper than %d levels", at, maxSettingsDepth)
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Invalid, reflect.Bool, reflect.String, reflect.Int, reflect.Int8, reflect.Int16,
		reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32,
		reflect.Uint64, reflect.Uintptr, reflect.Float32, reflect.Float64:
		return nil
	case reflect.Struct:
		for i := range rv.NumField() {
			if f := rv.Type().Field(i); f.IsExported() {
				if err := checkSettings(join(at, f.Name), rv.Field(i).Interface(), depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	case reflect.Slice, reflect.Array:
		for i := range rv.Len() {
			if err := checkSettings(fmt.Sprintf("%s[%d]", at, i), rv.Index(i).Interface(), depth+1); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		keys := rv.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		for _, k := range keys {
			key := join(at, fmt.Sprint(k.Interface()))
			if err := checkSettings(key, k.Interface(), depth+1); err != nil {
				return err
			}
			if err := checkSettings(key, rv.MapIndex(k).Interface(), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("%s: a %s is not a setting", at, rv.Type())
}

// join is the place of key inside at.
func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

// popBool removes key from m and returns its value, false when absent.
func popBool(m map[string]any, key string) (bool, error) {
	v, ok := m[key]
	if !ok {
		return false, nil
	}
	delete(m, key)
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("%s: want true or false, got %v", key, v)
	}
	return b, nil
}

// parseConfig reads the rest of the settings with .retrylint.yaml's
// decoder, and refuses what has no meaning inside golangci-lint.
func parseConfig(m map[string]any) (cfg *config.Config, err error) {
	defer func() {
		if r := recover(); r != nil {
			cfg, err = nil, fmt.Errorf("cannot read the settings as YAML: %v", r)
		}
	}()
	src, err := yaml.Marshal(m)
	if err != nil {
		return nil, err
	}
	codeRule := func(name string) bool {
		return slices.ContainsFunc(all.Rules(), func(r all.Rule) bool { return r.Name == name })
	}
	cfg, err = config.Parse("settings", src, config.Options{KnownRule: codeRule})
	var cerr *config.Error
	if errors.As(err, &cerr) {
		return nil, errors.New(cerr.Msg) // positions are those of re-encoded YAML: meaningless
	}
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.Budget != 0:
		return nil, errors.New("budget: the budget is the topology half's; golangci-lint runs the code rules only")
	case len(cfg.Ignore) > 0:
		return nil, errors.New("ignore: use golangci-lint's linters.exclusions.paths")
	}
	for rule, level := range cfg.Severity {
		if level != config.Off {
			return nil, fmt.Errorf("severity of %s: only off has a meaning here; golangci-lint's severity section sets how findings are shown", rule)
		}
	}
	return cfg, nil
}

// BuildAnalyzers sets the flags of the retryconfig analyzer, as go vet
// does from its command line (-retryconfig.classifiers=...), and returns
// one analyzer named retrylint that runs the rules that are on.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	if err := retryconfig.Set(&p.settings); err != nil {
		return nil, fmt.Errorf("settings of %s: %w", Name, err)
	}
	return []*analysis.Analyzer{combine(p.rules)}, nil
}

// combine is one analyzer that runs the analyzers of rules on its pass.
// golangci-lint prefixes a finding with the analyzer's name when it is not
// the linter's; with one analyzer named as the linter a finding reads
// "file:line:col: rule: message (retrylint)", as go vet prints it.
// It requires what the rules require and declares the facts they declare,
// so each rule's Run finds its results and may export its facts.
func combine(rules []all.Rule) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name: Name,
		Doc:  "report retry loops that storm a struggling dependency: " + ruleNames(rules),
		URL:  "https://github.com/retrylint/retrylint",
	}
	for _, r := range rules {
		for _, req := range r.Analyzer.Requires {
			if !slices.Contains(a.Requires, req) {
				a.Requires = append(a.Requires, req)
			}
		}
		a.FactTypes = append(a.FactTypes, r.Analyzer.FactTypes...)
	}
	a.Run = func(pass *analysis.Pass) (any, error) {
		for _, r := range rules {
			if _, err := r.Analyzer.Run(pass); err != nil {
				return nil, fmt.Errorf("%s: %w", r.Name, err)
			}
		}
		return nil, nil
	}
	return a
}

// ruleNames lists the rules' names, comma-separated.
func ruleNames(rules []all.Rule) string {
	var names []string
	for _, r := range rules {
		names = append(names, r.Name)
	}
	return strings.Join(names, ", ")
}

// GetLoadMode says that the rules need type information.
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
