// Package config reads retrylint's configuration file, .retrylint.yaml:
// the amplification budget, per-rule severity, paths to ignore, and extra
// classifiers and retry helpers for the code analyzers.
//
//	budget: 4
//	severity:
//	  no-jitter: warning
//	  retry-without-backoff: off
//	ignore:
//	  - vendor/
//	  - "**/testdata/**"
//	classifiers: [mypkg.IsTransient]
//	retry_helpers:
//	  - mypkg.Do
//	  - {func: example.com/x/retry.Run, attempts: arg 2}
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/input"
	"github.com/retrylint/retrylint/model"
)

// FileName is the name of the configuration file looked for upward from
// the working directory.
const FileName = ".retrylint.yaml"

// maxSize caps what is read of a configuration file.
const maxSize = 1 << 20

// Config is the content of a configuration file. The zero Config is no
// configuration: default severities, nothing ignored.
type Config struct {
	// File is the configuration file, "" when there is none.
	File string
	// Dir is the directory ignore patterns are relative to: the file's,
	// or the directory Load started from when there is no file.
	Dir string
	// Budget is the most executions of a component per event; 0: none.
	Budget int
	// Severity overrides rules' severities; Off removes their findings.
	Severity map[string]Level
	// Ignore lists path patterns (slash-separated, relative to Dir) whose
	// findings are dropped; "**" matches any number of directories and a
	// pattern that matches a directory matches everything under it.
	Ignore []string
	// Classifiers are extra functions that classify a failure, as
	// "pkg.Func" or "import/path.Func" ("pkg.Type.Method" for methods).
	Classifiers []string
	// RetryHelpers are functions that run an operation with retries.
	RetryHelpers []RetryHelper
}

// Level is a configured severity: a model.Severity or Off.
type Level string

// Off turns a rule off.
const Off Level = "off"

// RetryHelper is a function that runs an operation with retries of its own.
type RetryHelper struct {
	// Func is the function, "pkg.Func" or "import/path.Func".
	Func string
	// Attempts says how its attempts are given: "" (unknown), a number
	// ("3"), or the argument that carries them ("arg 2", 1-based).
	Attempts string
}

// Error is an invalid configuration, with the position of the problem.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Find returns the path of the configuration file in dir or the nearest
// directory above it, or "" when there is none.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, FileName)
		fi, err := os.Stat(p)
		if err == nil && !fi.IsDir() {
			return p, nil
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", &Error{File: p, Msg: "cannot read: " + err.Error()}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// Options say what a configuration may name.
type Options struct {
	// KnownRule reports whether a rule exists; nil accepts every name.
	KnownRule func(string) bool
}

// Load reads the configuration file at file ("" finds one upward from dir);
// no file found is the zero configuration.
func Load(file, dir string, opts Options) (*Config, error) {
	if file == "" {
		found, err := Find(dir)
		if err != nil {
			return nil, err
		}
		if found == "" {
			abs, err := filepath.Abs(dir)
			return &Config{Dir: abs}, err
		}
		file = found
	}
	src, err := readCapped(file)
	if err != nil {
		return nil, &Error{File: file, Msg: err.Error()}
	}
	cfg, err := Parse(file, src, opts)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	cfg.File, cfg.Dir = file, filepath.Dir(abs)
	return cfg, nil
}

// readCapped reads a configuration file of at most maxSize bytes; a FIFO,
// a device or a directory is refused before it is opened.
func readCapped(file string) ([]byte, error) {
	return input.Read(file, maxSize)
}

// Parse reads a configuration from src; name is the file name its errors
// carry. Unknown keys, unknown rules and values of the wrong type are
// errors naming their line and column.
func Parse(name string, src []byte, opts Options) (*Config, error) {
	p := &parser{name: name, opts: opts}
	if line, col, msg, ok := input.Encoding(src); !ok {
		return nil, &Error{File: name, Line: line, Col: col, Msg: msg}
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &Config{}, nil // an empty file: no settings
		}
		return nil, p.yamlError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, p.errorf(&extra, "a configuration file holds one YAML document")
	}
	cfg := &Config{}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return cfg, nil
	}
	if err := p.top(root, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// parser decodes one file.
type parser struct {
	name string
	opts Options
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) error {
	return &Error{File: p.name, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)}
}

// yamlError turns a syntax error of the YAML decoder into an *Error.
func (p *parser) yamlError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				line, msg = n, strings.TrimSpace(rest[i+1:])
			}
		}
	}
	return &Error{File: p.name, Line: line, Col: min(line, 1), Msg: "invalid YAML: " + msg}
}

// keys are the top-level keys, in the order the error message lists them.
var keys = []string{"budget", "severity", "ignore", "classifiers", "retry_helpers"}

// top decodes the top-level mapping.
func (p *parser) top(n *yaml.Node, cfg *Config) error {
	if n.Kind != yaml.MappingNode {
		return p.errorf(n, "want a mapping of settings (%s)", strings.Join(keys, ", "))
	}
	seen := make(map[string]bool)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return p.errorf(k, "%s is set twice", k.Value)
		}
		seen[k.Value] = true
		var err error
		switch k.Value {
		case "budget":
			cfg.Budget, err = p.budget(v)
		case "severity":
			cfg.Severity, err = p.severity(v)
		case "ignore":
			cfg.Ignore, err = p.ignore(v)
		case "classifiers":
			cfg.Classifiers, err = p.funcs(v, "classifiers")
		case "retry_helpers":
			cfg.RetryHelpers, err = p.helpers(v)
		default:
			err = p.errorf(k, "unknown key %q (want %s)", k.Value, strings.Join(keys, ", "))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// budget decodes a positive integer.
func (p *parser) budget(n *yaml.Node) (int, error) {
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || err != nil || v < 1 {
		return 0, p.errorf(n, "budget: want a positive number of executions, got %q", n.Value)
	}
	return v, nil
}

// severity decodes the rule → level mapping.
func (p *parser) severity(n *yaml.Node) (map[string]Level, error) {
	if n.Kind != yaml.MappingNode {
		return nil, p.errorf(n, "severity: want a mapping of rule names to error, warning, note or off")
	}
	out := make(map[string]Level)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if p.opts.KnownRule != nil && !p.opts.KnownRule(k.Value) {
			return nil, p.errorf(k, "severity: unknown rule %q (\"retrylint rules\" lists them)", k.Value)
		}
		if _, dup := out[k.Value]; dup {
			return nil, p.errorf(k, "severity: rule %s is set twice", k.Value)
		}
		switch l := Level(v.Value); {
		case v.Kind == yaml.ScalarNode && (l == Off || l == Level(model.Error) || l == Level(model.Warning) || l == Level(model.Note)):
			out[k.Value] = l
		default:
			return nil, p.errorf(v, "severity of %s: want error, warning, note or off, got %q", k.Value, v.Value)
		}
	}
	return out, nil
}

// ignore decodes the list of path patterns.
func (p *parser) ignore(n *yaml.Node) ([]string, error) {
	list, nodes, err := p.strings(n, "ignore")
	if err != nil {
		return nil, err
	}
	for i, pat := range list {
		if _, err := path.Match(strings.ReplaceAll(pat, "**", "*"), ""); err != nil {
			return nil, p.errorf(nodes[i], "ignore: bad pattern %q: %v", pat, err)
		}
	}
	return list, nil
}

// funcs decodes a list of function names.
func (p *parser) funcs(n *yaml.Node, key string) ([]string, error) {
	list, nodes, err := p.strings(n, key)
	if err != nil {
		return nil, err
	}
	for i, f := range list {
		if err := CheckFunc(f); err != nil {
			return nil, p.errorf(nodes[i], "%s: %v", key, err)
		}
	}
	return list, nil
}

// CheckFunc checks a function name of the form pkg.Func or
// import/path.Func, as classifiers and retry_helpers take them.
func CheckFunc(f string) error {
	last := f[strings.LastIndexByte(f, '/')+1:]
	if strings.ContainsAny(f, " \t,") || !strings.Contains(last, ".") || strings.HasSuffix(f, ".") || strings.HasPrefix(last, ".") {
		return fmt.Errorf("want a function as pkg.Func or import/path.Func, got %q", f)
	}
	return nil
}

// helpers decodes retry_helpers: names, or mappings with func and attempts.
func (p *parser) helpers(n *yaml.Node) ([]RetryHelper, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.errorf(n, "retry_helpers: want a list of functions")
	}
	var out []RetryHelper
	for _, item := range n.Content {
		h, err := p.helper(item)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}

// helper decodes one retry helper.
func (p *parser) helper(n *yaml.Node) (RetryHelper, error) {
	var h RetryHelper
	switch n.Kind {
	case yaml.ScalarNode:
		h.Func = n.Value
		if err := CheckFunc(h.Func); err != nil {
			return h, p.errorf(n, "retry_helpers: %v", err)
		}
		return h, nil
	case yaml.MappingNode:
	default:
		return h, p.errorf(n, "retry_helpers: want a function name or {func: ..., attempts: ...}")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "func":
			if err := CheckFunc(v.Value); v.Kind != yaml.ScalarNode || err != nil {
				return h, p.errorf(v, "retry_helpers: func: want a function as pkg.Func or import/path.Func, got %q", v.Value)
			}
			h.Func = v.Value
		case "attempts":
			if v.Kind != yaml.ScalarNode || !ValidAttempts(v.Value) {
				return h, p.errorf(v, "retry_helpers: attempts: want a number or \"arg N\" (the argument that gives them), got %q", v.Value)
			}
			h.Attempts = v.Value
		default:
			return h, p.errorf(k, "retry_helpers: unknown key %q (want func, attempts)", k.Value)
		}
	}
	if h.Func == "" {
		return h, p.errorf(n, "retry_helpers: func is missing")
	}
	return h, nil
}

// ValidAttempts accepts what a retry helper's attempts may be: a positive
// number or "arg N" with N >= 1.
func ValidAttempts(s string) bool {
	if rest, ok := strings.CutPrefix(s, "arg "); ok {
		s = strings.TrimSpace(rest)
	}
	n, err := strconv.Atoi(s)
	return err == nil && n >= 1
}

// strings decodes a list of non-empty strings, and returns their nodes
// for positions; a single string is a list of one.
func (p *parser) strings(n *yaml.Node, key string) ([]string, []*yaml.Node, error) {
	items := n.Content
	switch {
	case n.Kind == yaml.ScalarNode && n.Value != "" && n.Tag == "!!str":
		items = []*yaml.Node{n}
	case n.Kind != yaml.SequenceNode:
		return nil, nil, p.errorf(n, "%s: want a list", key)
	}
	var out []string
	for _, item := range items {
		if item.Kind != yaml.ScalarNode || item.Value == "" {
			return nil, nil, p.errorf(item, "%s: want a non-empty string", key)
		}
		out = append(out, item.Value)
	}
	return out, items, nil
}

// HelperNames lists the functions of the retry helpers.
func (c *Config) HelperNames() []string {
	var out []string
	for _, h := range c.RetryHelpers {
		out = append(out, h.Func)
	}
	return out
}
