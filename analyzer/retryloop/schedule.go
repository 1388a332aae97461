package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"

	"github.com/retrylint/retrylint/analyzer/internal/retrylib"
)

// shortSchedule is the longest wait a growing delay may reach without a
// cap of its own, as for the libraries.
const shortSchedule = retrylib.ShortSchedule

// capShortSchedules marks as capped the growing waits of a loop with a
// constant attempt limit whose last wait, computed from the constants of
// the loop, is at most shortSchedule: the attempt limit is their cap.
func (a *checker) capShortSchedules(fc *funcCtx, lc *loopCtx, l *Loop) {
	if l.Attempts <= 0 {
		return
	}
	for _, w := range l.Waits {
		if !w.Source.Grows || w.Source.Capped || w.Source.Unknown || w.Delay == nil {
			continue
		}
		// The last wait that an attempt follows: a wait after the
		// attempt in the body waits for the next one, and the one after
		// the last attempt delays nothing.
		rounds := l.Attempts - 1
		if len(l.Ops) > 0 && w.Node.Pos() > l.Ops[0].Pos() && rounds > 0 {
			rounds--
		}
		ev := &scheduleEval{a: a, fc: fc, lc: lc, rounds: rounds, at: w.Node.Pos()}
		if d, ok := ev.eval(w.Delay, 0); ok && d >= 0 && d <= float64(shortSchedule) {
			w.Source.Capped = true
		}
	}
}

// scheduleEval evaluates a delay expression at the last attempt of a loop:
// counters at their last value, a variable multiplied every round at its
// last product. Random draws count at their upper bound.
type scheduleEval struct {
	a      *checker
	fc     *funcCtx
	lc     *loopCtx
	rounds int       // rounds before the last attempt
	at     token.Pos // the wait: a step in the body before it counts once more
	// params holds the arguments of a same-package helper being
	// evaluated (exponentialBackoff(i) returning math.Pow(2, i)).
	params map[types.Object]float64
}

const maxScheduleDepth = 12

func (ev *scheduleEval) eval(e ast.Expr, depth int) (float64, bool) {
	if depth > maxScheduleDepth {
		return 0, false
	}
	info := ev.a.info()
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		v, ok := constant.Float64Val(constant.ToFloat(tv.Value))
		return v, ok
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := ev.params[info.ObjectOf(e)]; ok {
			return v, true
		}
		return ev.variable(info.ObjectOf(e), depth)
	case *ast.SelectorExpr:
		if v, ok := info.ObjectOf(e.Sel).(*types.Var); ok {
			if n, known := ev.a.fieldConst(v); known {
				return float64(n), true // r.initialBackoff, set only to constants
			}
			return ev.variable(v, depth)
		}
	case *ast.BinaryExpr:
		x, ok1 := ev.eval(e.X, depth+1)
		y, ok2 := ev.eval(e.Y, depth+1)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Op {
		case token.ADD:
			return x + y, true
		case token.SUB:
			return x - y, true
		case token.MUL:
			return x * y, true
		case token.QUO:
			if y != 0 {
				return x / y, true
			}
		case token.SHL:
			if y >= 0 && y < 63 {
				return x * math.Pow(2, y), true
			}
		}
	case *ast.CallExpr:
		return ev.call(e, depth)
	}
	return 0, false
}

func (ev *scheduleEval) call(call *ast.CallExpr, depth int) (float64, bool) {
	info := ev.a.info()
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
		return ev.eval(call.Args[0], depth+1) // a conversion
	}
	args := func() ([]float64, bool) {
		var out []float64
		for _, arg := range call.Args {
			v, ok := ev.eval(arg, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok && (b.Name() == "min" || b.Name() == "max") {
			vs, ok := args()
			if !ok || len(vs) == 0 {
				return 0, false
			}
			r := vs[0]
			for _, v := range vs[1:] {
				if b.Name() == "min" {
					r = math.Min(r, v)
				} else {
					r = math.Max(r, v)
				}
			}
			return r, true
		}
	}
	fn := ev.a.callee(call)
	switch {
	case isPkgFunc(fn, "math", "Pow"):
		if vs, ok := args(); ok && len(vs) == 2 {
			return math.Pow(vs[0], vs[1]), true
		}
	case ev.a.isRandom(call) && len(call.Args) >= 1:
		// rand.Int63n(n), rand.N(d): at most the bound.
		return ev.eval(call.Args[len(call.Args)-1], depth+1)
	}
	return ev.helper(fn, call, depth)
}

// helper evaluates a same-package function whose body is one return of
// one value, given the values of its arguments: func exponentialBackoff(c
// int) float64 { return math.Pow(2, float64(c)) }.
func (ev *scheduleEval) helper(fn *types.Func, call *ast.CallExpr, depth int) (float64, bool) {
	decl := ev.a.decls[fn]
	if decl == nil || decl.Recv != nil || len(decl.Body.List) != 1 {
		return 0, false
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return 0, false
	}
	params := fieldObjs(ev.a, decl.Type.Params)
	if len(params) != len(call.Args) {
		return 0, false
	}
	inner := map[types.Object]float64{}
	for i, p := range params {
		v, ok := ev.eval(call.Args[i], depth+1)
		if !ok || p == nil {
			return 0, false
		}
		inner[p] = v
	}
	saved := ev.params
	ev.params = inner
	defer func() { ev.params = saved }()
	return ev.eval(ret.Results[0], depth+1)
}

// variable is a counter at its last value, a variable the loop multiplies
// at its last product, or a variable set once to a constant.
func (ev *scheduleEval) variable(obj types.Object, depth int) (float64, bool) {
	if obj == nil {
		return 0, false
	}
	var inside, before []assignment
	for _, as := range ev.fc.assigns[obj] {
		if ev.lc.contains(as.pos) {
			inside = append(inside, as)
		} else if as.pos < ev.lc.start {
			before = append(before, as)
		}
	}
	start := func() (float64, bool) {
		if len(before) != 1 || before[0].rhs == nil {
			if len(before) == 1 && before[0].tok == token.DEFINE && before[0].rhs == nil {
				return 0, true // var n int
			}
			return 0, false
		}
		return ev.eval(before[0].rhs, depth+1)
	}
	if len(inside) == 0 {
		return start()
	}
	// The for statement's own init counts as before the loop.
	if len(before) == 0 {
		for _, as := range inside {
			if as.tok == token.DEFINE && as.rhs != nil && as.pos < ev.bodyStart() {
				before = append(before, as)
			}
		}
		inside = withoutDefines(inside, ev.bodyStart())
	}
	if len(inside) == 0 && ev.lc.counters[obj] {
		// A range key: 0, 1, ... attempts-1.
		return float64(ev.rounds), true
	}
	if len(before) == 0 && len(inside) == 1 && inside[0].rhs != nil && (inside[0].tok == token.DEFINE || inside[0].tok == token.ASSIGN) {
		// Set afresh in every round: its value at the last one.
		return ev.eval(inside[0].rhs, depth+1)
	}
	v, ok := start()
	if !ok {
		return 0, false
	}
	for _, as := range inside {
		step := 1.0
		if as.rhs != nil {
			s, ok := ev.eval(as.rhs, depth+1)
			if !ok {
				return 0, false
			}
			step = s
		}
		// A step taken in the body before the wait has been taken once
		// more by the time the last attempt waits.
		n := float64(ev.rounds)
		if as.pos >= ev.bodyStart() && as.pos < ev.at {
			n++
		}
		switch as.tok {
		case token.INC, token.ADD_ASSIGN:
			v += step * n
		case token.MUL_ASSIGN:
			v *= math.Pow(step, n)
		case token.SHL_ASSIGN:
			v *= math.Pow(2, step*n)
		default:
			return 0, false
		}
	}
	return v, true
}

func (ev *scheduleEval) bodyStart() token.Pos {
	switch s := ev.lc.node.(type) {
	case *ast.ForStmt:
		return s.Body.Pos()
	case *ast.RangeStmt:
		return s.Body.Pos()
	}
	return ev.lc.start
}

func withoutDefines(list []assignment, before token.Pos) []assignment {
	var out []assignment
	for _, as := range list {
		if !(as.tok == token.DEFINE && as.pos < before) && as.tok != token.RANGE {
			out = append(out, as)
		}
	}
	return out
}
