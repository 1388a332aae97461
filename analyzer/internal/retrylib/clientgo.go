package retrylib

import (
	"go/ast"
	"go/types"

	"github.com/retrylint/retrylint/analyzer/internal/failure"
)

const clientgoRetryPath = "k8s.io/client-go/util/retry"

// clientgoRetry recognises the retries of k8s.io/client-go/util/retry:
// RetryOnConflict(backoff, fn) retries conflicts only (409, which SPEC §2
// counts as retryable after a re-read), and OnError(backoff, retriable, fn)
// retries what retriable accepts. Both run wait.ExponentialBackoff with the
// back-off given, without a context.
func clientgoRetry(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	if sig, _ := fn.Type().(*types.Signature); sig == nil || sig.Recv() != nil {
		return nil
	}
	t := newReader(info, call, enclosing)
	switch fn.Name() {
	case "RetryOnConflict":
		if len(call.Args) != 2 {
			return nil
		}
		cond := conditionInfo{known: true, retries: true, classified: true}
		return t.backoffRetrier(clientgoRetryPath, call, call.Args[0], call.Args[1], nil, &cond)
	case "OnError":
		if len(call.Args) != 3 {
			return nil
		}
		cond := t.retriable(call.Args[1])
		return t.backoffRetrier(clientgoRetryPath, call, call.Args[0], call.Args[2], nil, &cond)
	}
	return nil
}

// retriable reads OnError's predicate: an apierrors predicate, a function
// literal over the error (run for each kind of API error), or a function
// of its own, which is taken to classify.
func (t *reader) retriable(e ast.Expr) conditionInfo {
	info := conditionInfo{known: true, retries: true, classified: true}
	if fn := t.funcValue(e); fn != nil {
		if fn.Pkg() != nil && Path(fn.Pkg()) == k8sErrorsPath {
			if c, ok := k8sKinds[fn.Name()]; ok && failure.PermanentHTTP(c) {
				info.permanent = httpPermanent([]int{c})
			}
		}
		return info
	}
	lit, in := t.funcLit(e)
	if lit == nil {
		return info
	}
	body := lit.Body
	errs := map[types.Object]bool{}
	if p := paramObj(in.info, lit.Type, 0); p != nil {
		errs[p] = true
	}
	for obj := range in.errorVars(body) {
		errs[obj] = true
	}
	run := func(kind string) tri {
		s := in.k8sScenario(errs, kind)
		s.verdict = s.boolVerdict
		return s.retries(body)
	}
	all := run("") == triTrue
	var permanent []int
	for _, kind := range sortedKinds() {
		v := run(kind)
		all = all && v == triTrue
		if c := k8sKinds[kind]; v == triTrue && failure.PermanentHTTP(c) && in.mentions(body, kind) {
			permanent = append(permanent, c)
		}
	}
	info.classified = !all
	if info.classified {
		info.permanent = httpPermanent(permanent)
	}
	return info
}

// funcValue returns the function a function-valued expression names
// (apierrors.IsConflict, isRetryable), or nil.
func (t *reader) funcValue(e ast.Expr) *types.Func {
	id := nameIdent(e)
	if id == nil {
		return nil
	}
	fn, _ := t.info.Uses[id].(*types.Func)
	return fn
}
