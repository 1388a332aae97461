package retryconfig

import (
	"flag"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/config"
)

// Config is the settings the analyzers run with.
type Config struct {
	// Classifiers are functions that classify a failure.
	Classifiers []string
	// RetryHelpers are functions that retry an operation themselves.
	RetryHelpers []config.RetryHelper
	// Tests makes the analyzers check _test.go files too.
	Tests bool
}

// Analyzer carries the settings; its result is a *Config.
var Analyzer = &analysis.Analyzer{
	Name:       "retryconfig",
	Doc:        "settings of the retrylint analyzers\n\nIt reports nothing; its flags configure the other analyzers.",
	URL:        "https://github.com/retrylint/retrylint/blob/main/README.md#configuration-retrylintyaml",
	Flags:      flags(),
	ResultType: reflect.TypeFor[*Config](),
	Run:        run,
}

func flags() flag.FlagSet {
	fs := flag.NewFlagSet("retryconfig", flag.ContinueOnError)
	fs.Var(&classifiers{}, "classifiers", "comma-separated functions that classify a failure (pkg.Func or import/path.Func), as classifiers: in .retrylint.yaml")
	fs.Var(&helpers{}, "retry_helpers", "comma-separated functions that retry an operation themselves, each optionally =N or =arg N for its attempts, as retry_helpers: in .retrylint.yaml")
	fs.Bool("tests", false, "also check _test.go files")
	return *fs
}

func run(pass *analysis.Pass) (any, error) {
	return Of(&pass.Analyzer.Flags), nil
}

// Of returns the settings held by a flag set made by this package.
func Of(fs *flag.FlagSet) *Config {
	c := &Config{}
	if f := fs.Lookup("classifiers"); f != nil {
		c.Classifiers = append(c.Classifiers, f.Value.(*classifiers).list...)
	}
	if f := fs.Lookup("retry_helpers"); f != nil {
		c.RetryHelpers = append(c.RetryHelpers, f.Value.(*helpers).list...)
	}
	if f := fs.Lookup("tests"); f != nil {
		c.Tests = f.Value.String() == "true"
	}
	return c
}

// Set gives the analyzer the settings of a configuration file, as the
// flags would: what retrylint code does before it runs the analyzers.
func Set(c *Config) error {
	var hs []string
	for _, h := range c.RetryHelpers {
		hs = append(hs, HelperFlag(h))
	}
	for name, value := range map[string]string{
		"classifiers":   strings.Join(c.Classifiers, ","),
		"retry_helpers": strings.Join(hs, ","),
		"tests":         strconv.FormatBool(c.Tests),
	} {
		if err := Analyzer.Flags.Set(name, value); err != nil {
			return fmt.Errorf("-%s.%s: %v", Analyzer.Name, name, err)
		}
	}
	return nil
}

// HelperFlag renders a retry helper as the retry_helpers flag takes it.
func HelperFlag(h config.RetryHelper) string {
	if h.Attempts == "" {
		return h.Func
	}
	return h.Func + "=" + h.Attempts
}

type classifiers struct{ list []string }

func (c *classifiers) String() string { return strings.Join(c.list, ",") }

func (c *classifiers) Set(s string) error {
	var list []string
	for _, f := range splitList(s) {
		if err := config.CheckFunc(f); err != nil {
			return err
		}
		list = append(list, f)
	}
	c.list = list
	return nil
}

type helpers struct{ list []config.RetryHelper }

func (h *helpers) String() string {
	var out []string
	for _, x := range h.list {
		out = append(out, HelperFlag(x))
	}
	return strings.Join(out, ",")
}

func (h *helpers) Set(s string) error {
	var list []config.RetryHelper
	for _, item := range splitList(s) {
		fn, attempts, _ := strings.Cut(item, "=")
		fn, attempts = strings.TrimSpace(fn), strings.TrimSpace(attempts)
		if err := config.CheckFunc(fn); err != nil {
			return err
		}
		if attempts != "" && !config.ValidAttempts(attempts) {
			return fmt.Errorf("attempts of %s: want a number or \"arg N\" (the argument that gives them), got %q", fn, attempts)
		}
		list = append(list, config.RetryHelper{Func: fn, Attempts: attempts})
	}
	h.list = list
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
