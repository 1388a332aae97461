package workflows

import (
	"strconv"
	"strings"
)

// Wildcard stands for a part of a resolved string that is not known statically.
const Wildcard = "*"

type valKind int

const (
	valUnknown valKind = iota
	valString          // s holds the text; partial strings carry Wildcard for unknown parts
	valNumber
	valBool
	valNull
)

// value is the statically known part of an expression's result.
type value struct {
	kind    valKind
	s       string
	n       float64
	b       bool
	partial bool // a string with unknown parts
}

func strVal(s string) value  { return value{kind: valString, s: s} }
func numVal(n float64) value { return value{kind: valNumber, n: n} }
func boolVal(b bool) value   { return value{kind: valBool, b: b} }
func unknownVal() value      { return value{} }
func (v value) known() bool  { return v.kind != valUnknown && !v.partial }

// text renders v as a string pattern: unknown parts are Wildcard.
func (v value) text() string {
	switch v.kind {
	case valString:
		return v.s
	case valNumber:
		return strconv.FormatFloat(v.n, 'f', -1, 64)
	case valBool:
		return strconv.FormatBool(v.b)
	case valNull:
		return "null"
	}
	return Wildcard
}

// concat joins two values as the "+" operator does on strings.
func concat(a, b value) value {
	if a.kind == valNumber && b.kind == valNumber {
		return numVal(a.n + b.n)
	}
	if a.kind == valUnknown && b.kind == valUnknown {
		return unknownVal()
	}
	s := a.text() + b.text()
	for strings.Contains(s, Wildcard+Wildcard) {
		s = strings.ReplaceAll(s, Wildcard+Wildcard, Wildcard)
	}
	return value{kind: valString, s: s, partial: a.partial || b.partial || !a.known() || !b.known()}
}

// env maps variable names to their statically known values.
type env map[string]value

// eval computes what is statically known about e.
func eval(e exprAST, vars env) value {
	return evalDepth(e, vars, 0)
}

func evalDepth(e exprAST, vars env, d int) value {
	if d > maxExprDepth*4 {
		return unknownVal()
	}
	switch x := e.(type) {
	case litExpr:
		return x.val
	case identExpr:
		if v, ok := vars[x.name]; ok {
			return v
		}
	case binaryExpr:
		a, b := evalDepth(x.x, vars, d+1), evalDepth(x.y, vars, d+1)
		switch x.op {
		case "+":
			return concat(a, b)
		case "-", "*", "/":
			if a.kind == valNumber && b.kind == valNumber {
				switch x.op {
				case "-":
					return numVal(a.n - b.n)
				case "*":
					return numVal(a.n * b.n)
				default:
					if b.n != 0 {
						return numVal(a.n / b.n)
					}
				}
			}
		}
	case unaryExpr:
		if v := evalDepth(x.x, vars, d+1); x.op == "-" && v.kind == valNumber {
			return numVal(-v.n)
		}
	case callExpr:
		return evalCall(x, vars, d)
	}
	return unknownVal()
}

func evalCall(x callExpr, vars env, d int) value {
	switch dottedName(x.fn) {
	case "default":
		if len(x.args) == 2 {
			a := evalDepth(x.args[0], vars, d+1)
			if a.known() && a.kind != valNull {
				return a
			}
		}
	case "string":
		if len(x.args) == 1 {
			if v := evalDepth(x.args[0], vars, d+1); v.kind != valUnknown {
				v.s, v.kind = v.text(), valString
				return v
			}
		}
	case "int", "double":
		if len(x.args) == 1 {
			v := evalDepth(x.args[0], vars, d+1)
			if v.kind == valNumber {
				return v
			}
			if v.known() && v.kind == valString {
				if f, err := strconv.ParseFloat(v.s, 64); err == nil {
					return numVal(f)
				}
			}
		}
	}
	return unknownVal()
}
