package workflows

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

const (
	// maxNesting bounds how deeply steps may nest (try in for in switch ...).
	maxNesting = 64
	// maxAliasExpansions bounds how many alias dereferences one document may cost.
	maxAliasExpansions = 10000
	// maxAliasChain bounds a chain of aliases pointing at aliases.
	maxAliasChain = 32
	// maxWork bounds the YAML nodes decoded in one document, aliases expanded.
	maxWork = 2000000
)

// read is a reference to a variable in an expression.
type read struct {
	name string // the variable
	path string // the dotted field path read, e.g. "event.data.bucket"
	pos  Pos
}

// subtree is a YAML value that may hold expressions (args, a returned value, a raised value).
type subtree struct {
	node  *yaml.Node
	pos   Pos
	reads []read
	expr  exprAST // the expression when the value is a single "${...}" scalar
}

// assignment is one "- name: value" entry of an assign step.
type assignment struct {
	target string // the variable written (the root of "a.b[c]")
	field  bool   // the key writes into an existing map or list ("a.b", "a[0]")
	value  subtree
	keyPos Pos
	keyRds []read // variables read by index expressions in the key
}

// callSpec is "call: fn" with its args and result.
type callSpec struct {
	function string
	pos      Pos
	args     *yaml.Node
	argReads []read
	result   string
}

// cond is one branch of a switch: a condition and the embedded step run when it holds.
type cond struct {
	expr   subtree
	always bool // condition is literally true
	body   *step
}

// loopSpec is a "for" block (sequential or inside parallel).
type loopSpec struct {
	value, index string
	in           subtree
	body         []*step
}

// tryBlock is a try with optional retry and except.
type tryBlock struct {
	body      []*step
	retry     *Retry
	hasExcept bool
	as        string
	except    []*step
}

// step is one named step with its actions. A step may combine actions, e.g. call + next.
type step struct {
	name     string
	pos      Pos
	assigns  []assignment
	call     *callSpec
	sw       []*cond
	loop     *loopSpec
	parallel [][]*step // branches run one after another for the analysis
	ploop    *loopSpec
	try      *tryBlock
	raise    *subtree
	ret      *subtree
	steps    []*step
	hasSteps bool
	next     string
	nextPos  Pos
}

// scope is main or a subworkflow.
type scope struct {
	name   string
	pos    Pos
	params []string
	steps  []*step
}

// decoder turns YAML nodes into steps, with positions shifted by the offsets.
type decoder struct {
	file            string
	lineOff, colOff int
	aliasExpansions int
	work            int
	exprs           map[*yaml.Node]exprAST
	opaque          map[*yaml.Node]bool
}

func newDecoder(file string, lineOff, colOff int) *decoder {
	return &decoder{file: file, lineOff: lineOff, colOff: colOff,
		exprs: map[*yaml.Node]exprAST{}, opaque: map[*yaml.Node]bool{}}
}

func (d *decoder) pos(n *yaml.Node) Pos {
	if n == nil {
		return Pos{File: d.file}
	}
	return Pos{File: d.file, Line: n.Line + d.lineOff, Col: n.Column + d.colOff}
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) *Error {
	return &Error{Pos: d.pos(n), Msg: fmt.Sprintf(format, args...)}
}

// deref follows aliases within the expansion budget.
func (d *decoder) deref(n *yaml.Node) (*yaml.Node, error) {
	for i := 0; n != nil && n.Kind == yaml.AliasNode; i++ {
		d.aliasExpansions++
		if i >= maxAliasChain || d.aliasExpansions > maxAliasExpansions {
			return nil, d.errorf(n, "too many YAML alias expansions")
		}
		if n.Alias == nil {
			return nil, d.errorf(n, "unresolved YAML alias")
		}
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil, d.errorf(n, "empty document")
		}
		return d.deref(n.Content[0])
	}
	return n, nil
}

// spend counts one decoded node against the document's budget.
func (d *decoder) spend(n *yaml.Node) error {
	d.work++
	if d.work > maxWork {
		return d.errorf(n, "document too large (more than %d YAML nodes with aliases expanded)", maxWork)
	}
	return nil
}

// derefOrNil is deref for lookups where a broken alias just means "absent".
func (d *decoder) derefOrNil(n *yaml.Node) *yaml.Node {
	n, err := d.deref(n)
	if err != nil {
		return nil
	}
	return n
}

// pairs returns the key/value pairs of a mapping, keys as strings.
func (d *decoder) pairs(m *yaml.Node) ([]*yaml.Node, []*yaml.Node, error) {
	var keys, vals []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, err := d.deref(m.Content[i])
		if err != nil {
			return nil, nil, err
		}
		if k.Kind != yaml.ScalarNode {
			return nil, nil, d.errorf(k, "mapping key must be a string")
		}
		v, err := d.deref(m.Content[i+1])
		if err != nil {
			return nil, nil, err
		}
		keys = append(keys, k)
		vals = append(vals, v)
	}
	return keys, vals, nil
}

// mapGet returns the value under key in mapping m, or nil.
func (d *decoder) mapGet(m *yaml.Node, key string) *yaml.Node {
	m = d.derefOrNil(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := d.derefOrNil(m.Content[i]); k != nil && k.Kind == yaml.ScalarNode && k.Value == key {
			return d.derefOrNil(m.Content[i+1])
		}
	}
	return nil
}

// expr returns the parsed expression of a scalar, nil for a literal or an unparsable expression.
// An unclosed "${" is an error.
func (d *decoder) expr(n *yaml.Node) (exprAST, bool, error) {
	if e, ok := d.exprs[n]; ok {
		return e, true, nil
	}
	if d.opaque[n] {
		return nil, true, nil
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!binary" {
		return nil, false, nil
	}
	inner, ok, unclosed := exprSpan(n.Value)
	if unclosed {
		return nil, false, d.exprError(n, 0, "unclosed \"${\" in expression: expected a closing \"}\"")
	}
	if !ok {
		return nil, false, nil
	}
	if strings.TrimSpace(inner) == "" {
		return nil, false, d.exprError(n, 0, "empty expression \"${}\"")
	}
	x, err := parseExpr(inner)
	if err != nil {
		off, msg := errOffset(err)
		if off >= len(inner) || strings.Contains(msg, "unterminated string") {
			// Cut short: an unclosed parenthesis, bracket or string, an
			// operator without its operand. The platform refuses it.
			return nil, false, d.exprError(n, 2+off, "invalid expression: "+msg)
		}
		// Syntax the analysis does not model: the value is unknown and its reads are ignored.
		d.opaque[n] = true
		return nil, true, nil
	}
	d.exprs[n] = x
	return x, true, nil
}

// exprError is an error in the expression of scalar n, at byte offset off
// from its "${" when the scalar is on one line.
func (d *decoder) exprError(n *yaml.Node, off int, msg string) *Error {
	e := d.errorf(n, "%s", msg)
	if strings.Contains(n.Value, "\n") {
		return e
	}
	start := strings.Index(n.Value, "${")
	switch n.Style {
	case 0, yaml.FlowStyle:
		e.Pos.Col += utf8.RuneCountInString(n.Value[:start+off])
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		e.Pos.Col += 1 + utf8.RuneCountInString(n.Value[:start+off])
	}
	return e
}

// tree walks a YAML value, checking its expressions and collecting the variables it reads.
func (d *decoder) tree(n *yaml.Node) (subtree, error) {
	st := subtree{node: n, pos: d.pos(n)}
	var walk func(n *yaml.Node, depth int) error
	walk = func(n *yaml.Node, depth int) error {
		if err := d.spend(n); err != nil {
			return err
		}
		if depth > maxNesting*4 {
			return d.errorf(n, "value nested more than %d levels deep", maxNesting*4)
		}
		n, err := d.deref(n)
		if err != nil {
			return err
		}
		switch n.Kind {
		case yaml.ScalarNode:
			x, _, err := d.expr(n)
			if err != nil {
				return err
			}
			if x != nil {
				p := d.pos(n)
				varRefs(x, func(name, path string) { st.reads = append(st.reads, read{name, path, p}) })
			}
		case yaml.MappingNode, yaml.SequenceNode:
			for _, c := range n.Content {
				if err := walk(c, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if n == nil {
		return st, nil
	}
	if err := walk(n, 0); err != nil {
		return st, err
	}
	if n, err := d.deref(n); err == nil {
		st.node, st.expr = n, d.exprs[n]
	}
	return st, nil
}

// scalarString returns the text of a scalar that must be a plain name.
func (d *decoder) scalarString(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", d.errorf(n, "%s must be a string", what)
	}
	return n.Value, nil
}

// decodeDoc reads the root of a Workflows source into scopes.
func (d *decoder) decodeDoc(root *yaml.Node) (map[string]*scope, error) {
	root, err := d.deref(root)
	if err != nil {
		return nil, err
	}
	scopes := map[string]*scope{}
	switch root.Kind {
	case yaml.SequenceNode:
		steps, err := d.steps(root, 0)
		if err != nil {
			return nil, err
		}
		scopes["main"] = &scope{name: "main", pos: d.pos(root), steps: steps}
	case yaml.MappingNode:
		keys, vals, err := d.pairs(root)
		if err != nil {
			return nil, err
		}
		for i, k := range keys {
			sc, err := d.scope(k, vals[i])
			if err != nil {
				return nil, err
			}
			if _, dup := scopes[sc.name]; dup {
				return nil, d.errorf(k, "workflow %q defined twice", sc.name)
			}
			scopes[sc.name] = sc
		}
	default:
		return nil, d.errorf(root, "a Workflows source is a mapping (main: and subworkflows) or a list of steps")
	}
	return scopes, nil
}

// scope reads main: or a subworkflow definition.
func (d *decoder) scope(k, v *yaml.Node) (*scope, error) {
	sc := &scope{name: k.Value, pos: d.pos(k)}
	if v.Kind != yaml.MappingNode {
		return nil, d.errorf(v, "workflow %q must be a mapping with params: and steps:", k.Value)
	}
	keys, vals, err := d.pairs(v)
	if err != nil {
		return nil, err
	}
	found := false
	for i, kk := range keys {
		switch kk.Value {
		case "params":
			if vals[i].Kind != yaml.SequenceNode {
				return nil, d.errorf(vals[i], "params must be a list")
			}
			for _, p := range vals[i].Content {
				p, err := d.deref(p)
				if err != nil {
					return nil, err
				}
				switch p.Kind {
				case yaml.ScalarNode:
					sc.params = append(sc.params, p.Value)
				case yaml.MappingNode: // an optional parameter with a default
					pk, _, err := d.pairs(p)
					if err != nil {
						return nil, err
					}
					for _, n := range pk {
						sc.params = append(sc.params, n.Value)
					}
				default:
					return nil, d.errorf(p, "a parameter must be a name or name: default")
				}
			}
		case "steps":
			found = true
			if sc.steps, err = d.steps(vals[i], 0); err != nil {
				return nil, err
			}
		default:
			return nil, d.errorf(kk, "unknown key %q in workflow %q: expected params or steps", kk.Value, k.Value)
		}
	}
	if !found {
		return nil, d.errorf(k, "workflow %q has no steps", k.Value)
	}
	return sc, nil
}

// steps reads a list of single-key step maps.
func (d *decoder) steps(n *yaml.Node, depth int) ([]*step, error) {
	if depth > maxNesting {
		return nil, d.errorf(n, "steps nested more than %d levels deep", maxNesting)
	}
	n, err := d.deref(n)
	if err != nil {
		return nil, err
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "steps must be a list of named steps")
	}
	var out []*step
	for _, item := range n.Content {
		item, err := d.deref(item)
		if err != nil {
			return nil, err
		}
		if item.Kind != yaml.MappingNode || len(item.Content) != 2 {
			return nil, d.errorf(item, "a step must be a mapping with exactly one key, the step name")
		}
		keys, vals, err := d.pairs(item)
		if err != nil {
			return nil, err
		}
		s, err := d.body(keys[0].Value, keys[0], vals[0], depth)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

var stepKeys = "assign, call, switch, for, parallel, try, raise, return, steps, next"

// body reads the mapping that defines a step.
func (d *decoder) body(name string, at, m *yaml.Node, depth int) (*step, error) {
	s := &step{name: name, pos: d.pos(at)}
	if err := d.spend(at); err != nil {
		return nil, err
	}
	if depth > maxNesting {
		return nil, d.errorf(at, "steps nested more than %d levels deep", maxNesting)
	}
	if m.Kind != yaml.MappingNode {
		return nil, d.errorf(m, "step %q must be a mapping with one of %s", name, stepKeys)
	}
	keys, vals, err := d.pairs(m)
	if err != nil {
		return nil, err
	}
	var args, result *yaml.Node
	var tryNode, retryNode, exceptNode, retryKey *yaml.Node
	actions := 0
	for i, k := range keys {
		v := vals[i]
		switch k.Value {
		case "assign":
			actions++
			if s.assigns, err = d.assigns(v); err != nil {
				return nil, err
			}
		case "call":
			actions++
			fn, err := d.scalarString(v, "call")
			if err != nil {
				return nil, err
			}
			s.call = &callSpec{function: strings.TrimSpace(fn), pos: d.pos(v)}
		case "args":
			args = v
		case "result":
			result = v
		case "switch":
			actions++
			if s.sw, err = d.switchConds(name, v, depth); err != nil {
				return nil, err
			}
		case "for":
			actions++
			if s.loop, err = d.loop(name, v, depth); err != nil {
				return nil, err
			}
		case "parallel":
			actions++
			if err := d.parallel(s, v, depth); err != nil {
				return nil, err
			}
		case "try":
			actions++
			tryNode = v
		case "retry":
			retryNode, retryKey = v, k
		case "except":
			exceptNode = v
		case "raise":
			actions++
			t, err := d.tree(v)
			if err != nil {
				return nil, err
			}
			s.raise = &t
		case "return":
			actions++
			t, err := d.tree(v)
			if err != nil {
				return nil, err
			}
			s.ret = &t
		case "steps":
			actions++
			s.hasSteps = true
			if s.steps, err = d.steps(v, depth+1); err != nil {
				return nil, err
			}
		case "next":
			actions++
			if s.next, err = d.scalarString(v, "next"); err != nil {
				return nil, err
			}
			s.nextPos = d.pos(v)
		default:
			return nil, d.errorf(k, "unknown key %q in step %q: expected %s", k.Value, name, stepKeys)
		}
	}
	if actions == 0 {
		return nil, d.errorf(at, "step %q has none of %s", name, stepKeys)
	}
	if err := d.callParts(s, args, result); err != nil {
		return nil, err
	}
	if tryNode == nil && (retryNode != nil || exceptNode != nil) {
		k := retryNode
		if k == nil {
			k = exceptNode
		}
		return nil, d.errorf(k, "retry: and except: need a try: in step %q", name)
	}
	if tryNode != nil {
		if s.try, err = d.tryBlock(name, at, tryNode, retryNode, exceptNode, depth); err != nil {
			return nil, err
		}
		if s.try.retry != nil {
			s.try.retry.Pos = d.pos(retryKey)
		}
	}
	return s, nil
}

// callParts attaches args: and result: to the step's call.
func (d *decoder) callParts(s *step, args, result *yaml.Node) error {
	if s.call == nil {
		if args != nil || result != nil {
			n := args
			if n == nil {
				n = result
			}
			return d.errorf(n, "args: and result: need a call: in step %q", s.name)
		}
		return nil
	}
	if args != nil {
		if args.Kind != yaml.MappingNode && !(args.Kind == yaml.ScalarNode && args.Tag == "!!null") {
			if _, isExpr, _ := d.expr(args); !isExpr {
				return d.errorf(args, "args of step %q must be a mapping", s.name)
			}
		}
		t, err := d.tree(args)
		if err != nil {
			return err
		}
		s.call.args, s.call.argReads = args, t.reads
	}
	if result != nil {
		r, err := d.scalarString(result, "result")
		if err != nil {
			return err
		}
		s.call.result = r
	}
	return nil
}

// assigns reads the list of an assign step.
func (d *decoder) assigns(v *yaml.Node) ([]assignment, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, d.errorf(v, "assign must be a list of name: value entries")
	}
	var out []assignment
	for _, item := range v.Content {
		item, err := d.deref(item)
		if err != nil {
			return nil, err
		}
		if item.Kind != yaml.MappingNode || len(item.Content) == 0 {
			return nil, d.errorf(item, "an assignment must be a name: value mapping")
		}
		keys, vals, err := d.pairs(item)
		if err != nil {
			return nil, err
		}
		for i, k := range keys {
			a, err := d.assignment(k, vals[i])
			if err != nil {
				return nil, err
			}
			out = append(out, a)
		}
	}
	return out, nil
}

func (d *decoder) assignment(k, v *yaml.Node) (assignment, error) {
	a := assignment{keyPos: d.pos(k)}
	key := strings.TrimSpace(k.Value)
	if inner, ok, _ := exprSpan(key); ok {
		key = inner
	}
	x, err := parseExpr(key)
	root, ok := "", false
	if err == nil {
		root, ok = rootIdent(x)
	}
	if !ok {
		return a, d.errorf(k, "cannot assign to %q: expected a variable name", k.Value)
	}
	a.target = root
	if _, plain := x.(identExpr); !plain {
		a.field = true
		p := d.pos(k)
		varRefs(x, func(name, path string) {
			if name != root {
				a.keyRds = append(a.keyRds, read{name, path, p})
			}
		})
	}
	if a.value, err = d.tree(v); err != nil {
		return a, err
	}
	return a, nil
}

// switchConds reads the conditions of a switch.
func (d *decoder) switchConds(name string, v *yaml.Node, depth int) ([]*cond, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, d.errorf(v, "switch of step %q must be a list of conditions", name)
	}
	var out []*cond
	for _, item := range v.Content {
		item, err := d.deref(item)
		if err != nil {
			return nil, err
		}
		if item.Kind != yaml.MappingNode {
			return nil, d.errorf(item, "a switch entry must be a mapping with condition:")
		}
		c := &cond{}
		rest := &yaml.Node{Kind: yaml.MappingNode, Line: item.Line, Column: item.Column}
		keys, vals, err := d.pairs(item)
		if err != nil {
			return nil, err
		}
		var condNode *yaml.Node
		for i, k := range keys {
			if k.Value == "condition" {
				condNode = vals[i]
				continue
			}
			rest.Content = append(rest.Content, k, vals[i])
		}
		if condNode == nil {
			return nil, d.errorf(item, "switch entry of step %q has no condition:", name)
		}
		if c.expr, err = d.tree(condNode); err != nil {
			return nil, err
		}
		if condNode.Kind == yaml.ScalarNode {
			if condNode.Tag == "!!bool" && strings.EqualFold(condNode.Value, "true") {
				c.always = true
			} else if x, _, _ := d.expr(condNode); x != nil {
				if l, ok := x.(litExpr); ok && l.val == boolVal(true) {
					c.always = true
				}
			}
		}
		if len(rest.Content) > 0 {
			if c.body, err = d.body(name, item, rest, depth+1); err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// loop reads a for block.
func (d *decoder) loop(name string, v *yaml.Node, depth int) (*loopSpec, error) {
	if v.Kind != yaml.MappingNode {
		return nil, d.errorf(v, "for of step %q must be a mapping with value, in or range, and steps", name)
	}
	l := &loopSpec{}
	keys, vals, err := d.pairs(v)
	if err != nil {
		return nil, err
	}
	hasSteps, hasIn := false, false
	for i, k := range keys {
		switch k.Value {
		case "value":
			if l.value, err = d.scalarString(vals[i], "for value"); err != nil {
				return nil, err
			}
		case "index":
			if l.index, err = d.scalarString(vals[i], "for index"); err != nil {
				return nil, err
			}
		case "in", "range":
			hasIn = true
			if l.in, err = d.tree(vals[i]); err != nil {
				return nil, err
			}
		case "steps":
			hasSteps = true
			if l.body, err = d.steps(vals[i], depth+1); err != nil {
				return nil, err
			}
		default:
			return nil, d.errorf(k, "unknown key %q in for of step %q: expected value, index, in, range, steps", k.Value, name)
		}
	}
	if !hasSteps || !hasIn {
		return nil, d.errorf(v, "for of step %q needs in: (or range:) and steps:", name)
	}
	return l, nil
}

// parallel reads a parallel block: branches or a parallel for.
func (d *decoder) parallel(s *step, v *yaml.Node, depth int) error {
	if v.Kind != yaml.MappingNode {
		return d.errorf(v, "parallel of step %q must be a mapping with branches or for", s.name)
	}
	keys, vals, err := d.pairs(v)
	if err != nil {
		return err
	}
	found := false
	for i, k := range keys {
		switch k.Value {
		case "shared", "concurrency_limit", "exception_policy":
		case "branches":
			found = true
			branches, err := d.steps(vals[i], depth+1)
			if err != nil {
				return err
			}
			for _, b := range branches {
				s.parallel = append(s.parallel, []*step{b})
			}
		case "for":
			found = true
			if s.ploop, err = d.loop(s.name, vals[i], depth+1); err != nil {
				return err
			}
		default:
			return d.errorf(k, "unknown key %q in parallel of step %q", k.Value, s.name)
		}
	}
	if !found {
		return d.errorf(v, "parallel of step %q needs branches: or for:", s.name)
	}
	return nil
}

// tryBlock reads try/retry/except.
func (d *decoder) tryBlock(name string, at, tryNode, retryNode, exceptNode *yaml.Node, depth int) (*tryBlock, error) {
	t := &tryBlock{}
	if tryNode.Kind != yaml.MappingNode {
		return nil, d.errorf(tryNode, "try of step %q must be a mapping (a call or steps:)", name)
	}
	body, err := d.body(name, at, tryNode, depth+1)
	if err != nil {
		return nil, err
	}
	t.body = []*step{body}
	if retryNode != nil {
		if t.retry, err = d.retryPolicy(retryNode); err != nil {
			return nil, err
		}
	}
	if exceptNode != nil {
		t.hasExcept = true
		if exceptNode.Kind != yaml.MappingNode {
			return nil, d.errorf(exceptNode, "except of step %q must be a mapping with as: and steps:", name)
		}
		keys, vals, err := d.pairs(exceptNode)
		if err != nil {
			return nil, err
		}
		for i, k := range keys {
			switch k.Value {
			case "as":
				if t.as, err = d.scalarString(vals[i], "except as"); err != nil {
					return nil, err
				}
			case "steps":
				if t.except, err = d.steps(vals[i], depth+1); err != nil {
					return nil, err
				}
			default:
				return nil, d.errorf(k, "unknown key %q in except of step %q: expected as, steps", k.Value, name)
			}
		}
	}
	return t, nil
}
