package terraform

import (
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// instance is one instance of a resource with count or for_each known statically.
type instance struct {
	key  string    // as in the address: ["name"] or [0]
	name string    // the key itself: name, or 0
	each cty.Value // the object {key, value} that each stands for; NilVal under count
	// count is the object {index} that count stands for; NilVal under for_each.
	count cty.Value
}

// instancesOf lists the instances of d when its count or for_each is known statically and
// gives at least one; nil otherwise (the resource is then listed once, its instances
// unknown). Terraform's for_each takes a map, an object or a set of strings; count a whole
// number.
func (st *state) instancesOf(m *module, d *resourceDecl) []*instance {
	if !d.instancesRead {
		d.instancesRead = true
		d.instances = st.readInstances(m, d)
	}
	return d.instances
}

// instanceOf is the instance of d whose for_each key is key, or nil.
func (st *state) instanceOf(m *module, d *resourceDecl, key string) *instance {
	want := "[" + strconv.Quote(key) + "]"
	for _, in := range st.instancesOf(m, d) {
		if in.key == want {
			return in
		}
	}
	return nil
}

func (st *state) readInstances(m *module, d *resourceDecl) []*instance {
	if a := d.block.Body.Attributes["for_each"]; a != nil {
		return st.forEachInstances(m, d, a.Expr)
	}
	if a := d.block.Body.Attributes["count"]; a != nil {
		v, _ := m.eval(a.Expr, modeReal)
		n, ok := (&Value{Known: v.IsWhollyKnown(), val: v}).Int()
		if !ok || n <= 0 || !st.allow(m, d, int(min(n, maxInstances+1)), a.Expr.Range()) {
			return nil
		}
		var out []*instance
		for i := range int(n) {
			out = append(out, &instance{key: "[" + strconv.Itoa(i) + "]", name: strconv.Itoa(i),
				count: cty.ObjectVal(map[string]cty.Value{"index": cty.NumberIntVal(int64(i))})})
		}
		return out
	}
	return nil
}

func (st *state) forEachInstances(m *module, d *resourceDecl, expr hcl.Expression) []*instance {
	v, _ := m.eval(expr, modeReal)
	if !v.IsWhollyKnown() || v.IsNull() {
		return nil
	}
	ty := v.Type()
	set := ty.IsSetType() && ty.ElementType() == cty.String
	if !set && !ty.IsMapType() && !ty.IsObjectType() || v.LengthInt() == 0 || !st.allow(m, d, v.LengthInt(), expr.Range()) {
		return nil
	}
	var out []*instance
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if set {
			k = e
		}
		out = append(out, &instance{key: "[" + strconv.Quote(k.AsString()) + "]", name: k.AsString(),
			each: cty.ObjectVal(map[string]cty.Value{"key": k, "value": e})})
	}
	return out
}

// allow counts n instances against maxInstances; past it the resource is noted and read once.
func (st *state) allow(m *module, d *resourceDecl, n int, at hcl.Range) bool {
	if st.budget.resourceInstances+n > maxInstances {
		m.note(at, "%s%s.%s: more than %d resource instances in this configuration; read once, its instances not known", m.prefix(), d.typ, d.name, maxInstances)
		return false
	}
	st.budget.resourceInstances += n
	return true
}

// within is m as seen from inside one instance of a resource: each and count stand for the
// instance's; everything else (locals, memo, children) is m's.
func (m *module) within(in *instance) *module {
	im := *m
	im.inst = in
	return &im
}

// instanceRoot resolves each and count inside an instance; ok is false outside one, or for
// the root the instance does not have.
func (m *module) instanceRoot(name string) (cty.Value, bool) {
	switch {
	case m.inst == nil:
	case name == "each" && m.inst.each != cty.NilVal:
		return m.inst.each, true
	case name == "count" && m.inst.count != cty.NilVal:
		return m.inst.count, true
	}
	return cty.NilVal, false
}
