package retryloop

import "github.com/retrylint/retrylint/analyzer/internal/failure"

// RetriedCodes is what a retry loop's failure paths retry, read by HTTP
// status and gRPC code, for the topology's app layer: a loop that retries
// only on 429 retries the signal http-429 and nothing else.
type RetriedCodes struct {
	// All: some failure path goes round without a code test that narrows
	// it (an unclassified error, or a predicate the analysis cannot read),
	// so every failure may be retried.
	All bool
	// HTTP lists the statuses, 400 and above, some failure path retries
	// after a status test, ascending.
	HTTP []int
	// GRPC lists the names of the gRPC codes some failure path retries
	// after a code test ("Unavailable"), in code order.
	GRPC []string
}

// retriedCodes gathers what the failure paths of a loop retry.
func retriedCodes(failing []*path) *RetriedCodes {
	rc := &RetriedCodes{}
	var http failure.HTTPSet
	var grpc failure.GRPCSet
	for _, p := range failing {
		switch {
		case p.predicated || !p.http.Narrowed && !p.grpc.Narrowed:
			rc.All = true
		case p.http.Narrowed:
			http = http.Union(p.http)
		default:
			grpc = grpc.Union(p.grpc)
		}
	}
	for c := 400; c < 600; c++ {
		if http.Has(c) {
			rc.HTTP = append(rc.HTTP, c)
		}
	}
	for c := 1; c < failure.GRPCCodes; c++ {
		if grpc.Has(c) {
			rc.GRPC = append(rc.GRPC, failure.GRPCName(c))
		}
	}
	return rc
}
