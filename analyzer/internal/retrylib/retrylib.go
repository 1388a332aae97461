// Package retrylib reads calls into known retry libraries as retry layers:
// how many attempts they make, how they wait between them, what they
// retry and whether cancellation stops them, with each library's
// documented defaults where the code configures nothing.
//
// The retry-loop model (analyzer/retryloop) turns every Retrier found here
// into a retry loop, so every code rule applies to a library's
// configuration as it applies to a hand-written loop.
//
// Libraries are recognised by the import path of the called function's
// package, after any vendor/ prefix: exact type identity, no name matching.
package retrylib

import (
	"go/ast"
	"go/types"
	"strings"
)

// Retrier is one call that runs an operation with retries, as a library
// does it.
type Retrier struct {
	// Library is the import path of the library (no vendor/ prefix),
	// e.g. "github.com/cenkalti/backoff/v4".
	Library string
	// Call is the call that runs the retries: backoff.Retry(op, b),
	// retry.Do(f, opts...), wait.ExponentialBackoff(b, cond), or the
	// client.Do(req) of a retrying HTTP client.
	Call *ast.CallExpr
	// Name is how messages name the call when its function, as written,
	// is too long to quote (roko.NewRetrier(...).DoWithContext for a
	// Retrier built inline); "" names it by Call.Fun.
	Name string
	// Op is the operation retried: a function literal or function value
	// given to the library; nil when the library retries a request of its
	// own (a retrying HTTP client, a gRPC channel).
	Op ast.Expr
	// Attempts is the most attempts in all, the first one included, when
	// the configuration bounds them; 0 when no attempt limit applies.
	Attempts int
	// Deadline reports whether an elapsed-time limit stops the retries
	// (cenkalti MaxElapsedTime, sethvargo WithMaxDuration, a timeout).
	Deadline bool
	// Context reports whether a context (not context.Background/TODO) ends
	// the retries and the waits between them.
	Context bool
	// Waits reports whether the library waits between attempts at all.
	Waits bool
	// Delay is the shape of the wait between attempts.
	Delay Delay
	// DelayAt is the expression that configures the wait (the back-off
	// value or option, the field set), or the called function (Call.Fun)
	// when the defaults apply. Findings about the wait are reported on it.
	DelayAt ast.Expr
	// Classified reports whether only some errors are retried: a retry
	// predicate that inspects the error (retry.RetryIf, retry.OnError's
	// retriable, a CheckRetry policy), or an operation that marks
	// permanent failures (backoff.Permanent, retry.Unrecoverable, returning
	// without retry.RetryableError).
	Classified bool
	// Permanent lists failures that cannot succeed yet are retried, in the
	// words of retryloop.Loop.Permanent ("HTTP 400, 401", "gRPC NotFound").
	Permanent []string
	// Marks is how the operation tells the library which failures not to
	// retry (backoff.Permanent), nil when the library reads no operation.
	Marks *OpMarks
	// Fresh reports a back-off value created on every round of the loop
	// that uses it (inside the loop body, or inside the operation): its
	// delay never grows. FreshAt is where it is created.
	Fresh   bool
	FreshAt ast.Expr
	// Configures reports a call that sets up retries which run later, in
	// other calls: a retrying client handed on (retryablehttp NewClient,
	// StandardClient), an AWS retryer, a gRPC channel's retry policy. Its
	// configuration is checked here, but calling it retries nothing, so it
	// is no inner layer of a retry loop around it.
	Configures bool
	// Fixes gives, by rule name ("no-jitter"), the fix in the library's
	// own terms ("set Jitter in the wait.Backoff"), for the rules whose
	// message would otherwise suggest hand-written code.
	Fixes map[string]string
	// Loop is set when the library only paces or bounds a loop written by
	// hand (time.Sleep(b.NextBackOff()), dskit's for b.Ongoing() { ...;
	// b.Wait() }): Loop is that for or range statement, Call the library
	// call inside it. The loop is the retry loop; this Retrier gives its
	// wait (Delay, DelayAt, Fresh) and what the library adds to its bound
	// (Attempts, Deadline, Context). Classified and Permanent are read
	// from the loop's body for a loop the model does not find by itself.
	Loop ast.Stmt
	// Governs reports, with Loop, that the loop's condition asks the
	// library whether to go on (for b.Ongoing() { ... }): the library's
	// bound is the loop's bound.
	Governs bool
	// BoundUnknown reports that the attempt limit and deadline come from
	// code the finder cannot see (a back-off passed in as a parameter or
	// built in another package): no bound is known, none is missing.
	BoundUnknown bool
}

// Delay is the shape of a library's wait between attempts.
type Delay struct {
	Grows  bool // grows with the attempt (exponential, linear)
	Random bool // randomised (jitter)
	Capped bool // clamped by a maximum, or the schedule is finite and short
	// Value is the constant wait as written ("1s", "interval") when the
	// wait does not change; "" otherwise.
	Value string
	// Unknown reports a wait configured by code the finder cannot see (a
	// back-off passed in as a parameter or built in another package).
	Unknown bool
}

// Constant reports whether the wait is the same on every attempt.
func (d Delay) Constant() bool { return !d.Grows && !d.Random && !d.Unknown }

// Finder recognises calls into one library. It returns nil for a call that
// is not a retry of that library (a constructor, an option, another API).
type Finder func(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier

// finders maps the import path of a library package to its finder.
var finders = map[string]Finder{
	"github.com/cenkalti/backoff/v4":         cenkaltiV4,
	"github.com/cenkalti/backoff/v5":         cenkaltiV5,
	"github.com/cenkalti/backoff/v6":         cenkaltiV5,
	"github.com/cenkalti/backoff/v7":         cenkaltiV5,
	"github.com/avast/retry-go/v4":           retryGo,
	"github.com/sethvargo/go-retry":          sethvargo,
	"github.com/grafana/dskit/backoff":       dskit,
	"github.com/googleapis/gax-go/v2":        gax,
	"github.com/hashicorp/go-retryablehttp":  retryablehttp,
	"k8s.io/apimachinery/pkg/util/wait":      k8sWait,
	"k8s.io/client-go/util/retry":            clientgoRetry,
	"github.com/aws/aws-sdk-go-v2/aws/retry": awsRetry,
	"github.com/aws/aws-sdk-go-v2/aws":       awsRetry,
	"github.com/aws/aws-sdk-go-v2/config":    awsRetry,
	"google.golang.org/grpc":                 grpcServiceConfig,
	etcdPath:                                 etcd,
	failsafePath:                             failsafe,
	resiliencyPath:                           resiliency,
	jpilloraPath:                             jpillora,
	lestrratPath:                             lestrrat,
	rican7Path:                               rican7,
	rokoPath:                                 roko,
	temporalWorkflowPath:                     temporal,
	temporalClientPath:                       temporal,
	restyV2Path:                              resty,
	restyV3Path:                              resty,
	goRedisPath:                              goRedis,
	saramaPath:                               sarama,
	gcsPath:                                  gcloudStorage,
}

// Find returns the retrier a call runs, or nil. enclosing is the body of
// the function holding the call, where the library's configuration is
// looked up (b := backoff.NewExponentialBackOff(); b.MaxElapsedTime = 0).
func Find(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	f := finders[Path(fn.Pkg())]
	if f == nil && strings.HasPrefix(Path(fn.Pkg()), awsServicePrefix) {
		f = awsServiceCall
	}
	if f == nil {
		return nil
	}
	return f(info, call, fn, enclosing)
}

// IsLibrary reports whether fn belongs to one of the libraries read here:
// its calls are read as the library's, not as a project's runner.
func IsLibrary(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	_, ok := finders[Path(fn.Pkg())]
	return ok
}

// nameIdent returns the identifier an expression names a declared object
// with: x, or Sel of pkg.X and v.X; nil for any other expression.
func nameIdent(e ast.Expr) *ast.Ident {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// Path returns a package's import path without a vendor/ prefix.
func Path(pkg *types.Package) string {
	p := pkg.Path()
	if i := strings.LastIndex(p, "/vendor/"); i >= 0 {
		return p[i+len("/vendor/"):]
	}
	return strings.TrimPrefix(p, "vendor/")
}

// Waits reports whether fn is a library method that waits between
// attempts of a loop written around it — dskit's (*Backoff).Wait — and
// whether that wait ends with the back-off's context. The library is read
// the same whether its source is analysed or not.
func Waits(fn *types.Func) (ctxAware, ok bool) {
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() == nil {
		return false, false
	}
	if Path(fn.Pkg()) == dskitPath && fn.Name() == "Wait" {
		return true, true
	}
	return false, false
}
