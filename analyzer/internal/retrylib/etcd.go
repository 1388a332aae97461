package retrylib

import (
	"go/ast"
	"go/types"
)

const etcdPath = "go.etcd.io/etcd/client/v3"

// etcd's client retries in a gRPC interceptor that every client it builds
// installs (client/v3 v3.5, v3.6, options.go and retry_interceptor.go):
// a unary call that fails with Unavailable, where retrying is safe, is
// sent again up to defaultUnaryMaxRetries 100 times, 25ms apart with 10 %
// jitter, for as long as its context lasts; a watch stream is re-opened
// without limit. A retry loop around these calls is a second layer.
const etcdUnaryRetries = 100

// etcdUnary are the calls of the client's KV, Lease and Txn that go
// through the unary interceptor.
var etcdUnary = map[string]bool{
	"Get": true, "Put": true, "Delete": true, "Compact": true, "Do": true, "Commit": true,
	"Grant": true, "Revoke": true, "TimeToLive": true, "KeepAliveOnce": true,
}

// etcd recognises a call that etcd's client retries by itself: a KV, Txn
// or Lease call (Attempts 101), or a Watch (re-opened until its context
// ends). The retries are classified (Unavailable only), jittered, and end
// with the call's context.
func etcd(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	r := &Retrier{
		Library:    etcdPath,
		Call:       call,
		Context:    true,
		Waits:      true,
		Delay:      Delay{Random: true, Capped: true},
		DelayAt:    call.Fun,
		Classified: true,
	}
	switch {
	case etcdUnary[fn.Name()]:
		r.Attempts = etcdUnaryRetries + 1
	case fn.Name() == "Watch":
		r.Attempts = 0
	default:
		return nil
	}
	return r
}
