package retryloop

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/retrylint/retrylint/analyzer/internal/retrylib"
)

// Summary is what a function does that matters to a retry loop calling it.
// The analyzer exports it as an object fact for every function that does
// any of it, so callers in other packages read their helpers the way they
// read their own: a wait helper, a delay helper, a function that can fail
// with a circuit breaker's open error, a retrier, a retry wrapper.
type Summary struct {
	// Waits reports that the function waits (time.Sleep, a timer, a
	// select on one, or a call to a wait helper) on some path.
	Waits bool
	// WaitsCtx reports that its wait ends when the context is cancelled.
	WaitsCtx bool
	// WaitsOnError is the 1-based index of an error parameter the
	// function waits only for: given a nil error it returns at once, as
	// a back-off's BackOff(ctx, err) does. 0 when none.
	WaitsOnError int
	// Random reports that it draws a random number.
	Random bool
	// Breaker reports that it can fail with a circuit breaker's open error.
	Breaker bool
	// Delay is set for a function that returns a time.Duration: the shape
	// of what it returns.
	Delay *DelaySummary
	// Retry is set for a function that retries: it runs a retry loop, or
	// calls a function that does, outside any loop of its own.
	Retry *RetrySummary
	// Step is set for a retry step: it waits where its operation failed.
	Step *StepSummary
	// Codes is set for a predicate over an HTTP status or a gRPC code.
	Codes *CodeSummary
	// IgnoresFailure reports a predicate that takes the failure but never
	// reads it: calling it classifies nothing.
	IgnoresFailure bool
	// ContextCheck reports a predicate that tells whether a context it is
	// given has ended (ctx.Err() != nil, a select on ctx.Done()): a loop
	// that leaves on it has a context exit.
	ContextCheck bool
	// SetsFields lists the duration parameters a constructor stores in
	// fields of the value it returns (New(d) { return &B{wait: d} }).
	SetsFields []FieldParam
}

// DelaySummary is the shape of the duration a delay helper returns.
type DelaySummary struct {
	Grows, Random, Capped, Unknown bool
	// GrowsWith lists the parameters (0-based) whose growth makes the
	// result grow: Backoff(base, max, attempt) grows with attempt.
	GrowsWith []int
}

// RetrySummary says how a function retries.
type RetrySummary struct {
	// Attempts is the most attempts of one call, the first included; 0
	// when unknown. Unbounded: no attempt limit, deadline or context exit.
	Attempts  int
	Unbounded bool
	// At is where the retry loop is, as file:line, for messages.
	At string
	// Limit is, when Attempts is unknown, the expression as written that
	// its loop's counter runs up to or down from ("c.maxRetries",
	// "tries"), for messages; "" when there is none. LimitArg is the
	// 1-based index of the parameter Limit names, when it is one: each
	// call's argument there sets the attempts.
	Limit    string
	LimitArg int
	// Param is the parameter (0-based) holding the function value the
	// function retries — a retry wrapper, whose every call site retries
	// its argument — or -1 when it retries work of its own.
	Param int
	// LimitParam is the 1-based index of the parameter that limits the
	// attempts (for try := 1; try <= tries; try++), 0 when none: a call
	// given a constant there makes that many, CallNoRetry(fn) → call(fn, 1)
	// none again.
	LimitParam int
	// Answer is 1 when the function value's bool result decides: true
	// asks for another try (retry bool, err error); 0 when the runner
	// reads only the error.
	Answer int
	// PredicateParam is the 1-based index of a parameter holding a
	// predicate over the failure (isRetryable func(error) bool) that the
	// runner asks whether to go round; 0 when none. What its callers give
	// there is their classification.
	PredicateParam int
	// Blind reports a runner that goes round on every error of the
	// function value it is given and reads none of them: what each
	// caller's attempt returns is the whole classification, so a caller
	// whose attempt returns every error unexamined retries them all.
	Blind bool
	// CtxParam is the 1-based index of the context parameter whose end
	// is the runner's only bound, 0 when none: a call that gives it a
	// context nobody cancels (context.Background()) retries for ever.
	CtxParam int
	// Marks is set for a function that hands the function value it is
	// given to a retry library as the operation (a generic retryRPC(ctx,
	// c, op) around backoff.Retry): how that library is told a failure is
	// permanent, so that each caller's function literal is read as the
	// library reads an operation.
	Marks *retrylib.OpMarks
	// Deaf reports a runner that takes no context and waits between
	// attempts with a wait no context ends (time.Sleep): a caller with a
	// context cannot cancel it.
	Deaf bool
	// WaitParam is the 1-based index of the duration parameter every
	// wait between attempts waits, unchanged (retry(interval, f) sleeping
	// interval each time); 0 when none. A caller giving it a constant
	// retries on a fixed interval.
	WaitParam int
	// WaitField is the field of the method's receiver every wait between
	// attempts waits, unchanged (time.Sleep(b.wait)); "" when none. A
	// constructor call that stores a constant there (New(time.Second))
	// retries on a fixed interval.
	WaitField string
	// Poll reports a runner that polls the condition it is given, func()
	// (done bool, err error): it stops on done or an error and goes round
	// on (false, nil), so it retries only what an attempt that answers
	// (false, nil) after a failure makes it (Answer is answerPoll).
	Poll bool
}

// AFact marks Summary as an analysis fact.
func (*Summary) AFact() {}

func (s *Summary) String() string {
	var parts []string
	if s.Waits {
		w := "waits"
		if s.WaitsCtx {
			w += "(ctx)"
		}
		if s.WaitsOnError > 0 {
			w += fmt.Sprintf("(on error %d)", s.WaitsOnError)
		}
		parts = append(parts, w)
	}
	if s.Random {
		parts = append(parts, "random")
	}
	if s.Breaker {
		parts = append(parts, "breaker")
	}
	if d := s.Delay; d != nil {
		parts = append(parts, "delay("+delayWords(Delay{Grows: d.Grows, Random: d.Random, Capped: d.Capped, Unknown: d.Unknown})+fmt.Sprintf(" with %v)", d.GrowsWith))
	}
	if cs := s.Codes; cs != nil {
		var in []string
		limit := 600
		if cs.GRPC {
			limit = 17
		}
		for c := 0; c < limit; c++ {
			if cs.accepts(c) {
				in = append(in, fmt.Sprint(c))
			}
		}
		kind := "http"
		if cs.GRPC {
			kind = "grpc"
		}
		text := kind + "[" + strings.Join(in, " ") + "]"
		if cs.Member > 0 {
			text = fmt.Sprintf("%s[in param %d]", kind, cs.Member-1)
		}
		if cs.Arg > 0 {
			text += fmt.Sprintf("(of param %d)", cs.Arg-1)
		}
		parts = append(parts, text)
	}
	if s.IgnoresFailure {
		parts = append(parts, "ignores-failure")
	}
	if s.ContextCheck {
		parts = append(parts, "context-check")
	}
	if st := s.Step; st != nil {
		parts = append(parts, "step("+delayWords(st.delay())+")")
	}
	if r := s.Retry; r != nil {
		text := fmt.Sprintf("retries(%s at %s, param %d", attemptsText(r.Attempts, r.Unbounded), r.At, r.Param)
		if r.LimitParam > 0 {
			text += fmt.Sprintf(", limit param %d", r.LimitParam-1)
		}
		if r.Answer != 0 {
			text += ", answer"
		}
		if r.Blind {
			text += ", blind"
		}
		if r.CtxParam > 0 {
			text += fmt.Sprintf(", ctx param %d", r.CtxParam-1)
		}
		parts = append(parts, text+")")
	}
	return strings.Join(parts, " ")
}

func delayWords(d Delay) string {
	var w []string
	for _, f := range []struct {
		on   bool
		name string
	}{{d.Constant(), "const"}, {d.Grows, "grows"}, {d.Random, "random"}, {d.Capped, "capped"}, {d.Unknown, "unknown"}} {
		if f.on {
			w = append(w, f.name)
		}
	}
	return strings.Join(w, "+")
}

func attemptsText(n int, unbounded bool) string {
	switch {
	case unbounded:
		return "unbounded"
	case n == 0:
		return "n"
	}
	return fmt.Sprint(n)
}

func (s *Summary) empty() bool {
	return !s.Waits && !s.Random && !s.Breaker && s.Delay == nil && s.Retry == nil && s.Step == nil && s.Codes == nil && !s.IgnoresFailure && !s.ContextCheck && len(s.SetsFields) == 0
}

// importSummary reads the fact of a function of another package.
func (a *checker) importSummary(fn *types.Func) (*Summary, bool) {
	if fn.Pkg() == nil || fn.Pkg() == a.pass.Pkg {
		return nil, false
	}
	var s Summary
	if !a.pass.ImportObjectFact(fn, &s) {
		return nil, false
	}
	return &s, true
}

// exportSummaries exports the summary of every function of the package
// that does something a caller's retry loop cares about. The retry loops
// of the package are known by then.
func (a *checker) exportSummaries(res *Result) {
	for fn, decl := range a.decls {
		if !a.wantFile(decl.Pos()) {
			continue
		}
		s := a.summarize(fn)
		out := &Summary{Waits: s.waits, WaitsCtx: s.ctxAware, Random: s.random, Breaker: s.breaker, WaitsOnError: s.errGate}
		if sig := fn.Type().(*types.Signature); sig.Results().Len() > 0 && isDuration(sig.Results().At(durationResult(sig)).Type()) {
			out.Delay = a.delaySummary(fn, decl)
		}
		out.Retry = a.retrySummary(fn, res)
		out.Step = a.stepOf(fn)
		out.Codes = a.codesOf(fn)
		out.IgnoresFailure = a.readIgnoresFailure(fn, decl)
		out.ContextCheck = a.readContextCheck(fn, decl)
		out.SetsFields = a.fieldParams(decl)
		if !out.empty() {
			a.pass.ExportObjectFact(fn, out)
		}
	}
	a.exportInterfaceRetries()
}

// exportInterfaceRetries records, on each method of an interface the
// package declares, the retries of the implementation behind it that the
// package also declares (a client behind its RPCClient interface): a
// caller in another package reads the fact, where the implementation, an
// unexported type, may not be in what it was given of this package.
func (a *checker) exportInterfaceRetries() {
	scope := a.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || !a.wantFile(tn.Pos()) {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for i := 0; i < iface.NumExplicitMethods(); i++ {
			m := iface.ExplicitMethod(i)
			if !returnsError(m) {
				continue
			}
			if r := a.retryOf(m); r != nil {
				a.pass.ExportObjectFact(m, &Summary{Retry: r})
			}
		}
	}
}

// returnsError reports whether a function's last result is an error.
func returnsError(fn *types.Func) bool {
	res := fn.Type().(*types.Signature).Results()
	return res.Len() > 0 && isError(res.At(res.Len()-1).Type())
}

// delaySummary computes what a delay helper returns: once with every
// parameter constant, then once per parameter growing.
func (a *checker) delaySummary(fn *types.Func, decl *ast.FuncDecl) *DelaySummary {
	eval := func(grow types.Object) Delay {
		env := map[types.Object]Delay{}
		for _, p := range fieldObjs(a, decl.Type.Params) {
			if p != nil {
				env[p] = Delay{Grows: p == grow}
			}
		}
		return a.helperDelayIn(fn, decl, env, 0)
	}
	base := eval(nil)
	ds := &DelaySummary{Grows: base.Grows, Random: base.Random, Capped: base.Capped, Unknown: base.Unknown}
	for i, p := range fieldObjs(a, decl.Type.Params) {
		if p == nil || !isInteger(p.Type()) && !isFloat(p.Type()) && !isDuration(p.Type()) {
			continue
		}
		if d := eval(p); d.Grows && !base.Grows {
			ds.GrowsWith = append(ds.GrowsWith, i)
		}
	}
	return ds
}

// factDelay is the delay of a call to a delay helper of another package.
func (a *checker) factDelay(dc *delayCtx, ds *DelaySummary, call *ast.CallExpr) Delay {
	d := Delay{Grows: ds.Grows, Random: ds.Random, Capped: ds.Capped, Unknown: ds.Unknown}
	for _, i := range ds.GrowsWith {
		if i < len(call.Args) {
			arg := a.delayOf(dc, call.Args[i])
			d.Grows = d.Grows || arg.Grows || arg.self
		}
	}
	for _, arg := range call.Args {
		if t := a.typeOf(arg); t != nil && (isDuration(t) || isInteger(t) || isFloat(t)) {
			d.Random = d.Random || a.delayOf(dc, arg).Random
		}
	}
	return d
}

// position renders a position as file:line for messages, the file named
// as sitePath names it.
func (a *checker) position(p token.Pos) string {
	pos := a.pass.Fset.Position(p)
	return fmt.Sprintf("%s:%d", a.sitePath(pos.Filename), pos.Line)
}
