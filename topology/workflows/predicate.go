package workflows

import (
	"fmt"
	"strings"
)

// A signalSet is a set of failures over a finite universe: every HTTP status 100..599 and the
// non-HTTP failures. It lets predicate conditions combine with and/or/not exactly.
type signalSet [8]uint64

const (
	codeLow, codeHigh = 100, 599
	bitConnection     = codeHigh - codeLow + 1 + iota
	bitTimeout
	bitOperation
	bitWorkflow
	bitOther // failures outside the vocabulary (TypeError, KeyError, ...)
	universeBits
)

func (s *signalSet) set(i int)         { s[i/64] |= 1 << (i % 64) }
func (s signalSet) has(i int) bool     { return s[i/64]&(1<<(i%64)) != 0 }
func (s signalSet) empty() bool        { return s == signalSet{} }
func codeBit(code int) int             { return code - codeLow }
func (s signalSet) hasCode(c int) bool { return s.has(codeBit(c)) }

func (s signalSet) and(t signalSet) signalSet {
	for i := range s {
		s[i] &= t[i]
	}
	return s
}

func (s signalSet) or(t signalSet) signalSet {
	for i := range s {
		s[i] |= t[i]
	}
	return s
}

func (s signalSet) not() signalSet { return universe().and(complement(s)) }

func complement(s signalSet) signalSet {
	for i := range s {
		s[i] = ^s[i]
	}
	return s
}

func universe() signalSet {
	var s signalSet
	for i := 0; i < universeBits; i++ {
		s.set(i)
	}
	return s
}

func codeRange(lo, hi int) signalSet {
	var s signalSet
	for c := max(lo, codeLow); c <= min(hi, codeHigh); c++ {
		s.set(codeBit(c))
	}
	return s
}

func codes(cs ...int) signalSet {
	var s signalSet
	for _, c := range cs {
		if c >= codeLow && c <= codeHigh {
			s.set(codeBit(c))
		}
	}
	return s
}

func bits(bs ...int) signalSet {
	var s signalSet
	for _, b := range bs {
		s.set(b)
	}
	return s
}

// tagSet maps a Workflows error tag to the failures it covers.
func tagSet(tag string) signalSet {
	switch tag {
	case "HttpError":
		return codeRange(400, 599)
	case "ConnectionError", "ConnectionFailedError":
		return bits(bitConnection)
	case "TimeoutError":
		return bits(bitTimeout)
	case "OperationError":
		return bits(bitOperation)
	case "ExecutionError", "ExecutionFailedError":
		return bits(bitWorkflow)
	}
	return bits(bitOther)
}

// signalSetOf maps a signal name back to its set.
func signalSetOf(sig string) signalSet {
	switch sig {
	case SignalHTTP4xx:
		return codeRange(400, 499)
	case SignalHTTP5xx:
		return codeRange(500, 599)
	case SignalConnection:
		return bits(bitConnection)
	case SignalTimeout:
		return bits(bitTimeout)
	case SignalOperationError:
		return bits(bitOperation)
	case SignalWorkflowFailed:
		return bits(bitWorkflow)
	}
	var c int
	if _, err := fmt.Sscanf(sig, "http-%d", &c); err == nil {
		return codes(c)
	}
	return signalSet{}
}

// defaultRetrySet is what http.default_retry(_predicate) retries (GCP-SEMANTICS §2.2).
func defaultRetrySet() signalSet {
	return codes(429, 502, 503, 504).or(bits(bitConnection, bitTimeout))
}

// nonIdempotentRetrySet is what the *_non_idempotent policy and predicate retry.
func nonIdempotentRetrySet() signalSet {
	return codes(429, 503).or(bits(bitConnection))
}

// signals lists a set in the SPEC vocabulary; any reports the set holds every signal.
func (s signalSet) signals() (out []string, any bool) {
	all := codeRange(400, 599).or(bits(bitConnection, bitTimeout, bitOperation, bitWorkflow))
	any = s.and(all) == all
	ranges := []struct {
		lo, hi int
		name   string
	}{{100, 399, ""}, {400, 499, SignalHTTP4xx}, {500, 599, SignalHTTP5xx}}
	for _, r := range ranges {
		full := codeRange(r.lo, r.hi)
		if s.and(full) == full {
			// The whole range: a class signal; statuses below 400 only appear in raised maps.
			if r.name != "" {
				out = append(out, r.name)
			}
			continue
		}
		for c := r.lo; c <= r.hi; c++ {
			if s.hasCode(c) {
				out = append(out, fmt.Sprintf("http-%d", c))
			}
		}
	}
	for _, b := range []struct {
		bit  int
		name string
	}{{bitConnection, SignalConnection}, {bitTimeout, SignalTimeout}, {bitOperation, SignalOperationError}, {bitWorkflow, SignalWorkflowFailed}} {
		if s.has(b.bit) {
			out = append(out, b.name)
		}
	}
	return out, any
}

// builtinPredicate returns the set of a built-in policy or predicate.
func builtinPredicate(name string) (signalSet, bool) {
	switch name {
	case DefaultRetry, DefaultRetryPredicate:
		return defaultRetrySet(), true
	case DefaultRetryNonIdempotent, DefaultRetryPredicateNonIdempotent:
		return nonIdempotentRetrySet(), true
	case "retry.always":
		return universe(), true
	case "retry.never":
		return signalSet{}, true
	}
	return signalSet{}, false
}

// condSet evaluates a predicate condition over the error variable ev into the set of failures for
// which it holds. ok is false when the condition cannot be read.
func condSet(e exprAST, ev string, depth int) (signalSet, bool) {
	if depth > maxExprDepth {
		return signalSet{}, false
	}
	switch x := e.(type) {
	case litExpr:
		if x.val.kind == valBool {
			if x.val.b {
				return universe(), true
			}
			return signalSet{}, true
		}
	case unaryExpr:
		if x.op == "not" {
			s, ok := condSet(x.x, ev, depth+1)
			return s.not(), ok
		}
	case callExpr:
		switch dottedName(x.fn) {
		case "not":
			if len(x.args) == 1 {
				s, ok := condSet(x.args[0], ev, depth+1)
				return s.not(), ok
			}
		case DefaultRetryPredicate, DefaultRetryPredicateNonIdempotent:
			if len(x.args) == 1 && dottedName(x.args[0]) == ev {
				return builtinPredicate(dottedName(x.fn))
			}
		}
	case binaryExpr:
		return binarySet(x, ev, depth)
	}
	return signalSet{}, false
}

func binarySet(x binaryExpr, ev string, depth int) (signalSet, bool) {
	switch x.op {
	case "and", "or":
		a, okA := condSet(x.x, ev, depth+1)
		b, okB := condSet(x.y, ev, depth+1)
		if x.op == "and" {
			return a.and(b), okA && okB
		}
		return a.or(b), okA && okB
	case "in":
		if l, ok := x.x.(litExpr); ok && l.val.kind == valString && isErrField(x.y, ev, "tags") {
			return tagSet(l.val.s), true
		}
		if isErrField(x.x, ev, "code") {
			if list, ok := x.y.(listExpr); ok {
				var s signalSet
				for _, el := range list.elems {
					c, ok := intLit(el)
					if !ok {
						return signalSet{}, false
					}
					s = s.or(codes(c))
				}
				return s, true
			}
		}
	case "==", "!=", "<", "<=", ">", ">=":
		op, code, ok := codeCompare(x, ev)
		if !ok {
			return signalSet{}, false
		}
		switch op {
		case "==":
			return codes(code), true
		case "!=":
			return codes(code).not(), true
		case "<":
			return codeRange(codeLow, code-1), true
		case "<=":
			return codeRange(codeLow, code), true
		case ">":
			return codeRange(code+1, codeHigh), true
		case ">=":
			return codeRange(code, codeHigh), true
		}
	}
	return signalSet{}, false
}

// codeCompare normalises "e.code OP N" and "N OP e.code" to "e.code OP N".
func codeCompare(x binaryExpr, ev string) (string, int, bool) {
	flip := map[string]string{"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
	if isErrField(x.x, ev, "code") {
		if c, ok := intLit(x.y); ok {
			return x.op, c, true
		}
	}
	if isErrField(x.y, ev, "code") {
		if c, ok := intLit(x.x); ok {
			return flip[x.op], c, true
		}
	}
	return "", 0, false
}

// isErrField reports whether x reads field of the error variable ev: ev.field, ev["field"],
// map.get(ev, "field") or default(map.get(ev, "field"), ...).
func isErrField(x exprAST, ev, field string) bool {
	switch x := x.(type) {
	case selExpr:
		return dottedName(x) == ev+"."+field
	case indexExpr:
		l, ok := x.i.(litExpr)
		return ok && l.val == strVal(field) && dottedName(x.x) == ev
	case callExpr:
		switch dottedName(x.fn) {
		case "map.get":
			if len(x.args) == 2 {
				l, ok := x.args[1].(litExpr)
				return ok && l.val == strVal(field) && dottedName(x.args[0]) == ev
			}
		case "default":
			return len(x.args) == 2 && isErrField(x.args[0], ev, field)
		}
	}
	return false
}

func intLit(e exprAST) (int, bool) {
	if l, ok := e.(litExpr); ok && l.val.kind == valNumber && l.val.n == float64(int(l.val.n)) {
		return int(l.val.n), true
	}
	return 0, false
}

// predicateSet reads a custom predicate subworkflow: the failures for which some path returns true.
func (a *analyser) predicateSet(name string) (signalSet, bool) {
	sc := a.scopes[name]
	if sc == nil || len(sc.params) != 1 {
		return signalSet{}, false
	}
	g, err := a.graph(name)
	if err != nil {
		return signalSet{}, false
	}
	ev := sc.params[0]
	type pstate struct {
		node int
		set  signalSet
	}
	seen := map[pstate]bool{}
	stack := []pstate{{g.entry, universe()}}
	var result signalSet
	readable := true
	push := func(n int, s signalSet) {
		if n < 0 || s.empty() || seen[pstate{n, s}] {
			return
		}
		if len(seen) >= maxStates {
			readable = false
			return
		}
		seen[pstate{n, s}] = true
		stack = append(stack, pstate{n, s})
	}
	for len(stack) > 0 {
		st := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := g.nodes[st.node]
		switch n.op {
		case opCond:
			if n.always {
				push(n.next, st.set)
				continue
			}
			var x exprAST
			if n.val != nil {
				x = n.val.expr
			}
			c, ok := condSet(x, ev, 0)
			if x == nil || !ok {
				readable = false
				continue
			}
			push(n.next, st.set.and(c))
			push(n.alt, st.set.and(c.not()))
		case opReturn:
			x, lit := returnValue(n)
			switch {
			case lit != nil:
				if *lit {
					result = result.or(st.set)
				}
			case x != nil:
				c, ok := condSet(x, ev, 0)
				if !ok {
					readable = false
				}
				result = result.or(st.set.and(c))
			default:
				readable = false
			}
		case opAssign:
			if contains(n.defs, ev) || len(n.defs) == 0 {
				readable = false // the error variable is rewritten
				continue
			}
			push(n.next, st.set)
		case opEnd, opFail, opRaise:
		case opCall:
			if !strings.HasPrefix(n.call.function, "sys.") {
				readable = false
			}
			push(n.next, st.set)
		default:
			push(n.next, st.set)
		}
	}
	return result, readable
}

// returnValue returns the expression a return node returns, or the literal boolean.
func returnValue(n *node) (exprAST, *bool) {
	r := n.val
	if r == nil || r.node == nil {
		return nil, nil
	}
	if r.expr != nil {
		if l, ok := r.expr.(litExpr); ok && l.val.kind == valBool {
			b := l.val.b
			return nil, &b
		}
		return r.expr, nil
	}
	if r.node.Tag == "!!bool" {
		b := strings.EqualFold(r.node.Value, "true")
		return nil, &b
	}
	return nil, nil
}
