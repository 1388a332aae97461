package retrylib

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
)

const (
	awsPath       = "github.com/aws/aws-sdk-go-v2/aws"
	awsRetryPath  = "github.com/aws/aws-sdk-go-v2/aws/retry"
	awsConfigPath = "github.com/aws/aws-sdk-go-v2/config"
)

// The standard retryer's defaults (aws-sdk-go-v2 v1.48.0): 3 attempts,
// exponential back-off with full jitter capped at 20 s, retrying only the
// retryable error codes, throttling and transient connection errors.
const awsDefaultAttempts = 3

// awsRetryerCalls are the functions of aws/retry that build or wrap a
// retryer.
var awsRetryerCalls = []string{"NewStandard", "NewAdaptiveMode", "AddWithMaxAttempts", "AddWithMaxBackoffDelay", "AddWithErrorCodes"}

// awsPermanentCodes are AWS error codes that cannot succeed on retry:
// denied access, bad credentials, invalid input, missing resources.
var awsPermanentCodes = []string{
	"AccessDenied", "AccessDeniedException", "UnauthorizedOperation", "UnrecognizedClientException",
	"InvalidClientTokenId", "ExpiredToken", "ExpiredTokenException", "SignatureDoesNotMatch",
	"ValidationException", "ValidationError", "InvalidParameterValue", "InvalidParameterException",
	"InvalidParameterCombination", "MissingParameter", "InvalidRequest", "InvalidArgument",
	"MalformedPolicyDocument", "ResourceNotFoundException", "NoSuchKey", "NoSuchBucket", "NoSuchEntity", "NotFound",
}

// awsRetry recognises the retryers of the AWS SDK for Go v2 where they are
// configured: the outermost of retry.NewStandard, NewAdaptiveMode and the
// AddWith* wrappers (an inner one is read through the wrapper), and
// config.WithRetryMaxAttempts. The SDK runs the retries inside every
// operation of the clients given the retryer; the Retrier stands for them.
func awsRetry(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	if sig, _ := fn.Type().(*types.Signature); sig == nil || sig.Recv() != nil {
		return nil
	}
	t := newTracer(info, enclosing)
	switch path := Path(fn.Pkg()); {
	case path == awsRetryPath && slices.Contains(awsRetryerCalls, fn.Name()):
		if t.wrappedLater(call) {
			return nil
		}
		cfg := t.awsRetryer(call, 0)
		return cfg.retrier(call)
	case path == awsConfigPath && fn.Name() == "WithRetryMaxAttempts" && len(call.Args) == 1:
		if t.hasSiblingOption(call, awsConfigPath, "WithRetryer") {
			return nil // ignored when a Retryer is given
		}
		cfg := awsDefaults(call)
		if n, ok := t.intOf(call.Args[0]); ok && n != 0 {
			cfg.attempts = limit(n) // 0 leaves the default
		}
		return cfg.retrier(call)
	}
	return nil
}

// awsConfig is the configuration of one retryer.
type awsConfig struct {
	attempts   int // 0: no attempt limit
	delay      Delay
	delayAt    ast.Expr
	classified bool
	permanent  []string
	none       bool // aws.NopRetryer: never retries
}

func awsDefaults(at ast.Expr) awsConfig {
	return awsConfig{
		attempts:   awsDefaultAttempts,
		delay:      Delay{Grows: true, Random: true, Capped: true},
		delayAt:    at,
		classified: true,
	}
}

func (cfg awsConfig) retrier(call *ast.CallExpr) *Retrier {
	if cfg.none || cfg.attempts == 1 {
		return nil
	}
	attempts := max(cfg.attempts, 0)
	delay := finiteSchedule(cfg.delay, attempts)
	return &Retrier{
		Library:    awsRetryPath,
		Call:       call,
		Configures: true,
		Attempts:   attempts,
		// The SDK waits on the context of each operation, which cannot be
		// seen where the retryer is configured: it is taken to end the
		// waits, but not to bound a retryer without an attempt limit.
		Context: attempts > 0,
		// The default, jittered and capped, wait has nothing to report;
		// without an attempt limit it is left out so that the operation's
		// context, not seen here, is not taken as ignored.
		Waits:      attempts > 0 || !isDefaultAWSDelay(delay),
		Delay:      delay,
		DelayAt:    cfg.delayAt,
		Classified: cfg.classified,
		Permanent:  cfg.permanent,
		Fixes: map[string]string{
			"unbounded-retry":    "give the retryer a small attempt limit (retry.AddWithMaxAttempts, StandardOptions.MaxAttempts), e.g. 5",
			"fixed-sleep":        "leave StandardOptions.Backoff unset, or use retry.NewExponentialJitterBackoff(maxBackoff)",
			"no-jitter":          "leave StandardOptions.Backoff unset, or use retry.NewExponentialJitterBackoff(maxBackoff)",
			"no-cap":             "leave StandardOptions.Backoff unset, or use retry.NewExponentialJitterBackoff(maxBackoff)",
			"unclassified-retry": "return aws.TrueTernary only for transient error codes and aws.UnknownTernary otherwise",
			"retry-permanent":    "drop these codes from the retryable codes; the standard retryer already retries throttling and transient errors",
		},
	}
}

func isDefaultAWSDelay(d Delay) bool { return d == Delay{Grows: true, Random: true, Capped: true} }

// wrappedLater reports whether the retryer a call builds is handed to an
// AddWith* wrapper in the function, directly or through a variable: the
// wrapper is the configuration read.
func (t *tracer) wrappedLater(call *ast.CallExpr) bool {
	if p, ok := t.up(call).(*ast.CallExpr); ok && len(p.Args) > 0 && ast.Unparen(p.Args[0]) == ast.Expr(call) {
		if _, ok := t.calls(p, awsRetryPath, "AddWithMaxAttempts", "AddWithMaxBackoffDelay", "AddWithErrorCodes"); ok {
			return true
		}
	}
	key := ""
	switch p := t.up(call).(type) {
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if ast.Unparen(r) == ast.Expr(call) && i < len(p.Lhs) {
				key = keyOf(p.Lhs[i])
			}
		}
	case *ast.ValueSpec:
		for i, v := range p.Values {
			if ast.Unparen(v) == ast.Expr(call) && i < len(p.Names) {
				key = p.Names[i].Name
			}
		}
	}
	if key == "" {
		return false
	}
	found := false
	t.inspect(func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && c.Pos() > call.Pos() && len(c.Args) > 0 && keyOf(c.Args[0]) == key {
			if _, ok := t.calls(c, awsRetryPath, "AddWithMaxAttempts", "AddWithMaxBackoffDelay", "AddWithErrorCodes"); ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// hasSiblingOption reports whether the call is an argument of a call that
// also takes path.name(...) as an argument.
func (t *tracer) hasSiblingOption(call *ast.CallExpr, path, name string) bool {
	p, ok := t.up(call).(*ast.CallExpr)
	if !ok {
		return false
	}
	for _, a := range p.Args {
		if _, ok := t.calls(a, path, name); ok {
			return true
		}
	}
	return false
}

// awsRetryer reads the retryer an expression gives.
func (t *tracer) awsRetryer(e ast.Expr, depth int) awsConfig {
	if depth > 8 {
		return awsDefaults(e)
	}
	v := ast.Unparen(t.resolve(e))
	if lit := compositeOf(v); lit != nil {
		if tv, ok := t.info.Types[lit]; ok && isNamed(tv.Type, awsPath, "NopRetryer") {
			return awsConfig{none: true}
		}
	}
	call, ok := v.(*ast.CallExpr)
	if !ok {
		return awsDefaults(e)
	}
	fn := t.callee(call)
	arg := func(i int) ast.Expr {
		if i < len(call.Args) {
			return call.Args[i]
		}
		return nil
	}
	switch {
	case isFunc(fn, awsRetryPath, "NewStandard"):
		cfg := awsDefaults(call)
		for _, opt := range call.Args {
			t.standardOption(&cfg, opt)
		}
		return cfg
	case isFunc(fn, awsRetryPath, "NewAdaptiveMode"):
		cfg := awsDefaults(call)
		for _, opt := range call.Args {
			t.adaptiveOption(&cfg, opt)
		}
		return cfg
	case isFunc(fn, awsRetryPath, "AddWithMaxAttempts") && arg(1) != nil:
		cfg := t.awsRetryer(arg(0), depth+1)
		if n, ok := t.intOf(arg(1)); ok {
			cfg.attempts = limit(n)
		}
		return cfg
	case isFunc(fn, awsRetryPath, "AddWithMaxBackoffDelay") && arg(1) != nil:
		cfg := t.awsRetryer(arg(0), depth+1)
		cfg.delay = Delay{Grows: true, Random: true, Capped: true}
		cfg.delayAt = call
		return cfg
	case isFunc(fn, awsRetryPath, "AddWithErrorCodes") && arg(0) != nil:
		cfg := t.awsRetryer(arg(0), depth+1)
		var codes []string
		for _, a := range call.Args[1:] {
			if s, ok := t.stringOf(a); ok && slices.Contains(awsPermanentCodes, s) {
				codes = append(codes, s)
			}
		}
		cfg.permanent = joinPermanent(cfg.permanent, awsPermanent(codes))
		return cfg
	}
	return awsDefaults(e)
}

func awsPermanent(codes []string) []string {
	if len(codes) == 0 {
		return nil
	}
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = "AWS " + c
	}
	return out
}

// optionBody returns the body and parameter of a functional option: a
// function literal, or a local variable holding one.
func (t *tracer) optionBody(opt ast.Expr) (*ast.FuncLit, string) {
	lit := t.funcLit(opt)
	if lit == nil || len(lit.Type.Params.List) != 1 || len(lit.Type.Params.List[0].Names) != 1 {
		return nil, ""
	}
	return lit, lit.Type.Params.List[0].Names[0].Name
}

// standardOption applies a func(*retry.StandardOptions).
func (t *tracer) standardOption(cfg *awsConfig, opt ast.Expr) {
	lit, o := t.optionBody(opt)
	if lit == nil {
		return
	}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, lhs := range as.Lhs {
			sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
			if !ok || keyOf(sel.X) != o {
				continue
			}
			v := as.Rhs[i]
			switch sel.Sel.Name {
			case "MaxAttempts":
				if n, ok := t.intOf(v); ok && n > 0 {
					cfg.attempts = limit(n) // NewStandard takes <= 0 as the default
				}
			case "Backoff":
				cfg.delay, cfg.delayAt = t.awsBackoff(v), v
			case "Retryables":
				t.awsRetryables(cfg, v)
			}
		}
		return true
	})
}

// adaptiveOption applies a func(*retry.AdaptiveModeOptions): the standard
// options it carries.
func (t *tracer) adaptiveOption(cfg *awsConfig, opt ast.Expr) {
	lit, o := t.optionBody(opt)
	if lit == nil {
		return
	}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, lhs := range as.Lhs {
			sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
			if !ok || keyOf(sel.X) != o || sel.Sel.Name != "StandardOptions" {
				continue
			}
			for _, e := range t.listItems(as.Rhs[i]) {
				t.standardOption(cfg, e)
			}
		}
		return true
	})
}

// listItems returns the elements a slice value is built of: a slice
// literal, or append(s, items...).
func (t *tracer) listItems(e ast.Expr) []ast.Expr {
	e = ast.Unparen(e)
	if lit, ok := e.(*ast.CompositeLit); ok {
		return lit.Elts
	}
	if call, ok := e.(*ast.CallExpr); ok {
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "append" && len(call.Args) > 0 {
			if _, ok := t.info.Uses[id].(*types.Builtin); ok {
				return call.Args[1:]
			}
		}
	}
	return nil
}

// awsBackoff reads a BackoffDelayer.
func (t *tracer) awsBackoff(v ast.Expr) Delay {
	if _, ok := t.calls(v, awsRetryPath, "NewExponentialJitterBackoff"); ok {
		return Delay{Grows: true, Random: true, Capped: true}
	}
	if call, ok := ast.Unparen(v).(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := t.info.Types[call.Fun]; ok && tv.IsType() && isNamed(tv.Type, awsRetryPath, "BackoffDelayerFunc") {
			if lit := t.funcLit(call.Args[0]); lit != nil {
				if d, ok := t.reader().funcDelay(lit.Type, lit.Body, 0); ok {
					return d
				}
			}
		}
	}
	return Delay{Unknown: true}
}

// awsRetryables reads the Retryables of the standard options: added or
// replaced checks that retry every error, or permanent error codes.
func (t *tracer) awsRetryables(cfg *awsConfig, v ast.Expr) {
	for _, item := range t.listItems(v) {
		if call, ok := ast.Unparen(item).(*ast.CallExpr); ok && call.Ellipsis.IsValid() {
			continue // o.Retryables = append(o.Retryables, retry.DefaultRetryables...)
		}
		classified, codes := t.awsRetryable(item)
		if !classified {
			cfg.classified = false
		}
		cfg.permanent = joinPermanent(cfg.permanent, awsPermanent(codes))
	}
}

// awsRetryable reads one IsErrorRetryable: a RetryableErrorCode set, or an
// IsErrorRetryableFunc literal run for each permanent error code and for
// an error without a code.
func (t *tracer) awsRetryable(item ast.Expr) (classified bool, codes []string) {
	item = ast.Unparen(t.resolve(item))
	if lit := compositeOf(item); lit != nil {
		if tv, ok := t.info.Types[lit]; ok && isNamed(tv.Type, awsRetryPath, "RetryableErrorCode") {
			if m := compositeOf(literalFields(lit)["Codes"]); m != nil {
				for _, kv := range m.Elts {
					if kv, ok := kv.(*ast.KeyValueExpr); ok {
						if s, ok := t.stringOf(kv.Key); ok && slices.Contains(awsPermanentCodes, s) {
							codes = append(codes, s)
						}
					}
				}
			}
		}
		return true, codes
	}
	call, ok := item.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return true, nil
	}
	if tv, ok := t.info.Types[call.Fun]; !ok || !tv.IsType() || !isNamed(tv.Type, awsRetryPath, "IsErrorRetryableFunc") {
		return true, nil
	}
	lit := t.funcLit(call.Args[0])
	if lit == nil {
		return true, nil
	}
	run := func(code string) tri {
		return t.awsScenario(code).retries(lit.Body)
	}
	all := run("") == triTrue
	for _, c := range []string{"AccessDenied", "ValidationException", "ThrottlingException", "InternalError"} {
		all = all && run(c) == triTrue
	}
	if all {
		return false, nil
	}
	for _, c := range awsPermanentCodes {
		if run(c) == triTrue && mentionsString(lit, c) {
			codes = append(codes, c)
		}
	}
	return true, codes
}

// awsScenario is an operation error with the error code ("" for an error
// without one).
func (t *tracer) awsScenario(code string) *scenario {
	s := &scenario{t: t.reader()}
	isCode := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "ErrorCode" && len(call.Args) == 0
	}
	s.value = func(e ast.Expr) constant.Value {
		if isCode(e) {
			return constant.MakeString(code)
		}
		return nil
	}
	s.truth = func(e ast.Expr) tri {
		switch x := e.(type) {
		case *ast.CallExpr:
			if _, ok := t.calls(x, "errors", "As"); ok {
				return triOf(code != "")
			}
		case *ast.BinaryExpr:
			if id, ok := ast.Unparen(x.Y).(*ast.Ident); ok && id.Name == "nil" && (x.Op == token.EQL || x.Op == token.NEQ) {
				if tv, ok := t.info.Types[x.X]; ok && isError(tv.Type) {
					return triOf(x.Op == token.NEQ)
				}
			}
		}
		return triUnknown
	}
	s.verdict = func(e ast.Expr) tri {
		switch {
		case t.refersTo(e, awsPath, "TrueTernary"):
			return triTrue
		case t.refersTo(e, awsPath, "FalseTernary"), t.refersTo(e, awsPath, "UnknownTernary"):
			return triFalse
		}
		if call, ok := t.calls(e, awsPath, "BoolTernary"); ok && len(call.Args) == 1 {
			return s.eval(call.Args[0])
		}
		return triUnknown
	}
	return s
}

// mentionsString reports whether a string literal with the value s
// appears in n.
func mentionsString(n ast.Node, s string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING {
			if v := constant.MakeFromLiteral(bl.Value, token.STRING, 0); v.Kind() == constant.String && constant.StringVal(v) == s {
				found = true
			}
		}
		return !found
	})
	return found
}

// awsServicePrefix is the import path prefix of the SDK's service clients
// (service/s3, service/cloudwatchlogs, ...).
const awsServicePrefix = "github.com/aws/aws-sdk-go-v2/service/"

// awsServiceCall recognises an operation of a service client,
// client.PutObject(ctx, input, optFns...): the client's retryer runs it,
// the standard one unless the code configured another (3 attempts,
// jittered, capped, transient errors only, ending with ctx). A retry loop
// around it is a second layer. Where the client is configured (a
// retryer, WithRetryMaxAttempts) is read by awsRetry; the call itself
// stands for the default, which is what a client built elsewhere has
// unless it says otherwise.
func awsServiceCall(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil || !sig.Variadic() || sig.Params().Len() != 3 || sig.Results().Len() != 2 {
		return nil
	}
	recv := sig.Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	if n, ok := types.Unalias(recv).(*types.Named); !ok || n.Obj().Name() != "Client" {
		return nil
	}
	if !isContextT(sig.Params().At(0).Type()) || !isError(sig.Results().At(1).Type()) {
		return nil
	}
	return &Retrier{
		Library:    "github.com/aws/aws-sdk-go-v2",
		Call:       call,
		Attempts:   awsDefaultAttempts,
		Context:    true,
		Waits:      true,
		Delay:      Delay{Grows: true, Random: true, Capped: true},
		DelayAt:    call.Fun,
		Classified: true,
		Configures: false,
	}
}

// isContextT reports whether t is context.Context.
func isContextT(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}
