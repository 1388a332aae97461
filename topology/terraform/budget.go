package terraform

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// What one read may evaluate. A value is weighed in bytes and elements: a string by its
// length, a number by the digits it is written with, a collection by its elements and keys.
// Before an expression is evaluated its weight and the work of evaluating it are bounded
// from above, from the weights of the values it refers to and the arguments of its functions
// (see weigh); past a cap the read ends with an *Error at the expression, as evaluating it
// could take the machine's memory: format("%999999999s", "x") makes a gigabyte, and forty
// locals that each double the one before make a terabyte from a 2 KB file.
const (
	// maxValueSize caps one value.
	maxValueSize = 16 << 20
	// maxEvalWork caps the work of all evaluations of one read together: the bytes and
	// elements made, and those walked to weigh values.
	maxEvalWork = 256 << 20
)

// weight bounds an evaluation from above: out is the weight of the value it makes, work the
// bytes and elements it makes and walks on the way.
type weight struct{ out, work int64 }

// add is a saturating sum, so that weights past the caps stay past them.
func add(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// mul is a saturating product of non-negative weights.
func mul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

func (w weight) plus(o weight) weight { return weight{add(w.out, o.out), add(w.work, o.work)} }

// over reports whether w passes what one evaluation may make.
func (w weight) over() bool { return w.out > maxValueSize || w.work > maxEvalWork }

// sizeOf is the weight of a value: 1 for a null, unknown, bool or other leaf; a string's
// length, and a number's digits as Terraform writes it, plus 1; a collection's elements, and
// an object's or map's keys, plus 1. The walk stops once the weight passes limit, so that it
// costs no more than limit.
func sizeOf(v cty.Value, limit int64) int64 {
	var n int64
	var walk func(cty.Value)
	walk = func(v cty.Value) {
		if n > limit {
			return
		}
		n++
		if !v.IsKnown() || v.IsNull() {
			return
		}
		v, _ = v.Unmark()
		ty := v.Type()
		switch {
		case ty == cty.String:
			n += int64(len(v.AsString()))
		case ty == cty.Number:
			n += digits(v.AsBigFloat())
		case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
			for it := v.ElementIterator(); it.Next() && n <= limit; {
				_, e := it.Element()
				walk(e)
			}
		case ty.IsMapType() || ty.IsObjectType():
			for it := v.ElementIterator(); it.Next() && n <= limit; {
				k, e := it.Element()
				n += int64(len(k.AsString()))
				walk(e)
			}
		}
	}
	walk(v)
	return n
}

// digits bounds the length of a number written in positional notation, as a template or
// tostring writes it: 1e9999999 has ten million digits.
func digits(f *big.Float) int64 {
	if f.IsInf() || f.Sign() == 0 {
		return 1
	}
	e := f.MantExp(nil)
	if e < 0 {
		e = -e
	}
	return int64(float64(e)*math.Log10(2)) + 24
}

// A weigher bounds the evaluation of an expression in one scope.
type weigher struct {
	sc scope
	md mode
	// anon is the weight of the element a splat's Each stands for.
	anon int64
}

// weigh bounds the evaluation of e with the variables of ctx. It stops early, returning a
// weight past the caps, once the weight passes them; at is then the part of e that passes.
func (w *weigher) weigh(e hclsyntax.Expression, ctx *hcl.EvalContext) (weight, hcl.Range) {
	wt, at := w.node(e, ctx)
	if at.Filename == "" {
		at = e.Range()
	}
	return wt, at
}

func (w *weigher) node(e hclsyntax.Expression, ctx *hcl.EvalContext) (wt weight, at hcl.Range) {
	at = e.Range()
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		return weight{sizeOf(e.Val, maxValueSize), 1}, at
	case *hclsyntax.ParenthesesExpr:
		return w.weigh(e.Expression, ctx)
	case *hclsyntax.TemplateWrapExpr:
		return w.weigh(e.Wrapped, ctx)
	case *hclsyntax.TemplateExpr:
		return w.made(at, ctx, e.Parts...)
	case *hclsyntax.TemplateJoinExpr:
		return w.made(at, ctx, e.Tuple)
	case *hclsyntax.ScopeTraversalExpr:
		return w.traversal(e.Traversal, ctx), at
	case *hclsyntax.RelativeTraversalExpr:
		src, in := w.weigh(e.Source, ctx)
		return weight{src.out, add(src.work, int64(len(e.Traversal)))}, in
	case *hclsyntax.IndexExpr:
		return w.all(weight{0, 1}, ctx, func(ws []weight) int64 { return ws[0].out }, e.Collection, e.Key)
	case *hclsyntax.SplatExpr:
		return w.splat(e, ctx)
	case *hclsyntax.AnonSymbolExpr:
		return weight{w.anon, 1}, at
	case *hclsyntax.UnaryOpExpr:
		return w.all(weight{1, 1}, ctx, sumOut, e.Val)
	case *hclsyntax.BinaryOpExpr:
		// Comparing walks both operands; a product has the digits of both.
		return w.all(weight{1, 1}, ctx, sumOut, e.LHS, e.RHS)
	case *hclsyntax.ConditionalExpr:
		// Both results are evaluated, to unify their types.
		return w.all(weight{0, 1}, ctx, sumOut, e.Condition, e.TrueResult, e.FalseResult)
	case *hclsyntax.TupleConsExpr:
		return w.all(weight{1, int64(len(e.Exprs))}, ctx, sumOut, e.Exprs...)
	case *hclsyntax.ObjectConsExpr:
		var parts []hclsyntax.Expression
		for _, item := range e.Items {
			parts = append(parts, item.KeyExpr, item.ValueExpr)
		}
		return w.all(weight{1, int64(len(e.Items))}, ctx, sumOut, parts...)
	case *hclsyntax.ObjectConsKeyExpr:
		if kw := hcl.ExprAsKeyword(e.Wrapped); kw != "" && !e.ForceNonLiteral {
			return weight{int64(len(kw)) + 1, 1}, at
		}
		return w.weigh(e.Wrapped, ctx)
	case *hclsyntax.ForExpr:
		return w.forExpr(e, ctx)
	case *hclsyntax.FunctionCallExpr:
		return w.call(e, ctx)
	}
	return weight{1, 1}, at
}

func sumOut(ws []weight) int64 {
	var n int64
	for _, w := range ws {
		n = add(n, w.out)
	}
	return n
}

// all weighs parts in turn, stopping at the first past the caps: the result weighs base and
// out(parts), and its work is the parts' and base's.
func (w *weigher) all(base weight, ctx *hcl.EvalContext, out func([]weight) int64, parts ...hclsyntax.Expression) (weight, hcl.Range) {
	var ws []weight
	total := base
	for _, p := range parts {
		if p == nil {
			continue
		}
		pw, at := w.weigh(p, ctx)
		if pw.over() {
			return pw, at
		}
		ws = append(ws, pw)
		total.work = add(total.work, pw.work)
	}
	total.out = add(base.out, out(ws))
	return total, hcl.Range{}
}

// made is a value built from parts, as a template builds its text: it weighs their sum, and
// making it is that much work more.
func (w *weigher) made(at hcl.Range, ctx *hcl.EvalContext, parts ...hclsyntax.Expression) (weight, hcl.Range) {
	wt, in := w.all(weight{}, ctx, sumOut, parts...)
	if wt.over() && in.Filename != "" {
		return wt, in
	}
	wt.work = add(wt.work, wt.out)
	return wt, at
}

// traversal weighs what a name refers to: its value's weight, kept with a local, variable,
// output or argument once evaluated, or else walked.
func (w *weigher) traversal(t hcl.Traversal, ctx *hcl.EvalContext) weight {
	if n, ok := w.sc.size(t, w.md); ok {
		return weight{n, int64(len(t))}
	}
	v, diags := t.TraverseAbs(ctx)
	if diags.HasErrors() {
		return weight{1, int64(len(t))}
	}
	n := sizeOf(v, maxValueSize)
	return weight{n, add(n, int64(len(t)))}
}

// splat weighs source[*].each: each element is evaluated once.
func (w *weigher) splat(e *hclsyntax.SplatExpr, ctx *hcl.EvalContext) (weight, hcl.Range) {
	src, at := w.weigh(e.Source, ctx)
	if src.over() {
		return src, at
	}
	inner := &weigher{sc: w.sc, md: w.md, anon: src.out}
	each, at := inner.weigh(e.Each, ctx)
	if each.over() {
		return each, at
	}
	return weight{src.out, add(src.work, mul(src.out, each.work))}, e.Range()
}

// forExpr weighs [for k, v in coll : body if cond]: the collection, then the body and the
// condition for each of its elements, bound to the element. The collection is evaluated here,
// once its weight is known to be within the caps.
func (w *weigher) forExpr(e *hclsyntax.ForExpr, ctx *hcl.EvalContext) (weight, hcl.Range) {
	total, at := w.weigh(e.CollExpr, ctx)
	if total.over() {
		return total, at
	}
	coll, diags := e.CollExpr.Value(ctx)
	if diags.HasErrors() || !coll.IsWhollyKnown() || coll.IsNull() || !coll.CanIterateElements() {
		return total, e.Range()
	}
	total.out = 1
	for it := coll.ElementIterator(); it.Next(); {
		k, v := it.Element()
		child := ctx.NewChild()
		child.Variables = map[string]cty.Value{e.ValVar: v}
		if e.KeyVar != "" {
			child.Variables[e.KeyVar] = k
		}
		one, at := w.all(weight{1, 1}, child, sumOut, e.KeyExpr, e.ValExpr, e.CondExpr)
		total = total.plus(one)
		if one.over() || total.over() {
			if at.Filename == "" {
				at = e.Range()
			}
			return total, at
		}
	}
	return total, e.Range()
}

// call weighs a function call: its arguments, and what the function makes of them, which is
// at most their weight but for the functions that can make more (format's widths, indent's
// spaces, join's separators, replace's replacements, a regular expression's groups); for
// those the arguments are evaluated, once their weights are known to be within the caps.
func (w *weigher) call(e *hclsyntax.FunctionCallExpr, ctx *hcl.EvalContext) (weight, hcl.Range) {
	args := weight{1, 1}
	vals := make([]cty.Value, len(e.Args))
	fn, known := w.sc.functions(w.md)[e.Name]
	for i, a := range e.Args {
		aw, at := w.weigh(a, ctx)
		if aw.over() {
			return aw, at
		}
		args = args.plus(aw)
		converts := known && collectionParam(fn, i)
		if grows[e.Name] != nil || converts && aw.out > unifyFree {
			vals[i], _ = a.Value(ctx)
		}
		if converts {
			args.work = add(args.work, unifyWork(vals[i]))
		}
	}
	out := args.out
	switch grow := grows[e.Name]; {
	case e.Name == "file" && len(e.Args) == 1:
		out = add(out, w.fileWeight(e.Args[0], ctx))
	case e.Name == "templatefile" && len(e.Args) == 2:
		tw, at := w.templateWeight(e.Args[0], e.Args[1], ctx)
		if tw.over() {
			return tw, at
		}
		out, args.work = add(out, tw.out), add(args.work, tw.work)
	case grow != nil:
		if e.ExpandFinal && len(vals) > 0 {
			last := vals[len(vals)-1]
			vals = vals[:len(vals)-1]
			if last.IsWhollyKnown() && !last.IsNull() && last.CanIterateElements() {
				for it := last.ElementIterator(); it.Next(); {
					_, v := it.Element()
					vals = append(vals, v)
				}
			}
		}
		out = grow(vals, args.out)
	}
	return weight{out, add(args.work, out)}, e.Range()
}

// collectionParam reports whether argument i of fn is converted to a list, set or map.
func collectionParam(fn function.Function, i int) bool {
	var ty cty.Type
	switch ps := fn.Params(); {
	case i < len(ps):
		ty = ps[i].Type
	case fn.VarParam() != nil:
		ty = fn.VarParam().Type
	default:
		return false
	}
	return ty.IsListType() || ty.IsSetType() || ty.IsMapType()
}

// unifyFree is the weight under which an argument's type unification costs little.
const unifyFree = 1 << 10

// unifyWork is the work of converting a tuple or an object argument to the list, set or map a
// function takes: the conversion unifies the types of the n elements by comparing each with
// each, n² comparisons of about 30 ns each.
func unifyWork(v cty.Value) int64 {
	if !v.IsKnown() || v.IsNull() || !(v.Type().IsTupleType() || v.Type().IsObjectType()) {
		return 0
	}
	n := int64(v.LengthInt())
	return mul(32, mul(n, n))
}

// fileWeight is the weight of the file file(path) reads: its size, read once (the read is
// kept for the evaluation); 1 when it is not read.
func (w *weigher) fileWeight(path hclsyntax.Expression, ctx *hcl.EvalContext) int64 {
	p, _ := path.Value(ctx)
	s, ok := knownString(p)
	if !ok {
		return 1
	}
	f, err := w.sc.state().readFile(w.sc.mod(), s)
	if err != nil {
		return 1
	}
	return int64(len(f.data)) + 1
}

// templateWeight weighs the template templatefile(path, vars) renders, with vars bound.
func (w *weigher) templateWeight(path, vars hclsyntax.Expression, ctx *hcl.EvalContext) (weight, hcl.Range) {
	p, _ := path.Value(ctx)
	s, ok := knownString(p)
	if !ok {
		return weight{1, 1}, hcl.Range{}
	}
	st := w.sc.state()
	f, err := st.readFile(w.sc.mod(), s)
	if err != nil {
		return weight{1, 1}, hcl.Range{}
	}
	expr, err := st.template(f)
	if err != nil {
		return weight{1, 1}, hcl.Range{}
	}
	v, _ := vars.Value(ctx)
	ts := &templateScope{module: w.sc.mod(), vars: [2]cty.Value{v, v}}
	tctx, _ := context(ts, expr, w.md)
	return (&weigher{sc: ts, md: w.md}).weigh(expr, tctx)
}

// grows bounds what the functions that can make more than they are given make, from their
// arguments and the weight of all of them together. A function given an unknown argument
// makes an unknown value without running: it makes no more than it is given.
var grows = map[string]func(args []cty.Value, given int64) int64{
	"format":     func(a []cty.Value, n int64) int64 { return formatWeight(a, n, 1) },
	"formatlist": formatlistWeight,
	"indent":     indentWeight,
	"join":       joinWeight,
	"replace":    replaceWeight,
	"regex":      regexWeight,
	"regexall":   regexWeight,
	"jsonencode": func(_ []cty.Value, n int64) int64 { return mul(n, 6) }, // \u0000 for one byte
	"lower":      func(_ []cty.Value, n int64) int64 { return mul(n, 2) },
	"upper":      func(_ []cty.Value, n int64) int64 { return mul(n, 2) },
	"title":      func(_ []cty.Value, n int64) int64 { return mul(n, 2) },
	"split":      func(_ []cty.Value, n int64) int64 { return mul(n, 2) }, // an element per byte
	"parseint":   func(_ []cty.Value, n int64) int64 { return mul(n, 2) }, // base 36 to 10
	"jsondecode": func(_ []cty.Value, n int64) int64 { return mul(n, 2) },
}

func knownString(v cty.Value) (string, bool) {
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

func knownInt(v cty.Value) (int64, bool) {
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.Number {
		return 0, false
	}
	f, _ := v.AsBigFloat().Float64()
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > math.MaxInt64/2 {
		return math.MaxInt64, true
	}
	return int64(math.Abs(f)), true
}

// formatVerbs is the width and precision of each verb of a format string; ok is false when the
// string is not known.
func formatVerbs(v cty.Value) (verbs int64, pad int64, ok bool) {
	f, ok := knownString(v)
	if !ok {
		return 0, 0, false
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i < len(f) && f[i] == '%' {
			continue
		}
		verbs++
		num := int64(0)
		for ; i < len(f) && strings.IndexByte("+-# 0123456789.[]*", f[i]) >= 0; i++ {
			if c := f[i]; c >= '0' && c <= '9' {
				num = add(mul(num, 10), int64(c-'0'))
			} else {
				pad, num = add(pad, num), 0
			}
		}
		pad = add(pad, num)
	}
	return verbs, pad, true
}

// formatWeight bounds format(f, args…) made count times: each verb writes at most its width
// and precision and the largest argument (as JSON for %#v).
func formatWeight(a []cty.Value, given, count int64) int64 {
	if len(a) == 0 {
		return given
	}
	verbs, pad, ok := formatVerbs(a[0])
	if !ok {
		return given
	}
	return add(mul(count, add(add(given, pad), 24*verbs)), mul(mul(verbs, 6), given))
}

// formatlistWeight is formatWeight made once for each element of the longest list argument.
func formatlistWeight(a []cty.Value, given int64) int64 {
	count := int64(1)
	for _, v := range a[min(1, len(a)):] {
		if v.IsWhollyKnown() && !v.IsNull() && (v.Type().IsListType() || v.Type().IsTupleType() || v.Type().IsSetType()) {
			count = max(count, int64(v.LengthInt()))
		}
	}
	return formatWeight(a, given, count)
}

// indentWeight bounds indent(n, s): n spaces for each line after the first.
func indentWeight(a []cty.Value, given int64) int64 {
	if len(a) != 2 {
		return given
	}
	n, ok := knownInt(a[0])
	s, sok := knownString(a[1])
	if !ok || !sok {
		return given
	}
	return add(given, mul(n, int64(strings.Count(s, "\n"))+1))
}

// joinWeight bounds join(sep, lists…): the separator between each two elements.
func joinWeight(a []cty.Value, given int64) int64 {
	if len(a) < 2 {
		return given
	}
	sep, ok := knownString(a[0])
	if !ok {
		return given
	}
	var elems int64
	for _, l := range a[1:] {
		if l.IsWhollyKnown() && !l.IsNull() && l.CanIterateElements() {
			elems = add(elems, int64(l.LengthInt()))
		}
	}
	return add(given, mul(int64(len(sep)), elems))
}

// replaceWeight bounds replace(s, substr, replacement): the replacement for each match (each
// character and the end, for an empty substring or a pattern that matches nothing), and a
// pattern's groups once each ($1 writes what the group matched, and matches do not overlap).
func replaceWeight(a []cty.Value, given int64) int64 {
	if len(a) != 3 {
		return given
	}
	s, ok1 := knownString(a[0])
	sub, ok2 := knownString(a[1])
	r, ok3 := knownString(a[2])
	if !ok1 || !ok2 || !ok3 {
		return given
	}
	if len(sub) > 1 && sub[0] == '/' && sub[len(sub)-1] == '/' {
		re, err := regexp.Compile(sub[1 : len(sub)-1])
		if err != nil {
			return given
		}
		limit := maxValueSize/max(len(r), 1) + 2
		matches := int64(len(re.FindAllStringIndex(s, limit)))
		refs := int64(strings.Count(r, "$"))
		return add(add(given, mul(matches, int64(len(r)))), mul(refs, int64(len(s))))
	}
	matches := int64(strings.Count(s, sub))
	return add(given, mul(matches, int64(len(r))))
}

// regexWeight bounds regex and regexall: each group of each match, matches not overlapping.
func regexWeight(a []cty.Value, given int64) int64 {
	if len(a) != 2 {
		return given
	}
	p, ok := knownString(a[0])
	s, sok := knownString(a[1])
	if !ok || !sok {
		return given
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return given
	}
	groups := int64(re.NumSubexp()) + 1
	return add(given, mul(groups, 2*int64(len(s))+2))
}

// budgetError is the error of an evaluation past the caps, at the place that passes them.
func budgetError(wt weight, at hcl.Range) *Error {
	msg := fmt.Sprintf("this expression makes a value of more than %d MiB (a string's bytes, a collection's elements); "+
		"retrylint does not evaluate values that large", maxValueSize>>20)
	if wt.out <= maxValueSize {
		msg = fmt.Sprintf("evaluating the configuration takes more than %d MiB of values made and walked; "+
			"retrylint stops here", maxEvalWork>>20)
	}
	return &Error{Pos: rangePos(at), Msg: msg}
}
