package retrylib

import (
	"encoding/json"
	"go/ast"
	"go/types"
	"strconv"
	"strings"
	"time"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
)

const grpcPath = "google.golang.org/grpc"

// grpcMaxAttempts is the most attempts gRPC (v1.85.0) makes whatever the
// service config asks for, unless grpc.WithMaxCallAttempts raises it.
const grpcMaxAttempts = 5

// grpcServiceConfig recognises the retries of a gRPC channel: the
// grpc.NewClient (or Dial, DialContext) call given
// grpc.WithDefaultServiceConfig with a methodConfig retryPolicy. gRPC
// waits random(0, min(initialBackoff×multiplier^n, maxBackoff)) between
// attempts, so the wait is jittered and capped by design; the policy
// retries only its retryableStatusCodes. A config that cannot be read (not
// a constant, malformed JSON, an invalid policy gRPC rejects) gives none.
func grpcServiceConfig(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	if sig, _ := fn.Type().(*types.Signature); sig == nil || sig.Recv() != nil {
		return nil
	}
	t := newReader(info, call, enclosing)
	first := 1
	switch fn.Name() {
	case "NewClient", "Dial":
	case "DialContext":
		first = 2
	case "WithDefaultServiceConfig":
		// Options built for a dial elsewhere (a helper returning
		// []grpc.DialOption): the policy is read here, at the option.
		if len(call.Args) != 1 || t.dials() {
			return nil
		}
		return t.grpcRetrier(call, call.Args[0], grpcMaxAttempts)
	default:
		return nil
	}
	if len(call.Args) <= first {
		return nil
	}
	var cfgArg ast.Expr
	maxAttempts := grpcMaxAttempts
	for _, opt := range t.dialOptions(call, first) {
		c, ok := ast.Unparen(opt).(*ast.CallExpr)
		if !ok {
			continue
		}
		fn := callee(t.info, c)
		switch {
		case isFunc(fn, grpcPath, "WithDisableRetry"):
			return nil
		case isFunc(fn, grpcPath, "WithDefaultServiceConfig") && len(c.Args) == 1:
			cfgArg = c.Args[0]
		case isFunc(fn, grpcPath, "WithMaxCallAttempts") && len(c.Args) == 1:
			if n, ok := t.integer(c.Args[0]); ok && n >= 2 {
				maxAttempts = int(n)
			}
		}
	}
	if cfgArg == nil {
		return nil
	}
	return t.grpcRetrier(call, cfgArg, maxAttempts)
}

// dials reports whether the function dials a gRPC channel: options built
// in it are read at that dial.
func (t *reader) dials() bool {
	found := false
	if t.body == nil {
		return false
	}
	ast.Inspect(t.body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if _, ok := isCall(t.info, c, grpcPath, "NewClient", "Dial", "DialContext"); ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// grpcRetrier reads the service config cfgArg gives to the channel call
// makes or configures.
func (t *reader) grpcRetrier(call *ast.CallExpr, cfgArg ast.Expr, maxAttempts int) *Retrier {
	text, ok := t.text(cfgArg)
	if !ok {
		return nil
	}
	policy, ok := readRetryPolicy(text)
	if !ok {
		return nil
	}
	return &Retrier{
		Library:    grpcPath,
		Call:       call,
		Configures: true, // the RPCs on the channel retry, not the dial
		Attempts:   min(policy.attempts, maxAttempts),
		Context:    true, // every RPC carries its context; gRPC's waits end with it
		Waits:      true,
		Delay:      Delay{Grows: policy.grows, Random: true, Capped: true},
		DelayAt:    cfgArg,
		Classified: true,
		Permanent:  policy.permanent,
		Fixes: map[string]string{
			"retry-permanent": "remove them from retryableStatusCodes in the service config's retryPolicy and retry only UNAVAILABLE (or RESOURCE_EXHAUSTED, ABORTED)",
		},
	}
}

// dialOptions lists the options given to a dial call from the argument
// first on: written out, or the elements of the slice spread there (a
// literal and appends to it, a package variable, a helper's result). An
// option made in a function that does not dial is read where it is made,
// not here as well.
func (t *reader) dialOptions(call *ast.CallExpr, first int) []ast.Expr {
	opts, _ := t.options(call, first)
	var out []ast.Expr
	for _, opt := range opts {
		if body := t.declaringBody(opt.Pos()); body != nil && body != t.body && !t.at(body, body.End()).dials() {
			continue
		}
		out = append(out, opt)
	}
	return out
}

// retryPolicy is what the methodConfig retry policies of a service config
// add up to: the most attempts any allows, whether any backoff grows, and
// the permanent status codes any retries.
type retryPolicy struct {
	attempts  int
	grows     bool
	permanent []string
}

type jsonRetryPolicy struct {
	MaxAttempts          int
	InitialBackoff       string
	MaxBackoff           string
	BackoffMultiplier    float64
	RetryableStatusCodes []json.RawMessage
}

type jsonServiceConfig struct {
	MethodConfig []struct {
		RetryPolicy *jsonRetryPolicy
	}
}

// readRetryPolicy parses a service config as gRPC does and reads its retry
// policies; ok is false when there is none or gRPC would reject the config.
func readRetryPolicy(text string) (retryPolicy, bool) {
	var sc jsonServiceConfig
	if err := json.Unmarshal([]byte(text), &sc); err != nil {
		return retryPolicy{}, false
	}
	var p retryPolicy
	seen := map[int]bool{}
	for _, mc := range sc.MethodConfig {
		rp := mc.RetryPolicy
		if rp == nil {
			continue
		}
		initial, ok1 := grpcDuration(rp.InitialBackoff)
		maxB, ok2 := grpcDuration(rp.MaxBackoff)
		if rp.MaxAttempts <= 1 || !ok1 || !ok2 || initial <= 0 || maxB <= 0 || rp.BackoffMultiplier <= 0 || len(rp.RetryableStatusCodes) == 0 {
			return retryPolicy{}, false // gRPC rejects the whole config
		}
		p.attempts = max(p.attempts, rp.MaxAttempts)
		p.grows = p.grows || (rp.BackoffMultiplier > 1 && maxB > initial)
		for _, raw := range rp.RetryableStatusCodes {
			n, ok := grpcCode(raw)
			if !ok {
				return retryPolicy{}, false
			}
			if failure.PermanentGRPC(n) && !seen[n] {
				seen[n] = true
				p.permanent = append(p.permanent, failure.DescribeGRPC(n))
			}
		}
	}
	return p, p.attempts > 0
}

// grpcDuration parses a service-config duration: seconds with a
// fraction and an "s" suffix ("0.1s").
func grpcDuration(s string) (time.Duration, bool) {
	num, ok := strings.CutSuffix(s, "s")
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, false
	}
	return time.Duration(f * float64(time.Second)), true
}

// grpcCode reads a status code given by name ("UNAVAILABLE") or number.
func grpcCode(raw json.RawMessage) (int, bool) {
	var n int
	if err := json.Unmarshal(raw, &n); err == nil {
		return n, n >= 0 && n < failure.GRPCCodes
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, false
	}
	return failure.GRPCConfigCode(s)
}
