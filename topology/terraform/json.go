package terraform

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
)

// Terraform's JSON syntax (https://developer.hashicorp.com/terraform/language/syntax/json) is
// read by turning a parsed .tf.json file into the hclsyntax body a .tf file with the same content
// gives, so that everything else reads both alike:
//
//   - a string in an expression is a template ("${var.x}"), parsed where the string is written;
//     a variable's default is taken literally, as Terraform takes it;
//   - a "//" key of an object that stands for a block, or for the labels of blocks, is a comment;
//   - without the provider's schema, an object in a resource body may be a nested block
//     (template, retry_config) or a map argument (labels): it is both, an argument and one block
//     of that type; an array of objects is repeated blocks; "dynamic" holds dynamic blocks.

// isJSONConfig reports whether name is a Terraform JSON file (.tf.json).
func isJSONConfig(name string) bool { return strings.HasSuffix(strings.ToLower(name), ".tf.json") }

// isJSONVars reports whether name is a JSON variable definitions file (.tfvars.json).
func isJSONVars(name string) bool { return strings.HasSuffix(strings.ToLower(name), ".tfvars.json") }

// jsonKind is the kind of one JSON value.
type jsonKind int

const (
	jsonScalar jsonKind = iota // string, number, bool or null
	jsonObject
	jsonArray
)

type exprMapper interface{ ExprMap() []hcl.KeyValuePair }
type exprLister interface{ ExprList() []hcl.Expression }

func kindOf(e hcl.Expression) jsonKind {
	if m, ok := e.(exprMapper); ok && m.ExprMap() != nil {
		return jsonObject
	}
	if l, ok := e.(exprLister); ok && l.ExprList() != nil {
		return jsonArray
	}
	return jsonScalar
}

// jsonPair is one key of a JSON object, in source order.
type jsonPair struct {
	key   string
	krng  hcl.Range
	value hcl.Expression
}

func pairs(e hcl.Expression) []jsonPair {
	m, ok := e.(exprMapper)
	if !ok {
		return nil
	}
	var out []jsonPair
	for _, kv := range m.ExprMap() {
		k, diags := kv.Key.Value(nil)
		if diags.HasErrors() || !k.IsKnown() || k.IsNull() || k.Type() != cty.String {
			continue
		}
		out = append(out, jsonPair{key: k.AsString(), krng: kv.Key.Range(), value: kv.Value})
	}
	return out
}

func elems(e hcl.Expression) []hcl.Expression {
	if l, ok := e.(exprLister); ok {
		return l.ExprList()
	}
	return nil
}

// objects lists the objects of a value that is an object or an array of objects (as block
// labels and bodies may be written); null gives none.
func (c *jsonConv) objects(e hcl.Expression, what string) []hcl.Expression {
	switch kindOf(e) {
	case jsonObject:
		return []hcl.Expression{e}
	case jsonArray:
		var out []hcl.Expression
		for _, el := range elems(e) {
			if kindOf(el) != jsonObject {
				c.fail(el.Range(), "Incorrect JSON value type", "expected a JSON object "+what)
				return nil
			}
			out = append(out, el)
		}
		return out
	}
	if v, _ := e.Value(nil); v.IsNull() {
		return nil
	}
	c.fail(e.Range(), "Incorrect JSON value type", "expected a JSON object or an array of JSON objects "+what)
	return nil
}

// labelled lists the keys of a label level (comments left out).
func (c *jsonConv) labelled(e hcl.Expression, what string) []jsonPair {
	var out []jsonPair
	for _, o := range c.objects(e, what) {
		for _, p := range pairs(o) {
			if p.key != "//" {
				out = append(out, p)
			}
		}
	}
	return out
}

// jsonConv converts one file; the first error ends it.
type jsonConv struct {
	err *Error
}

func (c *jsonConv) fail(r hcl.Range, summary, detail string) {
	if c.err == nil {
		c.err = &Error{Pos: rangePos(r), Msg: summary + ": " + detail}
	}
}

// parseJSONConfig parses a .tf.json file into the body a .tf file would give.
func parseJSONConfig(sf *srcFile) (*hclsyntax.Body, error) {
	root, diags := hcljson.ParseExpression(sf.data, sf.name)
	if err := diagError(sf.name, diags); err != nil {
		return nil, err
	}
	c := &jsonConv{}
	body := newBody(root.Range())
	objs := c.objects(root, "at the root of a Terraform JSON file")
	for _, o := range objs {
		for _, p := range pairs(o) {
			c.topLevel(body, p)
		}
	}
	if c.err != nil {
		return nil, c.err
	}
	return body, nil
}

func newBody(r hcl.Range) *hclsyntax.Body {
	return &hclsyntax.Body{Attributes: hclsyntax.Attributes{}, SrcRange: r,
		EndRange: hcl.Range{Filename: r.Filename, Start: r.End, End: r.End}}
}

func newBlock(typ string, labels []string, labelRanges []hcl.Range, typeRange hcl.Range, body *hclsyntax.Body) *hclsyntax.Block {
	return &hclsyntax.Block{Type: typ, Labels: labels, Body: body, TypeRange: typeRange, LabelRanges: labelRanges,
		OpenBraceRange: body.SrcRange, CloseBraceRange: body.EndRange}
}

// topLevel converts one key of the file's root object.
func (c *jsonConv) topLevel(body *hclsyntax.Body, p jsonPair) {
	switch p.key {
	case "resource", "data":
		for _, typ := range c.labelled(p.value, "whose keys are the "+p.key+" types") {
			for _, name := range c.labelled(typ.value, "whose keys are the names of the "+typ.key+" blocks") {
				for _, o := range c.objects(name.value, "for the body of "+p.key+" "+typ.key+"."+name.key) {
					b := c.body(o, true)
					// The name stands where the keyword stands in a .tf file.
					body.Blocks = append(body.Blocks, newBlock(p.key, []string{typ.key, name.key},
						[]hcl.Range{typ.krng, name.krng}, name.krng, b))
				}
			}
		}
	case "module", "output", "variable":
		for _, name := range c.labelled(p.value, "whose keys are the "+p.key+" names") {
			for _, o := range c.objects(name.value, "for the body of "+p.key+" "+name.key) {
				var b *hclsyntax.Body
				if p.key == "variable" {
					b = c.variableBody(o)
				} else {
					b = c.body(o, false)
				}
				body.Blocks = append(body.Blocks, newBlock(p.key, []string{name.key}, []hcl.Range{name.krng}, name.krng, b))
			}
		}
	case "locals":
		for _, o := range c.objects(p.value, "whose keys are the names of local values") {
			body.Blocks = append(body.Blocks, newBlock("locals", nil, nil, p.krng, c.body(o, false)))
		}
	}
	// terraform, provider, moved, import, check and the like hold nothing the reader uses.
}

// variableBody keeps a variable's default, a literal value as Terraform reads it.
func (c *jsonConv) variableBody(o hcl.Expression) *hclsyntax.Body {
	b := newBody(o.Range())
	for _, p := range pairs(o) {
		if p.key != "default" {
			continue
		}
		if _, dup := b.Attributes[p.key]; dup {
			continue
		}
		v, diags := p.value.Value(nil)
		if diags.HasErrors() {
			v = cty.DynamicVal
		}
		b.Attributes[p.key] = &hclsyntax.Attribute{Name: p.key, NameRange: p.krng,
			SrcRange: hcl.RangeBetween(p.krng, p.value.Range()),
			Expr:     &hclsyntax.LiteralValueExpr{Val: v, SrcRange: p.value.Range()}}
	}
	return b
}

// body converts the object o that stands for a block body. With nested, an object value or an
// array of objects is also read as nested blocks (a resource's body); otherwise every key is an
// argument (locals, a module call, an output).
func (c *jsonConv) body(o hcl.Expression, nested bool) *hclsyntax.Body {
	b := newBody(o.Range())
	blockish := map[string]bool{} // keys written as nested blocks, which may repeat
	for _, p := range pairs(o) {
		if c.err != nil {
			return b
		}
		if p.key == "//" {
			continue
		}
		kind := kindOf(p.value)
		if a, dup := b.Attributes[p.key]; dup && !(nested && blockish[p.key] && (kind == jsonObject || kind == jsonArray && allObjects(p.value))) {
			c.fail(p.krng, "Attribute redefined", fmt.Sprintf("The argument %q was already set at %s. Each argument may be set only once.", p.key, a.NameRange))
			return b
		}
		if nested && p.key == "dynamic" && kind != jsonScalar {
			for _, d := range c.labelled(p.value, "whose keys are the types of the dynamic blocks") {
				for _, do := range c.objects(d.value, "for the body of dynamic block "+d.key) {
					b.Blocks = append(b.Blocks, newBlock("dynamic", []string{d.key}, []hcl.Range{d.krng}, p.krng, c.body(do, true)))
				}
			}
			continue
		}
		if nested && kind == jsonArray && allObjects(p.value) {
			blockish[p.key] = true
			for _, el := range elems(p.value) {
				b.Blocks = append(b.Blocks, newBlock(p.key, nil, nil, p.krng, c.body(el, true)))
			}
			continue
		}
		if nested && kind == jsonObject {
			b.Blocks = append(b.Blocks, newBlock(p.key, nil, nil, p.krng, c.body(p.value, true)))
			if blockish[p.key] {
				continue // a further block of the type: the argument is the first
			}
			blockish[p.key] = true
		}
		b.Attributes[p.key] = &hclsyntax.Attribute{Name: p.key, NameRange: p.krng,
			SrcRange: hcl.RangeBetween(p.krng, p.value.Range()), Expr: c.expr(p.value)}
	}
	return b
}

// allObjects reports whether e is a non-empty array of objects.
func allObjects(e hcl.Expression) bool {
	es := elems(e)
	for _, el := range es {
		if kindOf(el) != jsonObject {
			return false
		}
	}
	return len(es) > 0
}

// expr converts a JSON value in an expression: strings are templates.
func (c *jsonConv) expr(e hcl.Expression) hclsyntax.Expression {
	r := e.Range()
	switch kindOf(e) {
	case jsonObject:
		obj := &hclsyntax.ObjectConsExpr{SrcRange: r, OpenRange: startRange(r)}
		for _, p := range pairs(e) {
			key := c.template(p.key, p.krng)
			obj.Items = append(obj.Items, hclsyntax.ObjectConsItem{
				KeyExpr:   &hclsyntax.ObjectConsKeyExpr{Wrapped: key, ForceNonLiteral: true},
				ValueExpr: c.expr(p.value)})
		}
		return obj
	case jsonArray:
		tup := &hclsyntax.TupleConsExpr{SrcRange: r, OpenRange: startRange(r)}
		for _, el := range elems(e) {
			tup.Exprs = append(tup.Exprs, c.expr(el))
		}
		return tup
	}
	v, diags := e.Value(nil)
	if diags.HasErrors() {
		v = cty.DynamicVal
	}
	if v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
		return c.template(v.AsString(), r)
	}
	return &hclsyntax.LiteralValueExpr{Val: v, SrcRange: r}
}

func startRange(r hcl.Range) hcl.Range {
	end := r.Start
	end.Byte++
	end.Column++
	return hcl.Range{Filename: r.Filename, Start: r.Start, End: end}
}

// template parses the text of a JSON string written at r as a template, positioned after the
// opening quote (exact up to the first escape in the string).
func (c *jsonConv) template(text string, r hcl.Range) hclsyntax.Expression {
	if !strings.Contains(text, "${") && !strings.Contains(text, "%{") {
		return &hclsyntax.TemplateExpr{Parts: []hclsyntax.Expression{
			&hclsyntax.LiteralValueExpr{Val: cty.StringVal(text), SrcRange: inner(r)}}, SrcRange: r}
	}
	start := r.Start
	start.Byte++
	start.Column++
	if off := scanNesting([]byte(text), frameTemplate); off >= 0 {
		// Escapes (\u0024{) may have made the nesting: the place is the string's.
		if c.err == nil {
			c.err = (&srcFile{name: r.Filename, data: []byte(text)}).nestingAt(off)
			c.err.Pos = rangePos(r)
		}
		return &hclsyntax.LiteralValueExpr{Val: cty.DynamicVal, SrcRange: r}
	}
	e, diags := hclsyntax.ParseTemplate([]byte(text), r.Filename, start)
	if err := diagError(r.Filename, diags); err != nil {
		if c.err == nil {
			c.err = err
		}
		return &hclsyntax.LiteralValueExpr{Val: cty.DynamicVal, SrcRange: r}
	}
	// The expression spans the string with its quotes, as a quoted template in a .tf file does;
	// its parts keep their places inside.
	switch t := e.(type) {
	case *hclsyntax.TemplateExpr:
		t.SrcRange = r
	case *hclsyntax.TemplateWrapExpr:
		t.SrcRange = r
	}
	return e
}

// inner is the range of a string's text, without its quotes.
func inner(r hcl.Range) hcl.Range {
	if r.End.Byte-r.Start.Byte < 2 {
		return r
	}
	s, e := r.Start, r.End
	s.Byte++
	s.Column++
	e.Byte--
	e.Column--
	return hcl.Range{Filename: r.Filename, Start: s, End: e}
}

// parseJSONVars reads a .tfvars.json file: an object whose keys are variable names and whose
// values are taken literally, as Terraform takes them.
func parseJSONVars(sf *srcFile) (hclsyntax.Attributes, error) {
	f, diags := hcljson.Parse(sf.data, sf.name)
	if err := diagError(sf.name, diags); err != nil {
		return nil, err
	}
	attrs, diags := f.Body.JustAttributes()
	if err := diagError(sf.name, diags); err != nil {
		return nil, err
	}
	out := hclsyntax.Attributes{}
	for name, a := range attrs {
		v, diags := a.Expr.Value(nil)
		if diags.HasErrors() {
			v = cty.DynamicVal
		}
		out[name] = &hclsyntax.Attribute{Name: name, NameRange: a.NameRange, SrcRange: a.Range,
			Expr: &hclsyntax.LiteralValueExpr{Val: v, SrcRange: a.Expr.Range()}}
	}
	return out, nil
}
