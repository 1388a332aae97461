package retrylib

import (
	"go/ast"
	"go/types"
)

const gcsPath = "cloud.google.com/go/storage"

// cloud.google.com/go/storage (v1.71.0) retries every call of an object
// or bucket handle in run (invoke.go:113): with no Retryer or SetRetry
// options (defaultRetry, invoke.go:39) the policy is RetryIdempotent
// (storage.go:2584-2595), so an idempotent call (reading attributes or
// data; a Delete with Generation or If(Conditions{GenerationMatch}), an
// Update with If(Conditions{MetagenerationMatch}), storage.go:1101 and
// 1180) is retried and any other is sent once; RetryNever sends once,
// RetryAlways retries every call. Without WithMaxAttempts there is no
// attempt limit: it retries "indefinitely until either the context is
// canceled or a deadline is reached" (storage.go:2540), or until
// WithMaxRetryDuration. The wait is gax.Backoff{} unless WithBackoff
// (invoke.go:136-141): gax v2.27.0 defaults Initial 1s, Max 30s, Multiplier 2 (call_option.go:187-196),
// always jittered and capped, and it ends with the call's context
// (gax.Sleep). ShouldRetry (invoke.go:244) retries 408, 429, 5xx and
// connection errors; WithErrorFunc replaces it.
//
// Options merge: the client's SetRetry, then the bucket's Retryer, then
// the object's, each overriding what it sets.
func gcloudStorage(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	recv := fn.Signature().Recv()
	if recv == nil || len(call.Args) == 0 {
		return nil
	}
	var idempotent func(cfg gcsConfig) bool
	switch {
	case isLibType(recv.Type(), gcsPath, "ObjectHandle"):
		switch fn.Name() {
		case "Attrs", "NewReader", "NewRangeReader":
			idempotent = func(gcsConfig) bool { return true }
		case "Delete":
			idempotent = func(cfg gcsConfig) bool { return cfg.generation || cfg.conds["GenerationMatch"] }
		case "Update":
			idempotent = func(cfg gcsConfig) bool { return cfg.conds["MetagenerationMatch"] }
		}
	case isLibType(recv.Type(), gcsPath, "BucketHandle"):
		if fn.Name() == "Attrs" {
			idempotent = func(gcsConfig) bool { return true }
		}
	}
	if idempotent == nil {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	t := newReader(info, call, enclosing)
	steps, _ := t.trail(sel.X, gcsHandleStep, func(fn *types.Func) bool { return fn.Name() == "SetRetry" && gcsHandleStep(fn) })
	cfg := gcsConfig{policy: "RetryIdempotent", conds: map[string]bool{}}
	for _, s := range steps {
		cfg.apply(s)
	}
	switch {
	case cfg.policy == "RetryNever":
		return nil
	case cfg.policy == "RetryIdempotent" && !idempotent(cfg):
		return nil
	case cfg.maxAttempts == 1:
		return nil
	}
	ctx := t.context(call.Args[0])
	r := &Retrier{
		Library:    gcsPath,
		Call:       call,
		Attempts:   cfg.maxAttempts,
		Deadline:   cfg.deadline || ctx.deadline,
		Context:    ctx.ends,
		Waits:      true,
		Delay:      Delay{Grows: !cfg.constantGrowth, Random: true, Capped: true},
		DelayAt:    call.Fun,
		Classified: true,
		Fixes:      gcsFixes,
	}
	if cfg.errorFunc != nil {
		v := cfg.errorFunc.r.predicate(cfg.errorFunc.args[0])
		if !cfg.errorFunc.r.refersToFunc(cfg.errorFunc.args[0], gcsPath, "ShouldRetry") {
			r.Classified, r.Permanent = v.classified, v.permanent
		}
	}
	return r
}

// gcsHandleStep accepts what configures the retries of a handle on its
// way from the client: Bucket, Object, Retryer, If, Generation and the
// other methods of a handle that return a handle, and the client's
// SetRetry.
func gcsHandleStep(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Recv() == nil || fn.Pkg() == nil || Path(fn.Pkg()) != gcsPath {
		return false
	}
	if isLibType(sig.Recv().Type(), gcsPath, "Client") {
		return fn.Name() == "Bucket" || fn.Name() == "SetRetry"
	}
	if !isLibType(sig.Recv().Type(), gcsPath, "ObjectHandle") && !isLibType(sig.Recv().Type(), gcsPath, "BucketHandle") {
		return false
	}
	if sig.Results().Len() != 1 {
		return false
	}
	rt := sig.Results().At(0).Type()
	return isLibType(rt, gcsPath, "ObjectHandle") || isLibType(rt, gcsPath, "BucketHandle")
}

// gcsConfig is the retry configuration of one call.
type gcsConfig struct {
	policy         string
	maxAttempts    int
	deadline       bool
	constantGrowth bool
	errorFunc      *step
	generation     bool
	conds          map[string]bool // the Conditions fields given to If
}

func (cfg *gcsConfig) apply(s step) {
	switch s.name {
	case "Generation":
		cfg.generation = true
	case "If":
		if len(s.args) != 1 {
			return
		}
		x, where := s.r.value(s.args[0])
		lit, ok := ast.Unparen(x).(*ast.CompositeLit)
		if !ok {
			cfg.conds["GenerationMatch"], cfg.conds["MetagenerationMatch"] = true, true
			return
		}
		for name, v := range structFields(lit).value {
			if n, known := where.integer(v); !known || n != 0 {
				cfg.conds[name] = true
			}
		}
	case "Retryer", "SetRetry":
		opts, ok := s.r.options(s.call, 0)
		if !ok {
			return
		}
		for _, o := range opts {
			cfg.option(s.r, o)
		}
	}
}

func (cfg *gcsConfig) option(t *reader, o ast.Expr) {
	x, where := t.value(o)
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return
	}
	fn := callee(where.info, call)
	if fn == nil || fn.Pkg() == nil || Path(fn.Pkg()) != gcsPath || len(call.Args) != 1 {
		return
	}
	arg := call.Args[0]
	switch fn.Name() {
	case "WithPolicy":
		if where.refersToConst(arg, gcsPath, "RetryAlways") {
			cfg.policy = "RetryAlways"
		} else if where.refersToConst(arg, gcsPath, "RetryNever") {
			cfg.policy = "RetryNever"
		} else if where.refersToConst(arg, gcsPath, "RetryIdempotent") {
			cfg.policy = "RetryIdempotent"
		}
	case "WithMaxAttempts":
		if n, known := where.integer(arg); known && n > 0 {
			cfg.maxAttempts = limit(n)
		}
	case "WithMaxRetryDuration":
		if d, known := where.duration(arg); !known || d > 0 {
			cfg.deadline = true
		}
	case "WithBackoff":
		cfg.constantGrowth = false
		bx, bw := where.value(arg)
		if lit, ok := ast.Unparen(bx).(*ast.CompositeLit); ok {
			if m, ok := structFields(lit).value["Multiplier"]; ok {
				if f, known := bw.float(m); known && f == 1 {
					cfg.constantGrowth = true
				}
			}
		}
	case "WithErrorFunc":
		cfg.errorFunc = &step{name: fn.Name(), args: call.Args, site: call, r: where}
	}
}

// refersToConst reports whether e names the constant name of path.
func (t *reader) refersToConst(e ast.Expr, path, name string) bool {
	id := nameIdent(e)
	if id == nil {
		return false
	}
	c, ok := t.info.Uses[id].(*types.Const)
	return ok && c.Pkg() != nil && Path(c.Pkg()) == path && c.Name() == name
}

var gcsFixes = map[string]string{
	"unbounded-retry":       "pass a context with a deadline, or give the handle storage.WithMaxAttempts(n) in Retryer or SetRetry",
	"unclassified-retry":    "let WithErrorFunc retry only transient failures, e.g. by deferring to storage.ShouldRetry",
	"retry-permanent":       "make WithErrorFunc return false for them; storage.ShouldRetry retries only 408, 429, 5xx and connection errors",
	"sleep-ignores-context": "pass the caller's ctx to the call instead of context.Background()",
}
