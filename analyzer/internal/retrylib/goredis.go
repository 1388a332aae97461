package retrylib

import (
	"go/ast"
	"go/types"
	"time"
)

const goRedisPath = "github.com/redis/go-redis/v9"

// go-redis's defaults (v9.23.0). Options.init (options.go) turns
// MaxRetries 0 into 3 retries and -1 into none, MinRetryBackoff 0 into
// 10ms and -1 into no wait, MaxRetryBackoff 0 into 1s and -1 into 0.
// baseClient.processWithRetry and _process (redis.go) run a command up to
// MaxRetries+1 times, sleeping internal.Sleep(ctx, retryBackoff(attempt))
// between them, which ends with the command's context; shouldRetry
// (error.go) retries only EOFs, dial and timeout errors, a pool timeout
// and the server's LOADING, READONLY, MASTERDOWN, CLUSTERDOWN, TRYAGAIN
// ... replies. internal.RetryBackoff (internal/internal.go) waits
// min + rand(min<<attempt), clamped to max: exponential, jittered and
// capped; with MaxRetryBackoff at or below MinRetryBackoff every wait is
// MaxRetryBackoff, and with MinRetryBackoff 0 there is none.
const (
	goRedisRetries    = 3
	goRedisMinBackoff = 10 * time.Millisecond
	goRedisMaxBackoff = time.Second
)

// goRedis recognises a command sent through a *redis.Client (a method of
// its embedded cmdable: Get, Set, Incr ..., or Do and Process): the
// client retries it by itself, so a retry loop around it is a second
// layer. The client's Options are read where the client is built
// (redis.NewClient(&redis.Options{...})), the defaults apply where they
// cannot be read.
//
// A command whose result is read in the same expression
// (rdb.Get(ctx, k).Result()) is read at that call, the one whose error a
// loop around it checks.
func goRedis(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	var outer *ast.CallExpr
	if inner, ifn, ok := redisCommand(info, call, fn); ok {
		outer, call, fn = call, inner, ifn
	} else if chainedResult(info, call, enclosing) {
		return nil // read at its result
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !isLibType(info.TypeOf(sel.X), goRedisPath, "Client") {
		return nil // a pipeline, a transaction, a cluster or ring client
	}
	switch {
	case isLibType(recv.Type(), goRedisPath, "cmdable"):
	case isLibType(recv.Type(), goRedisPath, "Client") && (fn.Name() == "Do" || fn.Name() == "Process"):
	default:
		return nil
	}
	if len(call.Args) == 0 {
		return nil
	}
	t := newReader(info, call, enclosing)
	opts := t.redisOptions(sel.X)
	retries := int64(goRedisRetries)
	if e := opts.value["MaxRetries"]; e != nil {
		if n, ok := opts.r.integer(e); ok {
			switch {
			case n == -1, n < 0:
				return nil // retries disabled
			case n > 0:
				retries = n
			}
		}
	}
	ctx := t.context(call.Args[0])
	r := &Retrier{
		Library:    goRedisPath,
		Call:       call,
		Attempts:   limit(retries + 1),
		Context:    ctx.ends,
		Deadline:   ctx.deadline,
		Waits:      true,
		Classified: true,
		DelayAt:    call.Fun,
		Fixes:      goRedisFixes,
	}
	if opts.lit != nil {
		r.DelayAt = opts.lit
	}
	lo, loKnown := opts.duration("MinRetryBackoff", goRedisMinBackoff)
	hi, hiKnown := opts.duration("MaxRetryBackoff", goRedisMaxBackoff)
	if s := opts.site["MaxRetryBackoff"]; s != nil {
		r.DelayAt = s
	} else if s := opts.site["MinRetryBackoff"]; s != nil {
		r.DelayAt = s
	}
	switch {
	case loKnown && lo == 0, loKnown && hiKnown && hi == 0:
		r.Waits = false
		r.Delay = Delay{Value: "0s"}
	case loKnown && hiKnown && hi <= lo:
		r.Delay = Delay{Value: hi.String()}
	default:
		// Nothing to report where the wait is configured: each command
		// answers for its own context.
		r.Delay = Delay{Grows: true, Random: true, Capped: true}
		r.DelayAt = call.Fun
	}
	if outer != nil {
		r.Call = outer
	}
	return r
}

// redisResults are the methods of a command's result that report its
// error.
var redisResults = map[string]bool{"Result": true, "Err": true, "Val": true, "Bool": true, "Int": true, "Int64": true, "Bytes": true, "Float64": true, "Uint64": true, "Scan": true, "Text": true}

// redisCommand returns, for a call of a command's result chained on the
// command (rdb.Get(ctx, k).Result()), the command's call; ok is false for
// any other call.
func redisCommand(info *types.Info, call *ast.CallExpr, fn *types.Func) (*ast.CallExpr, *types.Func, bool) {
	if !redisResults[fn.Name()] {
		return nil, nil, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, nil, false
	}
	inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok {
		return nil, nil, false
	}
	ifn := callee(info, inner)
	if ifn == nil || ifn.Pkg() == nil || Path(ifn.Pkg()) != goRedisPath {
		return nil, nil, false
	}
	return inner, ifn, true
}

// chainedResult reports whether the command call is the receiver of a
// call of its result (rdb.Get(ctx, k).Result()), where it is read.
func chainedResult(info *types.Info, call *ast.CallExpr, enclosing *ast.BlockStmt) bool {
	if enclosing == nil {
		return false
	}
	found := false
	ast.Inspect(enclosing, func(n ast.Node) bool {
		if found {
			return false
		}
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && ast.Unparen(sel.X) == call && redisResults[sel.Sel.Name] {
			if fn := callee(info, c); fn != nil && fn.Pkg() != nil && Path(fn.Pkg()) == goRedisPath {
				found = true
			}
		}
		return true
	})
	return found
}

// redisOpts are the Options a client is built with.
type redisOpts struct {
	fields
	lit ast.Expr // the Options literal, nil when it cannot be read
	r   *reader
}

// duration reads a back-off field: its value with go-redis's -1 (none)
// and 0 (default) applied.
func (o redisOpts) duration(name string, def time.Duration) (time.Duration, bool) {
	e := o.value[name]
	if e == nil {
		return def, true
	}
	d, ok := o.r.duration(e)
	if !ok {
		return def, false
	}
	switch {
	case d == -1:
		return 0, true
	case d == 0:
		return def, true
	}
	return d, true
}

// redisOptions follows a client to the NewClient call that built it and
// reads its Options: the literal and the fields set on it afterwards.
func (t *reader) redisOptions(client ast.Expr) redisOpts {
	o := redisOpts{fields: newFields(), r: t}
	x, where := t.value(client)
	call, ok := isCall(where.info, x, goRedisPath, "NewClient")
	if !ok || len(call.Args) != 1 {
		return o
	}
	arg := call.Args[0]
	ox, ow := where.value(arg)
	lit, ok := ast.Unparen(ox).(*ast.CompositeLit)
	if !ok {
		return o
	}
	o.fields = structFields(lit)
	o.lit, o.r = lit, ow
	where.setAfter(o.fields, arg)
	return o
}

var goRedisFixes = map[string]string{
	"fixed-sleep":           "give MaxRetryBackoff room above MinRetryBackoff, so that go-redis waits a random, growing time (10ms to 1s by default)",
	"sleep-ignores-context": "pass the caller's ctx to the command instead of context.Background()",
}
