package retrylib

import (
	"go/ast"
	"go/types"
	"time"
)

const (
	temporalWorkflowPath = "go.temporal.io/sdk/workflow"
	temporalClientPath   = "go.temporal.io/sdk/client"
)

// temporal reads the retry policies of go.temporal.io/sdk (v1.51.0) at
// the calls that hand them to the SDK: workflow.WithActivityOptions,
// WithLocalActivityOptions and WithChildOptions, and a client's
// ExecuteWorkflow and SignalWithStartWorkflow with StartWorkflowOptions.
// The Temporal server retries later, on its own timers: the call
// configures retries (Retrier.Configures) and is no inner layer of a loop
// around it. Defaults, from internal/client.go (RetryPolicy, lines
// 1403-1427), internal/activity.go and internal/workflow.go at v1.51.0:
//
//   - An activity without a RetryPolicy gets the server's (activity.go
//     lines 156-166): InitialInterval 1s, BackoffCoefficient 2.0,
//     MaximumInterval 100×InitialInterval, MaximumAttempts 0, unlimited.
//     The same zero fields of a RetryPolicy given mean the same defaults
//     (client.go lines 1404-1419). MaximumAttempts 1 disables retries.
//   - MaximumAttempts 0 relies on ScheduleToCloseTimeout to stop
//     (client.go line 1418), which defaults to unlimited (activity.go
//     line 120); StartToCloseTimeout times out each attempt only.
//   - A local activity's ScheduleToCloseTimeout defaults to its
//     StartToCloseTimeout, one of which is required (activity.go lines
//     204-212; internal_activity.go line 220): always a deadline.
//   - A child workflow without a RetryPolicy is not retried (workflow.go
//     line 436, "default is no retry"), nor is a workflow started by a
//     client (client.go lines 1266-1268); WorkflowExecutionTimeout bounds
//     all their runs, retries included.
//
// Which rules apply, and why:
//
//   - unbounded-retry: unlimited attempts (MaximumAttempts 0, or no
//     RetryPolicy for an activity) without ScheduleToCloseTimeout, or a
//     workflow's without WorkflowExecutionTimeout, retry for as long as
//     the failure lasts. The workflow's cancellation is no context of
//     this code, so it is not taken as a bound.
//   - fixed-sleep: BackoffCoefficient 1 (or a MaximumInterval at or below
//     InitialInterval) waits the same interval every time.
//   - no-cap never applies: MaximumInterval always clamps the wait (100×
//     InitialInterval by default).
//   - no-jitter does not apply: the server computes the intervals and a
//     RetryPolicy has no jitter to set, so there is no fix in this code;
//     a growing wait is left out rather than reported without a remedy.
//   - unclassified-retry and retry-permanent do not apply: the errors
//     retried are the activity's or workflow's, classified where they
//     are returned (temporal.NewNonRetryableApplicationError), code these
//     options do not name; NonRetryableErrorTypes adds to that.
//   - sleep-ignores-context does not apply: nothing here sleeps; the wait
//     is a server timer. The wait is reported (Waits) only when there is
//     a fixed-sleep to report and, for a client call made with a Go
//     context, only with a bound, where the context is taken to end it.
func temporal(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	kind, arg := temporalOptionsArg(fn, call)
	if arg == nil {
		return nil
	}
	t := newReader(info, call, enclosing)
	x, where := t.value(arg)
	lit, ok := ast.Unparen(x).(*ast.CompositeLit)
	if !ok {
		return nil // options built where the finder cannot see
	}
	opts := structFields(lit)
	t.setAfter(opts, arg)
	c := temporalRetry{attempts: 0, initial: time.Second, initialKnown: true, initialText: "1s", factor: 2, factorKnown: true, at: lit}
	deadline := false
	switch kind {
	case temporalActivity:
		deadline = where.nonZero(opts.value["ScheduleToCloseTimeout"])
	case temporalLocalActivity:
		deadline = true
	case temporalWorkflow:
		deadline = where.nonZero(opts.value["WorkflowExecutionTimeout"])
	}
	if e, ok := opts.value["RetryPolicy"]; ok && !isNil(e) {
		if !where.temporalPolicy(e, &c) {
			return nil // a policy built where the finder cannot see
		}
	} else if kind == temporalWorkflow {
		return nil // workflows are not retried without a policy
	}
	if c.never {
		return nil
	}
	bounded := c.attempts > 0 || c.boundUnknown || deadline
	constant := !c.delayUnknown && (c.factorKnown && c.factor <= 1 || c.maxKnown && c.initialKnown && c.max > 0 && c.max <= c.initial)
	r := &Retrier{
		Library:      Path(fn.Pkg()),
		Call:         call,
		Configures:   true,
		Attempts:     c.attempts,
		Deadline:     deadline,
		Context:      bounded,
		BoundUnknown: c.boundUnknown,
		Waits:        constant && (Path(fn.Pkg()) != temporalClientPath || bounded),
		Delay:        Delay{Grows: !constant, Capped: true, Unknown: c.delayUnknown},
		DelayAt:      c.at,
		Classified:   true,
		Fixes:        temporalFixes(kind),
	}
	if constant {
		r.Delay.Value = c.initialText
		if c.maxKnown && c.initialKnown && c.max > 0 && c.max <= c.initial {
			r.Delay.Value = c.maxText
		}
	}
	return r
}

type temporalKind int

const (
	temporalActivity temporalKind = iota + 1
	temporalLocalActivity
	temporalWorkflow
)

// temporalOptionsArg returns the options argument of a call that hands
// retry options to the SDK.
func temporalOptionsArg(fn *types.Func, call *ast.CallExpr) (temporalKind, ast.Expr) {
	arg := func(i int) ast.Expr {
		if i < len(call.Args) {
			return call.Args[i]
		}
		return nil
	}
	switch Path(fn.Pkg()) {
	case temporalWorkflowPath:
		if fn.Signature().Recv() != nil {
			return 0, nil
		}
		switch fn.Name() {
		case "WithActivityOptions":
			return temporalActivity, arg(1)
		case "WithLocalActivityOptions":
			return temporalLocalActivity, arg(1)
		case "WithChildOptions":
			return temporalWorkflow, arg(1)
		}
	case temporalClientPath:
		if fn.Signature().Recv() == nil {
			return 0, nil
		}
		switch fn.Name() {
		case "ExecuteWorkflow":
			return temporalWorkflow, arg(1)
		case "SignalWithStartWorkflow":
			return temporalWorkflow, arg(4)
		}
	}
	return 0, nil
}

// temporalRetry is what a RetryPolicy sets.
type temporalRetry struct {
	attempts     int
	boundUnknown bool
	never        bool
	initial      time.Duration
	initialKnown bool
	initialText  string
	factor       float64
	factorKnown  bool
	max          time.Duration
	maxKnown     bool
	maxText      string
	delayUnknown bool
	at           ast.Expr
}

// temporalPolicy reads a *temporal.RetryPolicy: a literal, with the
// fields set on its variable afterwards.
func (t *reader) temporalPolicy(e ast.Expr, c *temporalRetry) bool {
	x, where := t.value(e)
	lit, ok := ast.Unparen(x).(*ast.CompositeLit)
	if !ok {
		return false
	}
	f := structFields(lit)
	t.setAfter(f, e)
	c.at = lit
	if v, ok := f.value["MaximumAttempts"]; ok {
		n, known := where.integer(v)
		switch {
		case !known || n < 0:
			c.boundUnknown = true
		case n == 1:
			c.never = true
		case n > 1:
			c.attempts = int(n)
		}
	}
	if v, ok := f.value["InitialInterval"]; ok {
		if d, known := where.duration(v); !known || d > 0 {
			c.initial, c.initialKnown, c.initialText = d, known, where.durationText(v)
		}
	}
	if v, ok := f.value["BackoffCoefficient"]; ok {
		if k, known := where.float(v); !known || k != 0 {
			c.factor, c.factorKnown = k, known
		}
	}
	if v, ok := f.value["MaximumInterval"]; ok {
		if d, known := where.duration(v); !known || d > 0 {
			c.max, c.maxKnown, c.maxText = d, known, where.durationText(v)
		}
	}
	return true
}

// nonZero reports a duration field set to something other than zero.
func (t *reader) nonZero(e ast.Expr) bool {
	if e == nil {
		return false
	}
	d, known := t.duration(e)
	return !known || d != 0
}

func temporalFixes(kind temporalKind) map[string]string {
	f := map[string]string{
		"fixed-sleep": "set RetryPolicy.BackoffCoefficient above 1 (2.0 by default), with a MaximumInterval",
	}
	if kind == temporalWorkflow {
		f["unbounded-retry"] = "set RetryPolicy.MaximumAttempts (e.g. 5) or a WorkflowExecutionTimeout"
	} else {
		f["unbounded-retry"] = "set RetryPolicy.MaximumAttempts (e.g. 5) or a ScheduleToCloseTimeout in the ActivityOptions"
	}
	return f
}
