package grpcconn

import (
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// searchOptions are package-level dial options whose policy retries
// NOT_FOUND: read at the dial that spreads them.
var searchOptions = []grpc.DialOption{
	grpc.WithTransportCredentials(insecure.NewCredentials()),
	grpc.WithDefaultServiceConfig(`{"methodConfig":[{"name":[{"service":"search.v1.Search"}],"retryPolicy":{"maxAttempts":3,"initialBackoff":"0.1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE","NOT_FOUND"]}}]}`),
}

// DialSearch dials with the package's options.
func DialSearch(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, searchOptions...) // want `retry-permanent: grpc.NewClient retries gRPC NotFound`
}

// billingPolicy returns the billing service's config, which retries
// UNAUTHENTICATED.
func billingPolicy() string {
	return `{"methodConfig":[{"name":[{"service":"billing.v1.Billing"}],"retryPolicy":{"maxAttempts":3,"initialBackoff":"0.1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE","UNAUTHENTICATED"]}}]}`
}

// DialBilling takes its config from a helper.
func DialBilling(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultServiceConfig(billingPolicy())) // want `retry-permanent: grpc.NewClient retries gRPC Unauthenticated`
}

// DialLedger dials with the options of a helper that reports its own
// policy where it builds it: the dial adds nothing.
func DialLedger(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, ledgerOptions()...)
}
