package terraform

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// mode selects how unknown values are represented during one evaluation.
//
// In modeReal an unknown is a cty unknown, so every result that depends on it is unknown and no
// known value is ever invented. In modePattern an unknown leaf is the string unknownMark, so a
// string built from known and unknown parts keeps its known parts; such a result is only used as
// a pattern, never as a value.
type mode int

const (
	modeReal mode = iota
	modePattern
)

// unknownMark stands for an unknown string in modePattern; it is a private-use code point that
// configuration files do not hold.
const unknownMark = "\U000F0001"

// maxEvalDepth bounds how many locals, variables and resource arguments one evaluation follows.
const maxEvalDepth = 200

type memoKey struct {
	kind byte // 'v' variable, 'l' local, 'r' resource argument, 'o' output
	name string
	mode mode
}

type evalResult struct {
	v    cty.Value
	refs []string
	size int64 // the weight of v (see sizeOf), up to just past maxValueSize
}

// scope resolves the root names of an expression (var, local, a resource type…).
type scope interface {
	root(name string, ts []hcl.Traversal, md mode) (cty.Value, []string)
	functions(md mode) map[string]function.Function
	state() *state
	// mod is the module the expression is written in.
	mod() *module
	// size is the weight of what t refers to when it is kept with its evaluated value (a
	// local, a variable, an output, an argument: see memoized).
	size(t hcl.Traversal, md mode) (int64, bool)
}

// unknownLeaf is the value of something unknown in md.
func unknownLeaf(md mode) cty.Value {
	if md == modePattern {
		return cty.StringVal(unknownMark)
	}
	return cty.DynamicVal
}

// unknownString is an unknown string result of a function in md.
func unknownString(md mode) cty.Value {
	if md == modePattern {
		return cty.StringVal(unknownMark)
	}
	return cty.UnknownVal(cty.String)
}

// evaluate evaluates expr in sc. An expression that cannot be evaluated (an unknown function, a
// type error, a missing attribute) is unknown; it never panics. An expression whose value or
// work would pass the caps (see weigh) is not evaluated: the read's error says where, and
// every evaluation after it is unknown.
func evaluate(sc scope, expr hcl.Expression, md mode) (v cty.Value, refs []string) {
	if expr == nil {
		return cty.NullVal(cty.DynamicPseudoType), nil
	}
	st := sc.state()
	if st.depth >= maxEvalDepth || st.err != nil {
		return cty.DynamicVal, nil
	}
	st.depth++
	defer func() {
		st.depth--
		if r := recover(); r != nil {
			v, refs = cty.DynamicVal, nil
		}
	}()
	ctx, refs := context(sc, expr, md)
	if se, ok := expr.(hclsyntax.Expression); ok {
		wt, at := (&weigher{sc: sc, md: md}).weigh(se, ctx)
		st.budget.work = add(st.budget.work, wt.work)
		if st.err == nil && (wt.over() || st.budget.work > maxEvalWork) {
			st.err = budgetError(wt, at)
		}
		if st.err != nil {
			return cty.DynamicVal, refs
		}
	}
	v, diags := expr.Value(ctx)
	if diags.HasErrors() {
		v = cty.DynamicVal
	}
	return v, refs
}

// context is the evaluation context of expr in sc: its root names resolved, and the
// references they make.
func context(sc scope, expr hcl.Expression, md mode) (*hcl.EvalContext, []string) {
	groups := map[string][]hcl.Traversal{}
	var names []string
	for _, t := range expr.Variables() {
		n := t.RootName()
		if _, ok := groups[n]; !ok {
			names = append(names, n)
		}
		groups[n] = append(groups[n], t)
	}
	vars := make(map[string]cty.Value, len(names))
	var refs []string
	for _, n := range names {
		val, r := sc.root(n, groups[n], md)
		vars[n] = val
		refs = append(refs, r...)
	}
	if len(names) > 0 {
		refs = append(refs, instanceRefs(sc, expr, md)...)
	}
	return &hcl.EvalContext{Variables: vars, Functions: sc.functions(md)}, uniq(refs)
}

func uniq(ss []string) []string {
	if len(ss) < 2 {
		return ss
	}
	sort.Strings(ss)
	out := ss[:1]
	for _, s := range ss[1:] {
		if s != out[len(out)-1] {
			out = append(out, s)
		}
	}
	return out
}

// tree builds the object a root name stands for from the traversals that use it.
type tree struct {
	kids map[string]*tree
	leaf *cty.Value
	dyn  bool // the whole node is unknown
}

func (t *tree) at(name string) *tree {
	if t.kids == nil {
		t.kids = map[string]*tree{}
	}
	k := t.kids[name]
	if k == nil {
		k = &tree{}
		t.kids[name] = k
	}
	return k
}

func (t *tree) value() cty.Value {
	switch {
	case t.leaf != nil:
		return *t.leaf
	case t.dyn || len(t.kids) == 0:
		return cty.DynamicVal
	}
	attrs := make(map[string]cty.Value, len(t.kids))
	for k, kid := range t.kids {
		attrs[k] = kid.value()
	}
	return cty.ObjectVal(attrs)
}

// unknownChain inserts an unknown leaf at the end of the attribute steps of rest.
func (t *tree) unknownChain(rest hcl.Traversal, md mode) {
	n := t
	for _, step := range rest {
		a, ok := step.(hcl.TraverseAttr)
		if !ok {
			n.dyn = true
			return
		}
		if n.leaf != nil {
			return
		}
		n = n.at(a.Name)
	}
	if n.leaf == nil && len(n.kids) == 0 {
		leaf := unknownLeaf(md)
		n.leaf = &leaf
	}
}

// attrStep returns the name of step i of t when it is an attribute access.
func attrStep(t hcl.Traversal, i int) (string, bool) {
	if i >= len(t) {
		return "", false
	}
	switch s := t[i].(type) {
	case hcl.TraverseAttr:
		return s.Name, true
	case hcl.TraverseIndex:
		// var["x"] is the same as var.x.
		if s.Key.IsKnown() && !s.Key.IsNull() && s.Key.Type() == cty.String {
			return s.Key.AsString(), true
		}
	}
	return "", false
}

// unknownRoot is a root whose every attribute path is unknown (data sources, each, count…).
func unknownRoot(ts []hcl.Traversal, md mode) cty.Value {
	if md == modeReal {
		return cty.DynamicVal
	}
	root := &tree{}
	for _, t := range ts {
		root.unknownChain(t[1:], md)
	}
	return root.value()
}

// named resolves var.X and local.X style roots with get.
func named(ts []hcl.Traversal, get func(string) (cty.Value, []string)) (cty.Value, []string) {
	root := &tree{}
	var refs []string
	for _, t := range ts {
		name, ok := attrStep(t, 1)
		if !ok {
			return cty.DynamicVal, nil
		}
		n := root.at(name)
		if n.leaf != nil {
			continue
		}
		v, r := get(name)
		n.leaf = &v
		refs = append(refs, r...)
	}
	return root.value(), refs
}

func (m *module) state() *state { return m.st }

func (m *module) eval(expr hcl.Expression, md mode) (cty.Value, []string) {
	return evaluate(m, expr, md)
}

// root resolves one root name in a module.
func (m *module) root(name string, ts []hcl.Traversal, md mode) (cty.Value, []string) {
	switch name {
	case "var":
		return named(ts, func(n string) (cty.Value, []string) { return m.variable(n, md) })
	case "local":
		return named(ts, func(n string) (cty.Value, []string) { return m.local(n, md) })
	case "module":
		return m.moduleRoot(ts, md)
	case "path":
		dir, root := m.dir, m.st.rootDir
		if dir == "" {
			dir, root = ".", "."
		}
		return cty.ObjectVal(map[string]cty.Value{"module": cty.StringVal(dir),
			"root": cty.StringVal(root), "cwd": cty.StringVal(root)}), nil
	case "count", "each":
		if v, ok := m.instanceRoot(name); ok {
			return v, nil
		}
		return unknownRoot(ts, md), nil
	case "data", "self", "terraform", "resource", "ephemeral", "provider":
		return unknownRoot(ts, md), nil
	}
	return m.resourceRoot(name, ts, md)
}

// memoized evaluates f once per key, and returns unknown on a cycle.
func (m *module) memoized(k memoKey, f func() (cty.Value, []string)) (cty.Value, []string) {
	if r, ok := m.memo[k]; ok {
		return r.v, r.refs
	}
	if m.busy[k] {
		return unknownLeaf(k.mode), nil
	}
	m.busy[k] = true
	v, refs := f()
	delete(m.busy, k)
	size := sizeOf(v, maxValueSize)
	m.st.budget.work = add(m.st.budget.work, size) // weighing it walked it
	m.memo[k] = evalResult{v: v, refs: refs, size: size}
	return v, refs
}

func (m *module) mod() *module { return m }

// size is the weight of what t refers to when that is kept in the memo: var.X, local.X,
// module.M.OUTPUT and TYPE.NAME.ARGUMENT, evaluated in md.
func (m *module) size(t hcl.Traversal, md mode) (int64, bool) {
	name, ok := attrStep(t, 1)
	if !ok {
		return 0, false
	}
	second, two := attrStep(t, 2)
	var owner *module
	var k memoKey
	switch root := t.RootName(); {
	case root == "var" && len(t) == 2:
		owner, k = m, memoKey{'v', name, md}
	case root == "local" && len(t) == 2:
		owner, k = m, memoKey{'l', name, md}
	case root == "module" && two && len(t) == 3:
		owner, k = m.children[name], memoKey{'o', second, md}
	case two && len(t) == 3:
		owner, k = m, memoKey{'r', root + "." + name + "." + second, md}
	}
	if owner == nil {
		return 0, false
	}
	r, ok := owner.memo[k]
	return r.size, ok
}

// variable is an input variable's value: the calling module's input, else the default, else
// unknown.
func (m *module) variable(name string, md mode) (cty.Value, []string) {
	return m.memoized(memoKey{'v', name, md}, func() (cty.Value, []string) {
		v := m.vars[name]
		switch {
		case v == nil:
			return unknownLeaf(md), nil
		case v.input != nil:
			return v.input.mod.eval(v.input.expr, md)
		case v.def != nil:
			return m.eval(v.def, md)
		}
		return unknownLeaf(md), nil
	})
}

func (m *module) local(name string, md mode) (cty.Value, []string) {
	return m.memoized(memoKey{'l', name, md}, func() (cty.Value, []string) {
		a := m.locals[name]
		if a == nil {
			return unknownLeaf(md), nil
		}
		return m.eval(a.Expr, md)
	})
}

// moduleRoot resolves module.NAME.OUTPUT from the followed child modules.
func (m *module) moduleRoot(ts []hcl.Traversal, md mode) (cty.Value, []string) {
	root := &tree{}
	var refs []string
	for _, t := range ts {
		name, ok := attrStep(t, 1)
		if !ok {
			return cty.DynamicVal, nil
		}
		child := m.children[name]
		node := root.at(name)
		out, ok := attrStep(t, 2)
		if !ok {
			node.dyn = true
			continue
		}
		leaf := node.at(out)
		if leaf.leaf != nil {
			continue
		}
		if child == nil || child.outputs[out] == nil {
			leaf.unknownChain(t[3:], md)
			continue
		}
		v, r := child.memoized(memoKey{'o', out, md}, func() (cty.Value, []string) {
			return child.eval(child.outputs[out].Expr, md)
		})
		leaf.leaf = &v
		refs = append(refs, r...)
	}
	return root.value(), refs
}

// resourceRoot resolves TYPE.NAME.ATTR: a written argument is evaluated, anything else (computed
// attributes, nested blocks, repeated resources) is unknown. Each declared resource named is a
// reference.
func (m *module) resourceRoot(typ string, ts []hcl.Traversal, md mode) (cty.Value, []string) {
	root := &tree{}
	var refs []string
	for _, t := range ts {
		name, ok := attrStep(t, 1)
		if !ok {
			return unknownRoot(ts, md), refs
		}
		key := typ + "." + name
		d := m.resources[key]
		if d != nil {
			refs = append(refs, m.prefix()+key)
		}
		node := root.at(name)
		attr, ok := attrStep(t, 2)
		switch {
		case d != nil && d.repeated && ok && m.st.instanceOf(m, d, attr) != nil:
			// TYPE.NAME["key"].ARG of an instance known statically.
			in := m.st.instanceOf(m, d, attr)
			refs = append(refs, m.prefix()+key+in.key)
			m.within(in).instanceArg(node.at(attr), d, key+in.key, t[3:], md)
			continue
		case d != nil && d.repeated && len(t) == 2 && m.st.instancesOf(m, d) != nil:
			// TYPE.NAME[expr]: the instances by key, the key evaluated by the index.
			if node.leaf == nil && len(node.kids) == 0 {
				v := m.instancesValue(d, key, md)
				node.leaf = &v
			}
			continue
		case d != nil && d.repeated, !ok:
			node.dyn = true
			continue
		case d == nil || d.block.Body.Attributes[attr] == nil:
			leaf := node.at(attr)
			if v, ok := m.computed(d, key, attr, md); ok && len(t) == 3 && leaf.leaf == nil && len(leaf.kids) == 0 {
				leaf.leaf = &v
				continue
			}
			leaf.unknownChain(t[3:], md)
			continue
		}
		leaf := node.at(attr)
		if leaf.leaf != nil {
			continue
		}
		v, _ := m.memoized(memoKey{'r', key + "." + attr, md}, func() (cty.Value, []string) {
			return m.eval(d.block.Body.Attributes[attr].Expr, md)
		})
		leaf.leaf = &v
	}
	return root.value(), refs
}

// instanceArg resolves ARG… of one instance of d (m is inside it) into n.
func (m *module) instanceArg(n *tree, d *resourceDecl, addr string, rest hcl.Traversal, md mode) {
	arg, ok := attrStep(rest, 0)
	if !ok {
		n.dyn = true
		return
	}
	leaf := n.at(arg)
	if leaf.leaf != nil || len(leaf.kids) > 0 {
		return
	}
	a := d.block.Body.Attributes[arg]
	if a == nil {
		if v, ok := m.computed(d, addr, arg, md); ok && len(rest) == 1 {
			leaf.leaf = &v
			return
		}
		leaf.unknownChain(rest[1:], md)
		return
	}
	v, _ := m.memoized(memoKey{'r', addr + "." + arg, md}, func() (cty.Value, []string) {
		return m.eval(a.Expr, md)
	})
	leaf.leaf = &v
}

// instancesValue is TYPE.NAME of a resource with instances known statically: an object of
// the instances by key, each the object of its written arguments and, in modePattern, the
// shapes of what the provider computes.
func (m *module) instancesValue(d *resourceDecl, addr string, md mode) cty.Value {
	insts := map[string]cty.Value{}
	for _, in := range m.st.instancesOf(m, d) {
		im, args := m.within(in), map[string]cty.Value{}
		for name, a := range d.block.Body.Attributes {
			switch name {
			case "for_each", "count", "depends_on", "provider", "lifecycle":
				continue
			}
			args[name], _ = im.memoized(memoKey{'r', addr + in.key + "." + name, md}, func() (cty.Value, []string) {
				return im.eval(a.Expr, md)
			})
		}
		for name := range computedFormats[d.typ] {
			if _, written := args[name]; !written {
				if v, ok := im.computed(d, addr+in.key, name, md); ok {
					args[name] = v
				}
			}
		}
		insts[in.name] = cty.ObjectVal(args)
	}
	return cty.ObjectVal(insts)
}

// instanceRefs are the instances that TYPE.NAME[key] in expr names, with key known in sc.
func instanceRefs(sc scope, expr hcl.Expression, md mode) []string {
	m := sc.mod()
	var refs []string
	hclsyntax.VisitAll(asSyntax(expr), func(n hclsyntax.Node) hcl.Diagnostics {
		ie, ok := n.(*hclsyntax.IndexExpr)
		if !ok {
			return nil
		}
		col, ok := ie.Collection.(*hclsyntax.ScopeTraversalExpr)
		if !ok || len(col.Traversal) != 2 {
			return nil
		}
		name, ok := attrStep(col.Traversal, 1)
		d := m.resources[col.Traversal.RootName()+"."+name]
		if !ok || d == nil || !d.repeated || m.st.instancesOf(m, d) == nil {
			return nil
		}
		k, _ := evaluate(sc, ie.Key, modeReal)
		if key, ok := knownString(k); ok {
			if in := m.st.instanceOf(m, d, key); in != nil {
				refs = append(refs, m.prefix()+col.Traversal.RootName()+"."+name+in.key)
			}
		}
		return nil
	})
	return refs
}

// asSyntax is expr as a native syntax node, or an empty literal.
func asSyntax(expr hcl.Expression) hclsyntax.Node {
	if n, ok := expr.(hclsyntax.Node); ok {
		return n
	}
	return &hclsyntax.LiteralValueExpr{}
}

// computedFormats are the shapes of the attributes the provider computes for the reported
// types, from their written arguments; a missing argument is unknown.
var computedFormats = map[string]map[string]string{
	"google_cloud_run_v2_job":         {"id": "projects/{project}/locations/{location}/jobs/{name}"},
	"google_cloud_run_v2_service":     {"id": "projects/{project}/locations/{location}/services/{name}", "uri": "https://{name}-{}.a.run.app"},
	"google_cloud_run_service":        {"id": "locations/{location}/namespaces/{project}/services/{name}"},
	"google_workflows_workflow":       {"id": "projects/{project}/locations/{region}/workflows/{name}"},
	"google_eventarc_trigger":         {"id": "projects/{project}/locations/{location}/triggers/{name}"},
	"google_pubsub_topic":             {"id": "projects/{project}/topics/{name}"},
	"google_pubsub_subscription":      {"id": "projects/{project}/subscriptions/{name}"},
	"google_cloud_tasks_queue":        {"id": "projects/{project}/locations/{location}/queues/{name}"},
	"google_cloud_scheduler_job":      {"id": "projects/{project}/locations/{region}/jobs/{name}"},
	"google_cloudfunctions2_function": {"id": "projects/{project}/locations/{location}/functions/{name}", "url": "https://{location}-{project}.cloudfunctions.net/{name}"},
	"google_cloudfunctions_function":  {"id": "projects/{project}/locations/{region}/functions/{name}", "https_trigger_url": "https://{region}-{project}.cloudfunctions.net/{name}"},
}

// computed gives, in modePattern only, the pattern of an attribute the provider computes (id,
// uri…), built from the resource's written arguments, so that a reference to it still names
// the resource: "projects/*/locations/us-central1/jobs/nightly".
//
// addr is the resource's address in the module, with an instance's key when m is inside that
// instance; a resource that may stand for several has no pattern outside an instance.
func (m *module) computed(d *resourceDecl, addr, attr string, md mode) (cty.Value, bool) {
	if md != modePattern || d == nil || d.repeated && m.inst == nil {
		return cty.NilVal, false
	}
	f, ok := computedFormats[d.typ][attr]
	if !ok {
		return cty.NilVal, false
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(f, '{')
		if i < 0 {
			b.WriteString(f)
			break
		}
		j := strings.IndexByte(f[i:], '}') + i
		b.WriteString(f[:i])
		part := unknownMark
		if name := f[i+1 : j]; name != "" && d.block.Body.Attributes[name] != nil {
			v, _ := m.memoized(memoKey{'r', addr + "." + name, md}, func() (cty.Value, []string) {
				return m.eval(d.block.Body.Attributes[name].Expr, md)
			})
			if v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
				part = v.AsString()
			}
		}
		b.WriteString(part)
		f = f[j+1:]
	}
	return cty.StringVal(b.String()), true
}

func (m *module) functions(md mode) map[string]function.Function {
	if m.fns[md] == nil {
		fns := baseFunctions()
		fns["file"] = m.fileFunc(md)
		fns["templatefile"] = m.templateFileFunc(md)
		m.fns[md] = fns
	}
	return m.fns[md]
}

// templateScope evaluates a template file: its names are the variables templatefile passes.
type templateScope struct {
	module *module
	vars   [2]cty.Value // by mode
}

func (s *templateScope) state() *state { return s.module.st }

func (s *templateScope) mod() *module { return s.module }

func (s *templateScope) size(hcl.Traversal, mode) (int64, bool) { return 0, false }

func (s *templateScope) root(name string, _ []hcl.Traversal, md mode) (cty.Value, []string) {
	v := s.vars[md]
	if !v.IsKnown() || v.IsNull() {
		return unknownLeaf(md), nil
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType() && ty.HasAttribute(name):
		return v.GetAttr(name), nil
	case ty.IsMapType():
		if k := cty.StringVal(name); v.HasIndex(k).True() {
			return v.Index(k), nil
		}
	}
	return unknownLeaf(md), nil
}

func (s *templateScope) functions(md mode) map[string]function.Function {
	fns := map[string]function.Function{}
	for k, f := range s.module.functions(md) {
		if k != "templatefile" { // Terraform forbids templatefile inside a template
			fns[k] = f
		}
	}
	return fns
}

// asString converts a template result to a string value for md.
func asString(v cty.Value, md mode) cty.Value {
	if !v.IsWhollyKnown() || v.IsNull() {
		return unknownString(md)
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return unknownString(md)
	}
	return s
}
