package terraform

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/retrylint/retrylint/internal/input"
)

// state is shared by the modules of one read.
type state struct {
	opts      Options
	roots     []string            // absolute, symlink-free
	rootDir   string              // the root module's directory ("" in memory)
	files     map[string]*srcFile // by display name: configuration and read files
	reads     map[string]*srcFile // by absolute path: file() and templatefile() reads
	readErrs  map[string]string   // by absolute path: why a read failed
	templates map[string]*parsedTemplate
	stack     []string                     // module directories being read (cycle guard)
	configs   map[string]*srcFile          // configuration files read, by absolute path
	bodies    map[*srcFile]*hclsyntax.Body // configuration files parsed
	depth     int                          // nesting of evaluate calls
	budget    *Budget                      // what the reads sharing it have taken
	instances int                          // module instances this read made, the root's included
	bytes     int64                        // the configuration those instances hold
	err       *Error                       // the evaluation that passed the caps: none is made after it
	out       *Module
	inMemory  bool
}

// srcFile is the text of one file read.
type srcFile struct {
	name  string // display name
	abs   string
	data  []byte
	lines []int // byte offsets of line starts, computed on demand
}

type parsedTemplate struct {
	expr hclsyntax.Expression
	err  error
}

// module is one module's declarations and the memo of its evaluations.
type module struct {
	st        *state
	dir       string
	addr      string // "" for the root, else "module.a" or "module.a.module.b"
	vars      map[string]*variable
	locals    map[string]*hclsyntax.Attribute
	resources map[string]*resourceDecl // by "TYPE.NAME"
	outputs   map[string]*hclsyntax.Attribute
	calls     []*hclsyntax.Block // module blocks, in source order
	children  map[string]*module
	order     []*resourceDecl

	memo map[memoKey]evalResult
	busy map[memoKey]bool
	fns  [2]map[string]function.Function
	inst *instance // the resource instance an expression is read in (see within), or nil
}

type resourceDecl struct {
	typ, name string
	block     *hclsyntax.Block
	repeated  bool
	// instances are those of count or for_each known statically (see instancesOf), once
	// instancesRead.
	instances     []*instance
	instancesRead bool
}

// variable is an input variable: its default, or the expression a calling module passes.
type variable struct {
	def   hclsyntax.Expression
	input *binding
	pos   hcl.Range
}

type binding struct {
	expr hclsyntax.Expression
	mod  *module
}

// Load reads the module made of files (which must lie in one directory) and the local modules
// it calls. A file that is not valid HCL (or, for .tf.json, valid JSON) is an *Error naming
// file:line:col.
func Load(files []string, opts Options) (*Module, error) {
	if len(files) == 0 {
		return nil, errors.New("no Terraform files given")
	}
	var abs []string
	dir := ""
	for _, f := range files {
		a, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		if real, err := filepath.EvalSymlinks(a); err == nil {
			a = real
		}
		d := filepath.Dir(a)
		if dir == "" {
			dir = d
		} else if d != dir {
			return nil, fmt.Errorf("%s: not in the module directory %s", f, dir)
		}
		abs = append(abs, a)
	}
	return read(dir, abs, nil, opts)
}

// LoadDir reads every .tf and .tf.json file of dir and the local modules they call.
func LoadDir(dir string, opts Options) (*Module, error) {
	a, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(a); err == nil {
		a = real
	}
	files, err := moduleFiles(a)
	if err != nil {
		return nil, err
	}
	return read(a, files, nil, opts)
}

// ParseBytes reads one in-memory file as a module of its own, in Terraform's JSON syntax when
// name ends in .tf.json. file(), templatefile() and module calls read nothing: their results are
// unknown.
func ParseBytes(name string, src []byte, opts Options) (*Module, error) {
	return read("", nil, &srcFile{name: name, data: src}, opts)
}

// read is the common entry: it never panics.
func read(dir string, files []string, mem *srcFile, opts Options) (m *Module, err error) {
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.Budget == nil {
		opts.Budget = &Budget{}
	}
	st := &state{opts: opts, budget: opts.Budget, rootDir: dir, files: map[string]*srcFile{}, reads: map[string]*srcFile{},
		readErrs: map[string]string{}, templates: map[string]*parsedTemplate{},
		configs: map[string]*srcFile{}, bodies: map[*srcFile]*hclsyntax.Body{},
		out: &Module{Dir: dir, byAddr: map[string]*Resource{}}, inMemory: mem != nil}
	st.out.st = st
	for _, r := range opts.Roots {
		a, err := filepath.Abs(r)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(a); err == nil {
			a = real
		}
		st.roots = append(st.roots, a)
	}
	if len(st.roots) == 0 && dir != "" {
		st.roots = []string{dir}
	}
	defer func() {
		if r := recover(); r != nil {
			name := dir
			if mem != nil {
				name = mem.name
			}
			m, err = nil, &Error{Pos: Pos{File: name, Line: 1, Col: 1},
				Msg: fmt.Sprintf("internal error reading Terraform: %v", r)}
		}
	}()
	var srcs []*srcFile
	if mem != nil {
		if int64(len(mem.data)) > opts.MaxFileSize {
			return nil, &Error{Pos: Pos{File: mem.name, Line: 1, Col: 1},
				Msg: fmt.Sprintf("file is larger than %d bytes; not read", opts.MaxFileSize)}
		}
		srcs = []*srcFile{mem}
	} else {
		for _, f := range files {
			sf, err := st.readConfig(f)
			if err != nil {
				return nil, err
			}
			srcs = append(srcs, sf)
		}
	}
	root, err := st.module(dir, "", srcs, 0)
	if err != nil {
		return nil, err
	}
	if st.err != nil {
		return nil, st.err
	}
	st.collect(root)
	return st.out, nil
}

// tfvars gives the root module's variables the values of terraform.tfvars,
// terraform.tfvars.json and then *.auto.tfvars and *.auto.tfvars.json in
// dir, in that order (a later file wins), as Terraform does without
// -var-file; they take the place of a default.
func (m *module) tfvars(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var files []string
	for _, name := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			files = append(files, filepath.Join(dir, name))
		}
	}
	for _, e := range entries {
		if !e.IsDir() && (strings.HasSuffix(e.Name(), ".auto.tfvars") || strings.HasSuffix(e.Name(), ".auto.tfvars.json")) {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	for _, f := range files {
		sf, err := m.st.readConfig(f)
		if err != nil {
			return err
		}
		if line, col, msg, ok := input.Encoding(sf.data); !ok {
			return &Error{Pos: Pos{File: sf.name, Line: line, Col: col}, Msg: msg}
		}
		attrs, err := parseVars(sf)
		if err != nil {
			return err
		}
		if attrs == nil {
			continue
		}
		m.st.files[sf.name] = sf
		m.st.out.Files = append(m.st.out.Files, sf.name)
		for _, name := range slices.Sorted(maps.Keys(attrs)) {
			if v := m.vars[name]; v != nil {
				v.input = &binding{expr: attrs[name].Expr, mod: m}
			}
		}
	}
	return nil
}

// parseVars parses one variable definitions file, native syntax or JSON (.tfvars.json).
func parseVars(sf *srcFile) (hclsyntax.Attributes, error) {
	if err := nestingError(sf); err != nil {
		return nil, err
	}
	if isJSONVars(sf.name) {
		return parseJSONVars(sf)
	}
	parsed, diags := hclsyntax.ParseConfig(sf.data, sf.name, hcl.InitialPos)
	if err := diagError(sf.name, diags); err != nil {
		return nil, err
	}
	body, ok := parsed.Body.(*hclsyntax.Body)
	if !ok {
		return nil, nil
	}
	return body.Attributes, nil
}

// moduleFiles lists the .tf and .tf.json files of dir, sorted.
func moduleFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", dir, input.PathErr(err))
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() || !(strings.HasSuffix(e.Name(), ".tf") || strings.HasSuffix(e.Name(), ".tf.json")) || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

func (st *state) display(abs string) string {
	if st.opts.Display != nil {
		return st.opts.Display(abs)
	}
	return filepath.ToSlash(abs)
}

// within reports whether abs lies under one of the given roots.
func (st *state) within(abs string) bool { return input.Within(st.roots, abs) }

// readConfig reads one configuration file, once however many module instances hold it.
func (st *state) readConfig(abs string) (*srcFile, error) {
	if sf := st.configs[abs]; sf != nil {
		return sf, nil
	}
	name := st.display(abs)
	data, err := input.Read(abs, st.opts.MaxFileSize)
	if err != nil {
		return nil, &Error{Pos: Pos{File: name, Line: 1, Col: 1}, Msg: err.Error()}
	}
	sf := &srcFile{name: name, abs: abs, data: data}
	st.configs[abs] = sf
	return sf, nil
}

// parse parses a configuration file once: the instances of a module share its syntax tree,
// which nothing changes (an override file's merge makes copies).
func (st *state) parse(sf *srcFile) (*hclsyntax.Body, error) {
	if body, ok := st.bodies[sf]; ok {
		return body, nil
	}
	if line, col, msg, ok := input.Encoding(sf.data); !ok {
		return nil, &Error{Pos: Pos{File: sf.name, Line: line, Col: col}, Msg: msg}
	}
	body, err := parseConfig(sf)
	if err != nil {
		return nil, err
	}
	st.bodies[sf] = body
	return body, nil
}

// readFile reads a file named by file() or templatefile() in module m: a relative path is
// taken from the root module's directory, as Terraform does, or else from m's own directory;
// only files inside the roots are read.
func (st *state) readFile(m *module, p string) (*srcFile, error) {
	if st.inMemory {
		return nil, errors.New("not read: in-memory input")
	}
	if strings.Contains(p, unknownMark) || p == "" {
		return nil, errors.New("path not known statically")
	}
	if filepath.IsAbs(p) {
		return st.readPath(filepath.Clean(p))
	}
	f, err := st.readPath(filepath.Join(st.rootDir, p))
	if err != nil && m != nil && m.dir != st.rootDir {
		if g, err2 := st.readPath(filepath.Join(m.dir, p)); err2 == nil {
			return g, nil
		}
	}
	return f, err
}

// readPath reads an absolute, clean path once.
func (st *state) readPath(p string) (*srcFile, error) {
	if f, ok := st.reads[p]; ok {
		return f, nil
	}
	if msg, ok := st.readErrs[p]; ok {
		return nil, errors.New(msg)
	}
	f, err := st.readAllowed(p)
	if err != nil {
		st.readErrs[p] = err.Error()
		return nil, err
	}
	st.reads[p] = f
	st.files[f.name] = f
	return f, nil
}

func (st *state) readAllowed(p string) (*srcFile, error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %s", st.display(p), input.PathErr(err))
	}
	if !st.within(real) {
		return nil, fmt.Errorf("%s is outside the given roots; not read", st.display(p))
	}
	data, err := input.Read(real, st.opts.MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", st.display(p), err)
	}
	return &srcFile{name: st.display(real), abs: real, data: data}, nil
}

// diagError turns the first error of diags into an *Error.
func diagError(file string, diags hcl.Diagnostics) *Error {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		e := &Error{Pos: Pos{File: file, Line: 1, Col: 1}, Msg: d.Summary}
		if d.Detail != "" {
			e.Msg += ": " + d.Detail
		}
		if d.Subject != nil {
			e.Pos = rangePos(*d.Subject)
			if e.Pos.File == "" {
				e.Pos.File = file
			}
		}
		return e
	}
	return nil
}

func rangePos(r hcl.Range) Pos {
	p := Pos{File: r.Filename, Line: r.Start.Line, Col: r.Start.Column}
	if p.Line <= 0 {
		p.Line, p.Col = 1, 1
	}
	return p
}

// module parses the files of one module and follows its local module calls.
func (st *state) module(dir, addr string, srcs []*srcFile, depth int) (*module, error) {
	st.instances++
	st.budget.instances++
	m := &module{st: st, dir: dir, addr: addr, vars: map[string]*variable{},
		locals: map[string]*hclsyntax.Attribute{}, resources: map[string]*resourceDecl{},
		outputs: map[string]*hclsyntax.Attribute{}, children: map[string]*module{},
		memo: map[memoKey]evalResult{}, busy: map[memoKey]bool{}}
	// Override files are merged into the others' blocks after all of
	// them, in name order, as Terraform does.
	ordered := make([]*srcFile, 0, len(srcs))
	var overrides []*srcFile
	for _, sf := range srcs {
		if overrideFile(sf.name) {
			overrides = append(overrides, sf)
		} else {
			ordered = append(ordered, sf)
		}
	}
	slices.SortStableFunc(overrides, func(a, b *srcFile) int { return strings.Compare(filepath.Base(a.name), filepath.Base(b.name)) })
	for _, sf := range append(ordered, overrides...) {
		st.files[sf.name] = sf
		st.out.Files = append(st.out.Files, sf.name)
		body, err := st.parse(sf)
		if err != nil {
			return nil, err
		}
		if body == nil {
			continue
		}
		if overrideFile(sf.name) {
			m.override(body)
			continue
		}
		if err := m.declare(body); err != nil {
			return nil, err
		}
	}
	if addr == "" && dir != "" && !st.inMemory {
		if err := m.tfvars(dir); err != nil {
			return nil, err
		}
	}
	st.stack = append(st.stack, dir)
	defer func() { st.stack = st.stack[:len(st.stack)-1] }()
	for _, call := range m.calls {
		if err := m.follow(call, depth); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// CheckSyntax parses one configuration file, native syntax or JSON by its
// name, without evaluating it: a *Error at the place it breaks, or nil.
func CheckSyntax(name string, data []byte) error {
	_, err := parseConfig(&srcFile{name: name, data: data})
	return err
}

// NamesResourceType reports whether data mentions, as a quoted word, a
// resource type of a retry layer retrylint reads
// ("google_cloud_run_v2_job"; a topic is none): a file that does not is no
// manifest of a retry layer, in either syntax.
func NamesResourceType(data []byte) bool {
	for typ := range ResourceTypes {
		if typ != "google_pubsub_topic" && bytes.Contains(data, []byte(`"`+typ+`"`)) {
			return true
		}
	}
	return false
}

// parseConfig parses one configuration file, native syntax or JSON (.tf.json), once its
// nesting is known to be within bounds.
func parseConfig(sf *srcFile) (*hclsyntax.Body, error) {
	if err := nestingError(sf); err != nil {
		return nil, err
	}
	if isJSONConfig(sf.name) {
		return parseJSONConfig(sf)
	}
	f, diags := hclsyntax.ParseConfig(sf.data, sf.name, hcl.InitialPos)
	if err := diagError(sf.name, diags); err != nil {
		return nil, err
	}
	body, _ := f.Body.(*hclsyntax.Body)
	return body, nil
}

func labelError(b *hclsyntax.Block, want string) *Error {
	return &Error{Pos: rangePos(b.TypeRange), Msg: fmt.Sprintf("%s block: expected %s", b.Type, want)}
}

// declare records the top-level blocks of one file.
func (m *module) declare(body *hclsyntax.Body) error {
	for _, b := range body.Blocks {
		switch b.Type {
		case "variable":
			if len(b.Labels) != 1 {
				return labelError(b, "one label, the variable name")
			}
			v := &variable{pos: b.TypeRange}
			if a := b.Body.Attributes["default"]; a != nil {
				v.def = a.Expr
			}
			if _, dup := m.vars[b.Labels[0]]; !dup {
				m.vars[b.Labels[0]] = v
			}
		case "locals":
			for _, name := range slices.Sorted(maps.Keys(b.Body.Attributes)) {
				if _, dup := m.locals[name]; !dup {
					m.locals[name] = b.Body.Attributes[name]
				}
			}
		case "resource":
			if len(b.Labels) != 2 {
				return labelError(b, "two labels, the resource type and name")
			}
			key := b.Labels[0] + "." + b.Labels[1]
			if _, dup := m.resources[key]; dup {
				// Terraform refuses the module; said only for a resource
				// retrylint reads (a duplicated IAM binding in a folder of
				// test fragments is not its concern).
				if ResourceTypes[b.Labels[0]] {
					m.st.out.Notes = append(m.st.out.Notes, Note{Pos: rangePos(b.TypeRange),
						Msg: "resource " + m.prefix() + key + " is declared twice; the first is used"})
				}
				continue
			}
			_, count := b.Body.Attributes["count"]
			_, each := b.Body.Attributes["for_each"]
			d := &resourceDecl{typ: b.Labels[0], name: b.Labels[1], block: b, repeated: count || each}
			m.resources[key] = d
			m.order = append(m.order, d)
		case "output":
			if len(b.Labels) != 1 {
				return labelError(b, "one label, the output name")
			}
			if a := b.Body.Attributes["value"]; a != nil {
				m.outputs[b.Labels[0]] = a
			}
		case "module":
			if len(b.Labels) != 1 {
				return labelError(b, "one label, the module name")
			}
			m.calls = append(m.calls, b)
		}
	}
	return nil
}

// overrideFile reports whether name is a Terraform override file:
// override.tf, NAME_override.tf, or either in JSON (.tf.json).
func overrideFile(name string) bool {
	base := strings.TrimSuffix(filepath.Base(name), ".json")
	return base == "override.tf" || strings.HasSuffix(base, "_override.tf")
}

// override merges the blocks of an override file into those declared: an
// argument replaces the original's, and nested blocks of a type replace
// all the original's blocks of that type; a local, a variable's default
// and an output's value replace theirs. A block with nothing to override
// is noted and left out, as Terraform refuses it.
func (m *module) override(body *hclsyntax.Body) {
	for _, b := range body.Blocks {
		switch b.Type {
		case "resource":
			if len(b.Labels) != 2 {
				continue
			}
			key := b.Labels[0] + "." + b.Labels[1]
			d := m.resources[key]
			if d == nil {
				m.note(b.TypeRange, "override of resource %s%s, which is not declared; not used", m.prefix(), key)
				continue
			}
			merged := *d.block
			merged.Body = mergeBody(d.block.Body, b.Body)
			d.block = &merged
			_, count := merged.Body.Attributes["count"]
			_, each := merged.Body.Attributes["for_each"]
			d.repeated = count || each
		case "module":
			if len(b.Labels) != 1 {
				continue
			}
			i := slices.IndexFunc(m.calls, func(c *hclsyntax.Block) bool { return c.Labels[0] == b.Labels[0] })
			if i < 0 {
				m.note(b.TypeRange, "override of module %q, which is not called; not used", b.Labels[0])
				continue
			}
			merged := *m.calls[i]
			merged.Body = mergeBody(m.calls[i].Body, b.Body)
			m.calls[i] = &merged
		case "locals":
			for name, a := range b.Body.Attributes {
				m.locals[name] = a
			}
		case "variable":
			if v := m.vars[firstLabel(b)]; v != nil {
				if a := b.Body.Attributes["default"]; a != nil {
					v.def = a.Expr
				}
			}
		case "output":
			if a := b.Body.Attributes["value"]; a != nil && firstLabel(b) != "" {
				m.outputs[firstLabel(b)] = a
			}
		}
	}
}

func firstLabel(b *hclsyntax.Block) string {
	if len(b.Labels) == 0 {
		return ""
	}
	return b.Labels[0]
}

// mergeBody is orig with over's arguments in place of its own, and over's
// nested blocks in place of all orig's blocks of their types.
func mergeBody(orig, over *hclsyntax.Body) *hclsyntax.Body {
	out := *orig
	out.Attributes = maps.Clone(orig.Attributes)
	if out.Attributes == nil {
		out.Attributes = hclsyntax.Attributes{}
	}
	maps.Copy(out.Attributes, over.Attributes)
	replaced := map[string]bool{}
	for _, b := range over.Blocks {
		replaced[b.Type] = true
	}
	out.Blocks = nil
	for _, b := range orig.Blocks {
		if !replaced[b.Type] {
			out.Blocks = append(out.Blocks, b)
		}
	}
	out.Blocks = append(out.Blocks, over.Blocks...)
	return &out
}

func (m *module) prefix() string {
	if m.addr == "" {
		return ""
	}
	return m.addr + "."
}

func (m *module) note(r hcl.Range, format string, args ...any) {
	m.st.out.Notes = append(m.st.out.Notes, Note{Pos: rangePos(r), Msg: fmt.Sprintf(format, args...)})
}

// follow reads a local module call with its inputs bound to the caller's expressions.
func (m *module) follow(call *hclsyntax.Block, depth int) error {
	name := call.Labels[0]
	if _, dup := m.children[name]; dup {
		return nil
	}
	src := call.Body.Attributes["source"]
	if src == nil {
		m.note(call.TypeRange, "module %q has no source; not followed", name)
		return nil
	}
	v, _ := m.eval(src.Expr, modeReal)
	if !v.IsKnown() || v.IsNull() || !v.Type().Equals(cty.String) {
		m.note(src.Expr.Range(), "module %q: source not known statically; not followed", name)
		return nil
	}
	s := v.AsString()
	if !strings.HasPrefix(s, "./") && !strings.HasPrefix(s, "../") {
		m.note(src.Expr.Range(), "module %q: source %q is not a local path; not followed", name, s)
		m.st.out.Notes[len(m.st.out.Notes)-1].Module = s
		return nil
	}
	if m.st.inMemory {
		m.note(src.Expr.Range(), "module %q: in-memory input, module not read", name)
		return nil
	}
	if depth+1 > maxModuleDepth {
		m.note(src.Expr.Range(), "module %q: modules nested deeper than %d; not followed", name, maxModuleDepth)
		return nil
	}
	if m.st.instances >= maxModuleInstances {
		return &Error{Pos: rangePos(call.TypeRange), Msg: fmt.Sprintf("module %q: more than %d module instances (module calls multiply through the modules they call); not read", name, maxModuleInstances)}
	}
	if m.st.budget.instances >= maxRunInstances {
		return &Error{Pos: rangePos(call.TypeRange), Msg: fmt.Sprintf("module %q: the modules read make more than %d module instances together; not read", name, maxRunInstances)}
	}
	dir := filepath.Join(m.dir, filepath.FromSlash(s))
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		m.note(src.Expr.Range(), "module %q: %s: %s; not followed", name, s, input.PathErr(err))
		m.st.out.Notes[len(m.st.out.Notes)-1].Module = s
		return nil
	}
	if !m.st.within(real) {
		m.note(src.Expr.Range(), "module %q: %s is outside the given roots; not followed", name, s)
		m.st.out.Notes[len(m.st.out.Notes)-1].Module = s
		return nil
	}
	for _, d := range m.st.stack {
		if d == real {
			// Terraform refuses a module that calls itself, through others
			// or directly: the configuration cannot be applied.
			how := fmt.Sprintf("%s calls %s", m.st.display(m.dir), m.st.display(real))
			if m.dir == real {
				how = m.st.display(real) + " calls itself"
			} else {
				how += ", which is already being read above it (it calls back into " + m.st.display(m.dir) + ")"
			}
			return &Error{Pos: rangePos(src.Expr.Range()), Msg: fmt.Sprintf("module %q: a module cycle: %s; Terraform cannot load this configuration", name, how)}
		}
	}
	files, err := moduleFiles(real)
	if err != nil {
		m.note(src.Expr.Range(), "module %q: %v; not followed", name, err)
		return nil
	}
	var srcs []*srcFile
	for _, f := range files {
		sf, err := m.st.readConfig(f)
		if err != nil {
			return err
		}
		srcs = append(srcs, sf)
		if m.st.bytes += int64(len(sf.data)); m.st.bytes > maxConfigBytes {
			return &Error{Pos: rangePos(call.TypeRange), Msg: fmt.Sprintf("module %q: its instances make more than %d MiB of configuration (each instance of a module counts its files again); not read", name, maxConfigBytes>>20)}
		}
	}
	child, err := m.st.module(real, m.prefix()+"module."+name, srcs, depth+1)
	if err != nil {
		return err
	}
	for _, in := range slices.Sorted(maps.Keys(call.Body.Attributes)) {
		switch in {
		case "source", "version", "count", "for_each", "providers", "depends_on":
			continue
		}
		a := call.Body.Attributes[in]
		if v := child.vars[in]; v != nil {
			v.input = &binding{expr: a.Expr, mod: m}
		}
	}
	m.children[name] = child
	m.st.out.ModuleDirs = append(m.st.out.ModuleDirs, real)
	return nil
}

// collect lists the resources of the reported types, each module before its children; a
// resource with count or for_each known statically is listed once for each instance.
func (st *state) collect(m *module) {
	for _, d := range m.order {
		if !ResourceTypes[d.typ] {
			continue
		}
		base := m.prefix() + d.typ + "." + d.name
		insts := st.instancesOf(m, d)
		if insts == nil {
			insts = []*instance{nil}
		}
		for _, in := range insts {
			r := &Resource{Type: d.typ, Name: d.name, Address: base, Module: m.addr, Repeated: d.repeated,
				Block: Block{Type: "resource", Labels: d.block.Labels, Pos: rangePos(d.block.TypeRange),
					body: d.block.Body, mod: m}}
			if in != nil {
				r.Address, r.Key, r.Repeated, r.mod = base+in.key, in.key, false, m.within(in)
			}
			st.out.Resources = append(st.out.Resources, r)
			st.out.byAddr[r.Address] = r
		}
	}
	for _, call := range m.calls {
		if c := m.children[call.Labels[0]]; c != nil {
			st.collect(c)
		}
	}
}
