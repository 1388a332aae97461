package workflows

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Names of the built-in retry policies and predicates (GCP-SEMANTICS §2.2).
const (
	DefaultRetry                       = "http.default_retry"
	DefaultRetryNonIdempotent          = "http.default_retry_non_idempotent"
	DefaultRetryPredicate              = "http.default_retry_predicate"
	DefaultRetryPredicateNonIdempotent = "http.default_retry_predicate_non_idempotent"
	DefaultBackoff                     = "retry.default_backoff"
)

// Built-in retry policy numbers (GCP-SEMANTICS §2.2).
const (
	defaultPolicyRetries = 5
	defaultInitialDelay  = 1
	defaultMaxDelay      = 60
	defaultMultiplier    = 1.25
)

// Failure signals, in the vocabulary of SPEC §3.
const (
	SignalHTTP429        = "http-429"
	SignalHTTP4xx        = "http-4xx"
	SignalHTTP5xx        = "http-5xx"
	SignalConnection     = "connection"
	SignalTimeout        = "timeout"
	SignalOperationError = "operation-error"
	SignalWorkflowFailed = "workflow-failed"
)

// retryPolicy reads the value of retry:. The predicate is resolved later, once subworkflows are known.
func (d *decoder) retryPolicy(n *yaml.Node) (*Retry, error) {
	r := &Retry{Pos: d.pos(n), MaxRetries: -1}
	switch n.Kind {
	case yaml.ScalarNode:
		x, isExpr, err := d.expr(n)
		if err != nil {
			return nil, err
		}
		if !isExpr {
			return nil, d.errorf(n, "retry must be a policy expression such as ${http.default_retry} or a mapping with predicate, max_retries and backoff")
		}
		r.Predicate = dottedName(x)
		if r.Predicate == DefaultRetry || r.Predicate == DefaultRetryNonIdempotent {
			r.MaxRetries = defaultPolicyRetries
			r.Backoff = &Backoff{Initial: defaultInitialDelay, Max: defaultMaxDelay, Multiplier: defaultMultiplier, Pos: r.Pos}
		}
		return r, nil
	case yaml.MappingNode:
	default:
		return nil, d.errorf(n, "retry must be a policy expression such as ${http.default_retry} or a mapping with predicate, max_retries and backoff")
	}
	keys, vals, err := d.pairs(n)
	if err != nil {
		return nil, err
	}
	hasPredicate := false
	for i, k := range keys {
		v := vals[i]
		switch k.Value {
		case "predicate":
			hasPredicate = true
			x, isExpr, err := d.expr(v)
			if err != nil {
				return nil, err
			}
			if !isExpr || dottedName(x) == "" {
				return nil, d.errorf(v, "retry predicate must be an expression naming a predicate, e.g. ${http.default_retry_predicate}")
			}
			r.Predicate = dottedName(x)
		case "max_retries":
			f, ok, err := d.number(v)
			if err != nil {
				return nil, err
			}
			if ok {
				if f < 0 || f != float64(int(f)) {
					return nil, d.errorf(v, "max_retries must be a non-negative integer")
				}
				r.MaxRetries = int(f)
			}
		case "backoff":
			if r.Backoff, err = d.backoff(v); err != nil {
				return nil, err
			}
		default:
			return nil, d.errorf(k, "unknown key %q in retry policy: expected predicate, max_retries, backoff", k.Value)
		}
	}
	if !hasPredicate {
		return nil, d.errorf(n, "retry policy has no predicate:")
	}
	return r, nil
}

// number reads a numeric scalar or a constant expression. ok is false for an expression whose
// value is not known statically.
func (d *decoder) number(n *yaml.Node) (float64, bool, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, false, d.errorf(n, "expected a number")
	}
	x, isExpr, err := d.expr(n)
	if err != nil {
		return 0, false, err
	}
	if isExpr {
		if x != nil {
			if v := eval(x, nil); v.kind == valNumber {
				return v.n, true, nil
			}
		}
		return 0, false, nil
	}
	f, err := strconv.ParseFloat(n.Value, 64)
	if err != nil {
		return 0, false, d.errorf(n, "expected a number, found %q", n.Value)
	}
	return f, true, nil
}

// backoff reads a backoff mapping or ${retry.default_backoff}.
func (d *decoder) backoff(n *yaml.Node) (*Backoff, error) {
	b := &Backoff{Pos: d.pos(n)}
	if n.Kind == yaml.ScalarNode {
		x, isExpr, err := d.expr(n)
		if err != nil {
			return nil, err
		}
		if isExpr && dottedName(x) == DefaultBackoff {
			b.Initial, b.Max, b.Multiplier = defaultInitialDelay, defaultMaxDelay, defaultMultiplier
			return b, nil
		}
		if isExpr {
			return b, nil // a policy held in a variable: numbers unknown
		}
	}
	if n.Kind != yaml.MappingNode {
		return nil, d.errorf(n, "backoff must be a mapping with initial_delay, max_delay, multiplier")
	}
	keys, vals, err := d.pairs(n)
	if err != nil {
		return nil, err
	}
	for i, k := range keys {
		var dst *float64
		switch k.Value {
		case "initial_delay":
			dst = &b.Initial
		case "max_delay":
			dst = &b.Max
		case "multiplier":
			dst = &b.Multiplier
		default:
			return nil, d.errorf(k, "unknown key %q in backoff: expected initial_delay, max_delay, multiplier", k.Value)
		}
		f, ok, err := d.number(vals[i])
		if err != nil {
			return nil, err
		}
		if ok {
			*dst = f
		}
	}
	return b, nil
}
