package terraform

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Value is an argument's value as far as it is known statically.
type Value struct {
	Path    string // the path asked for, e.g. "template.template.max_retries"
	Pos     Pos    // the argument's name, or the object key that holds the value
	ExprPos Pos    // the start of the value's expression
	// Known: the value does not depend on anything unknown.
	Known bool
	// Pattern is the value as text: a string with Wildcard for each unknown part, a number or
	// bool in Terraform's notation, Wildcard for an unknown value with no string form, "" for a
	// known collection or null.
	Pattern string
	// Refs are the addresses of the resources the expression refers to, directly or through
	// locals, variables and module outputs, sorted.
	Refs []string
	// Expr is the value's expression as written, on one line and cut at maxExprText bytes
	// ("each.value.push_endpoint"), when the value is not known.
	Expr string

	val cty.Value
}

// Cty returns the evaluated value (unknown when not Known).
func (v *Value) Cty() cty.Value { return v.val }

// IsNull reports whether the value is known to be null (as good as absent).
func (v *Value) IsNull() bool { return v.Known && v.val.IsNull() }

// Len is the number a known count gives, or the length of a known
// for_each collection; ok is false when the value is not known.
func (v *Value) Len() (n int, ok bool) {
	if !v.Known || v.val.IsNull() || !v.val.IsWhollyKnown() {
		return 0, false
	}
	t := v.val.Type()
	switch {
	case t == cty.Number:
		f, _ := v.val.AsBigFloat().Float64()
		return int(f), true
	case t.IsMapType() || t.IsObjectType() || t.IsSetType() || t.IsListType() || t.IsTupleType():
		return v.val.LengthInt(), true
	}
	return 0, false
}

// String returns a known string, or a known number or bool as text.
func (v *Value) String() (string, bool) {
	if !v.Known || v.val.IsNull() {
		return "", false
	}
	if v.val.Type() == cty.Number {
		return numberText(v.val.AsBigFloat()), true
	}
	s, err := convert.Convert(v.val, cty.String)
	if err != nil || !s.IsKnown() || s.IsNull() {
		return "", false
	}
	return s.AsString(), true
}

// Float returns a known number, or a string that holds one.
func (v *Value) Float() (float64, bool) {
	if !v.Known || v.val.IsNull() {
		return 0, false
	}
	n, err := convert.Convert(v.val, cty.Number)
	if err != nil || !n.IsKnown() || n.IsNull() {
		return 0, false
	}
	f, _ := n.AsBigFloat().Float64()
	return f, true
}

// Int returns a known integer, or a string that holds one.
func (v *Value) Int() (int64, bool) {
	if !v.Known || v.val.IsNull() {
		return 0, false
	}
	n, err := convert.Convert(v.val, cty.Number)
	if err != nil || !n.IsKnown() || n.IsNull() {
		return 0, false
	}
	bf := n.AsBigFloat()
	if !bf.IsInt() {
		return 0, false
	}
	i, acc := bf.Int64()
	return i, acc == big.Exact
}

// Bool returns a known bool, or a string "true"/"false".
func (v *Value) Bool() (bool, bool) {
	if !v.Known || v.val.IsNull() {
		return false, false
	}
	b, err := convert.Convert(v.val, cty.Bool)
	if err != nil || !b.IsKnown() || b.IsNull() {
		return false, false
	}
	return b.True(), true
}

// Strings returns a known list, set or tuple of strings.
func (v *Value) Strings() ([]string, bool) {
	if !v.Known || v.val.IsNull() {
		return nil, false
	}
	ty := v.val.Type()
	if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
		return nil, false
	}
	var out []string
	for it := v.val.ElementIterator(); it.Next(); {
		_, e := it.Element()
		s, err := convert.Convert(e, cty.String)
		if err != nil || s.IsNull() {
			return nil, false
		}
		out = append(out, s.AsString())
	}
	return out, true
}

// Seconds reads a duration: a number of seconds, or a string such as "600s", "3.5s" or "10m".
func (v *Value) Seconds() (float64, bool) {
	if !v.Known || v.val.IsNull() {
		return 0, false
	}
	if v.val.Type() == cty.Number {
		return v.Float()
	}
	s, ok := v.String()
	if !ok {
		return 0, false
	}
	return ParseSeconds(s)
}

// ParseSeconds reads a duration written as Google APIs and Terraform write them: "600s",
// "3.5s", a bare number of seconds, or a Go duration such as "1h30m".
func ParseSeconds(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(strings.TrimSuffix(s, "s"), 64); err == nil && f >= 0 {
		return f, true
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return d.Seconds(), true
	}
	return 0, false
}

// value evaluates the attribute a, descending into object constructors and then into the value
// along rest; nil when the path names nothing.
func (m *module) value(path string, a *hclsyntax.Attribute, rest []string) *Value {
	at := a.NameRange
	var expr hclsyntax.Expression = a.Expr
	for len(rest) > 0 {
		obj, ok := expr.(*hclsyntax.ObjectConsExpr)
		if !ok {
			break
		}
		item := objectItem(m, obj, rest[0])
		if item == nil {
			return nil
		}
		at, expr, rest = item.KeyExpr.Range(), item.ValueExpr, rest[1:]
	}
	real, refs := m.eval(expr, modeReal)
	real, found := index(real, rest)
	if !found {
		return nil
	}
	v := &Value{Path: path, Pos: rangePos(at), ExprPos: rangePos(expr.Range()), val: real, Refs: refs}
	if real.IsWhollyKnown() {
		v.Known = true
		v.Pattern = knownText(real)
		return v
	}
	pv, prefs := m.eval(expr, modePattern)
	pv, _ = index(pv, rest)
	v.Pattern = patternText(pv)
	v.Expr = m.exprText(expr.Range())
	v.Refs = uniq(append(v.Refs, prefs...))
	return v
}

// objectItem finds the item of an object constructor whose key is name.
func objectItem(m *module, obj *hclsyntax.ObjectConsExpr, name string) *hclsyntax.ObjectConsItem {
	for i := range obj.Items {
		item := &obj.Items[i]
		if keyName(m, item.KeyExpr) == name {
			return item
		}
	}
	return nil
}

func keyName(m *module, e hclsyntax.Expression) string {
	if k, ok := e.(*hclsyntax.ObjectConsKeyExpr); ok {
		if !k.ForceNonLiteral {
			if kw := hcl.ExprAsKeyword(k.Wrapped); kw != "" {
				return kw
			}
		}
		e = k.Wrapped
	}
	v, _ := m.eval(e, modeReal)
	if v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
		return v.AsString()
	}
	return ""
}

// index descends into v along path; found is false when a known value lacks a step.
func index(v cty.Value, path []string) (out cty.Value, found bool) {
	defer func() {
		if recover() != nil {
			out, found = cty.DynamicVal, true
		}
	}()
	for _, step := range path {
		if !v.IsKnown() {
			return cty.DynamicVal, true
		}
		if v.IsNull() {
			return v, false
		}
		ty := v.Type()
		switch {
		case ty.IsObjectType() && ty.HasAttribute(step):
			v = v.GetAttr(step)
		case ty.IsMapType():
			k := cty.StringVal(step)
			if !v.HasIndex(k).True() {
				return v, false
			}
			v = v.Index(k)
		default:
			return v, false
		}
	}
	return v, true
}

// knownText renders a known value's text.
func knownText(v cty.Value) string {
	if v.IsNull() {
		return ""
	}
	switch v.Type() {
	case cty.String:
		return v.AsString()
	case cty.Number:
		return numberText(v.AsBigFloat())
	case cty.Bool:
		if v.True() {
			return "true"
		}
		return "false"
	}
	return ""
}

// numberText writes a number as Terraform does, in positional notation, unless that would take
// more than a few hundred digits (1e9999999): then approximately, with a decimal exponent, as
// the exact conversion of such a number to decimal takes long.
func numberText(f *big.Float) string {
	mant := new(big.Float)
	e := f.MantExp(mant)
	if e <= 1024 && e >= -1024 {
		return f.Text('f', -1)
	}
	m, _ := mant.Float64() // 0.5 <= |m| < 1
	l := float64(e)*math.Log10(2) + math.Log10(math.Abs(m))
	d := math.Floor(l)
	return strconv.FormatFloat(math.Copysign(math.Pow(10, l-d), m), 'g', 15, 64) + "e" + strconv.Itoa(int(d))
}

// patternText renders a value evaluated in modePattern: a string whose unknown parts are
// Wildcard, or Wildcard alone when the result does not show which parts were unknown.
func patternText(v cty.Value) string {
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return Wildcard
	}
	s := v.AsString()
	if !strings.Contains(s, unknownMark) {
		return Wildcard // the result depends on an unknown in some other way than by containing it
	}
	s = strings.ReplaceAll(s, unknownMark, Wildcard)
	for strings.Contains(s, Wildcard+Wildcard) {
		s = strings.ReplaceAll(s, Wildcard+Wildcard, Wildcard)
	}
	return s
}

// maxExprText caps the expression text a Value keeps.
const maxExprText = 120

// exprText is the source text of r on one line: runs of white space are
// one space, and a longer text is cut with "…".
func (m *module) exprText(r hcl.Range) string {
	f := m.st.files[r.Filename]
	if f == nil || r.Start.Byte < 0 || r.End.Byte > len(f.data) || r.Start.Byte >= r.End.Byte {
		return ""
	}
	text := strings.Join(strings.Fields(string(f.data[r.Start.Byte:r.End.Byte])), " ")
	if len(text) > maxExprText {
		cut := maxExprText
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "…"
	}
	return text
}
