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
	t := newReader(info, call, enclosing)
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
		if n, ok := t.integer(call.Args[0]); ok && n != 0 {
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

// awsWrappers are the functions of aws/retry that wrap a retryer.
var awsWrappers = []string{"AddWithMaxAttempts", "AddWithMaxBackoffDelay", "AddWithErrorCodes"}

// wrappedLater reports whether the retryer a call builds is handed to an
// AddWith* wrapper in the function, directly or through a variable: the
// wrapper is the configuration read.
func (t *reader) wrappedLater(call *ast.CallExpr) bool {
	if p, ok := t.parent(call).(*ast.CallExpr); ok && len(p.Args) > 0 && ast.Unparen(p.Args[0]) == ast.Expr(call) {
		if _, ok := isCall(t.info, p, awsRetryPath, awsWrappers...); ok {
			return true
		}
	}
	var held ref
	switch p := t.parent(call).(type) {
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if ast.Unparen(r) == ast.Expr(call) && i < len(p.Lhs) {
				held = t.refOf(p.Lhs[i])
			}
		}
	case *ast.ValueSpec:
		for i, v := range p.Values {
			if ast.Unparen(v) == ast.Expr(call) && i < len(p.Names) {
				held = t.refOf(p.Names[i])
			}
		}
	}
	if held == nil || t.body == nil {
		return false
	}
	found := false
	ast.Inspect(t.body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && c.Pos() > call.Pos() && len(c.Args) > 0 && t.refers(c.Args[0], held) {
			if _, ok := isCall(t.info, c, awsRetryPath, awsWrappers...); ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// hasSiblingOption reports whether the call is an argument of a call that
// also takes path.name(...) as an argument.
func (t *reader) hasSiblingOption(call *ast.CallExpr, path, name string) bool {
	p, ok := t.parent(call).(*ast.CallExpr)
	if !ok {
		return false
	}
	for _, a := range p.Args {
		if _, ok := isCall(t.info, a, path, name); ok {
			return true
		}
	}
	return false
}

// awsRetryer reads the retryer an expression gives.
func (t *reader) awsRetryer(e ast.Expr, depth int) awsConfig {
	if depth > 8 {
		return awsDefaults(e)
	}
	v, where := t.value(e)
	if lit := compositeOf(v); lit != nil {
		if tv, ok := where.info.Types[lit]; ok && isNamed(tv.Type, awsPath, "NopRetryer") {
			return awsConfig{none: true}
		}
	}
	call, ok := ast.Unparen(v).(*ast.CallExpr)
	if !ok {
		return awsDefaults(e)
	}
	fn := callee(where.info, call)
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
			where.standardOption(&cfg, opt)
		}
		return cfg
	case isFunc(fn, awsRetryPath, "NewAdaptiveMode"):
		cfg := awsDefaults(call)
		for _, opt := range call.Args {
			where.adaptiveOption(&cfg, opt)
		}
		return cfg
	case isFunc(fn, awsRetryPath, "AddWithMaxAttempts") && arg(1) != nil:
		cfg := where.awsRetryer(arg(0), depth+1)
		if n, ok := where.integer(arg(1)); ok {
			cfg.attempts = limit(n)
		}
		return cfg
	case isFunc(fn, awsRetryPath, "AddWithMaxBackoffDelay") && arg(1) != nil:
		cfg := where.awsRetryer(arg(0), depth+1)
		cfg.delay = Delay{Grows: true, Random: true, Capped: true}
		cfg.delayAt = call
		return cfg
	case isFunc(fn, awsRetryPath, "AddWithErrorCodes") && arg(0) != nil:
		cfg := where.awsRetryer(arg(0), depth+1)
		var codes []string
		for _, a := range call.Args[1:] {
			if s, ok := where.text(a); ok && slices.Contains(awsPermanentCodes, s) {
				codes = append(codes, s)
			}
		}
		cfg.permanent = joinPermanent(cfg.permanent, awsPermanent(codes))
		return cfg
	}
	return awsDefaults(e)
}

// joinPermanent merges lists of permanent failures, keeping the first
// occurrence of each.
func joinPermanent(lists ...[]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range lists {
		for _, s := range l {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
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

// optionParam returns the one parameter of a functional option, nil
// when it has not one named parameter.
func (t *reader) optionParam(ft *ast.FuncType) types.Object {
	if ft == nil || len(ft.Params.List) != 1 || len(ft.Params.List[0].Names) != 1 {
		return nil
	}
	return t.info.Defs[ft.Params.List[0].Names[0]]
}

// optionSets calls set for each field a functional option (a literal, a
// variable holding one, a function of the package) assigns on its
// parameter: o.MaxAttempts = 5. in reads the option's body.
func (t *reader) optionSets(opt ast.Expr, set func(in *reader, field string, v ast.Expr)) {
	ft, body, in := t.funcOf(opt)
	o := in.optionParam(ft)
	if body == nil || o == nil {
		return
	}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, lhs := range as.Lhs {
			if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok && in.refers(sel.X, ref{o}) {
				set(in, sel.Sel.Name, as.Rhs[i])
			}
		}
		return true
	})
}

// standardOption applies a func(*retry.StandardOptions).
func (t *reader) standardOption(cfg *awsConfig, opt ast.Expr) {
	t.optionSets(opt, func(in *reader, field string, v ast.Expr) {
		switch field {
		case "MaxAttempts":
			if n, ok := in.integer(v); ok && n > 0 {
				cfg.attempts = limit(n) // NewStandard takes <= 0 as the default
			}
		case "Backoff":
			cfg.delay, cfg.delayAt = in.awsBackoff(v), v
		case "Retryables":
			in.awsRetryables(cfg, v)
		}
	})
}

// adaptiveOption applies a func(*retry.AdaptiveModeOptions): the standard
// options it carries.
func (t *reader) adaptiveOption(cfg *awsConfig, opt ast.Expr) {
	t.optionSets(opt, func(in *reader, field string, v ast.Expr) {
		if field != "StandardOptions" {
			return
		}
		opts, _ := in.sliceElems(v, 0)
		for _, e := range opts {
			in.standardOption(cfg, e)
		}
	})
}

// awsBackoff reads a BackoffDelayer.
func (t *reader) awsBackoff(v ast.Expr) Delay {
	x, where := t.valueUntil(v, func(e ast.Expr, in *reader) bool {
		_, ok := conversionTo(in.info, e, awsRetryPath, "BackoffDelayerFunc")
		return ok
	})
	if _, ok := isCall(where.info, x, awsRetryPath, "NewExponentialJitterBackoff"); ok {
		return Delay{Grows: true, Random: true, Capped: true}
	}
	if f, ok := conversionTo(where.info, x, awsRetryPath, "BackoffDelayerFunc"); ok {
		if ft, body, in := where.funcOf(f); body != nil {
			if d, ok := in.funcDelay(ft, body, 0); ok {
				return d
			}
		}
	}
	return Delay{Unknown: true}
}

// awsRetryables reads the Retryables of the standard options: added or
// replaced checks that retry every error, or permanent error codes.
func (t *reader) awsRetryables(cfg *awsConfig, v ast.Expr) {
	items, _ := t.sliceElems(v, 0)
	for _, item := range items {
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
func (t *reader) awsRetryable(item ast.Expr) (classified bool, codes []string) {
	x, where := t.valueUntil(item, func(e ast.Expr, in *reader) bool {
		_, ok := conversionTo(in.info, e, awsRetryPath, "IsErrorRetryableFunc")
		return ok
	})
	if lit := compositeOf(x); lit != nil {
		if tv, ok := where.info.Types[lit]; ok && isNamed(tv.Type, awsRetryPath, "RetryableErrorCode") {
			if set := structFields(lit).value["Codes"]; set != nil {
				set, in := where.value(set)
				if m := compositeOf(set); m != nil {
					for _, kv := range m.Elts {
						if kv, ok := kv.(*ast.KeyValueExpr); ok {
							if s, ok := in.text(kv.Key); ok && slices.Contains(awsPermanentCodes, s) {
								codes = append(codes, s)
							}
						}
					}
				}
			}
		}
		return true, codes
	}
	f, ok := conversionTo(where.info, x, awsRetryPath, "IsErrorRetryableFunc")
	if !ok {
		return true, nil
	}
	lit, in := where.funcLit(f)
	if lit == nil {
		return true, nil // a check of its own, taken to classify
	}
	run := func(code string) tri {
		return in.awsScenario(code).retries(lit.Body)
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
func (t *reader) awsScenario(code string) *scenario {
	s := t.newScenario()
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
			if _, ok := isCall(t.info, x, "errors", "As"); ok {
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
		case refersTo(t.info, e, awsPath, "TrueTernary"):
			return triTrue
		case refersTo(t.info, e, awsPath, "FalseTernary"), refersTo(t.info, e, awsPath, "UnknownTernary"):
			return triFalse
		}
		if call, ok := isCall(t.info, e, awsPath, "BoolTernary"); ok && len(call.Args) == 1 {
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
