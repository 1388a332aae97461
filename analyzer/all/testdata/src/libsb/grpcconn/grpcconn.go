// Package grpcconn dials gRPC services with retry policies in their
// default service config.
package grpcconn

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// retryConfig retries the order service on Unavailable only.
const retryConfig = `{
  "methodConfig": [{
    "name": [{"service": "orders.v1.Orders"}],
    "timeout": "5s",
    "retryPolicy": {
      "maxAttempts": 4,
      "initialBackoff": "0.1s",
      "maxBackoff": "2s",
      "backoffMultiplier": 2.0,
      "retryableStatusCodes": ["UNAVAILABLE", "RESOURCE_EXHAUSTED"]
    }
  }]
}`

// DialOrders dials with a sound policy.
func DialOrders(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(retryConfig),
	)
}

// DialCatalog also retries NOT_FOUND, waiting for an item to be indexed.
func DialCatalog(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, // want `retry-permanent: grpc.NewClient retries gRPC NotFound, which cannot succeed on retry; .*; remove them from retryableStatusCodes`
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(`{"methodConfig": [{"name": [{"service": "catalog.v1.Catalog"}],
			"retryPolicy": {"maxAttempts": 5, "initialBackoff": "0.2s", "maxBackoff": "5s", "backoffMultiplier": 2,
			"retryableStatusCodes": ["UNAVAILABLE", "NOT_FOUND"]}}]}`),
	)
}

const maxAttempts = 3

// DialUsers builds the policy with Sprintf and retries INVALID_ARGUMENT.
func DialUsers(ctx context.Context, target string) (*grpc.ClientConn, error) {
	cfg := fmt.Sprintf(`{"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":%d,"initialBackoff":"0.5s","maxBackoff":"3s","backoffMultiplier":1.5,"retryableStatusCodes":["UNAVAILABLE","INVALID_ARGUMENT"]}}]}`, maxAttempts)
	return grpc.DialContext(ctx, target, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultServiceConfig(cfg)) // want `retry-permanent: grpc.DialContext retries gRPC InvalidArgument`
}

// DialAuth collects its options in a slice; the policy retries
// UNAUTHENTICATED by number (16) as well.
func DialAuth(target string) (*grpc.ClientConn, error) {
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	opts = append(opts, grpc.WithDefaultServiceConfig(`{"methodConfig":[{"name":[{"service":"auth.v1.Auth"}],"retryPolicy":{"maxAttempts":3,"initialBackoff":"1s","maxBackoff":"4s","backoffMultiplier":2,"retryableStatusCodes":[14,16]}}]}`))
	return grpc.NewClient(target, opts...) // want `retry-permanent: grpc.NewClient retries gRPC Unauthenticated`
}

// DialNoRetry turns retries off, whatever the config says.
func DialNoRetry(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(`{"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":3,"initialBackoff":"1s","maxBackoff":"4s","backoffMultiplier":2,"retryableStatusCodes":["NOT_FOUND"]}}]}`),
		grpc.WithDisableRetry(),
	)
}

// DialInvalid has a policy gRPC rejects (one attempt): no retries.
func DialInvalid(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(`{"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":1,"initialBackoff":"1s","maxBackoff":"4s","backoffMultiplier":2,"retryableStatusCodes":["NOT_FOUND"]}}]}`),
	)
}

// DialMalformed has a config that does not parse: gRPC refuses it.
func DialMalformed(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(`{"methodConfig":[{"retryPolicy":{"maxAttempts":3,"retryableStatusCodes":["NOT_FOUND"]`),
	)
}

// DialFromEnv reads its config at run time.
func DialFromEnv(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(os.Getenv("GRPC_SERVICE_CONFIG")),
	)
}

// DialTimeoutOnly sets a timeout and no retry policy.
func DialTimeoutOnly(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(`{"methodConfig":[{"name":[{}],"timeout":"3s"}],"loadBalancingConfig":[{"round_robin":{}}]}`),
	)
}

// serviceConfig is a package variable read by DialInventory.
var serviceConfig = `{"methodConfig":[{"name":[{"service":"inventory.v1.Inventory"}],"retryPolicy":{"maxAttempts":4,"initialBackoff":"0.1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE","PERMISSION_DENIED"]}}]}`

// DialInventory retries PERMISSION_DENIED.
func DialInventory(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultServiceConfig(serviceConfig)) // want `retry-permanent: grpc.NewClient retries gRPC PermissionDenied`
}

// sharedOptions are built elsewhere: nothing to read here.
func sharedOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
}

// DialShared dials with options from a helper.
func DialShared(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, sharedOptions()...)
}

// policyTemplate is filled with the service name.
const policyTemplate = `{"methodConfig":[{"name":[{"service":"%s"}],"retryPolicy":{"maxAttempts":3,"initialBackoff":"0.2s","maxBackoff":"2s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE","%s"]}}]}`

// DialService fills the template at run time.
func DialService(target, service string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()), // want `retry-permanent: grpc.NewClient retries gRPC NotFound`
		grpc.WithDefaultServiceConfig(fmt.Sprintf(policyTemplate, service, "NOT_FOUND")))
}

// DialTuned takes its attempts at run time: nothing to read.
func DialTuned(target string, attempts int) (*grpc.ClientConn, error) {
	return grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(fmt.Sprintf(`{"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":%d,"initialBackoff":"0.2s","maxBackoff":"2s","backoffMultiplier":2,"retryableStatusCodes":["NOT_FOUND"]}}]}`, attempts)))
}

// errBadTarget is a target that no retry fixes.
var errBadTarget = errors.New("bad target")

// Connect dials until the target resolves; the RPCs retry, not the dial,
// so the loop is no nested retry.
func Connect(ctx context.Context, target string) (*grpc.ClientConn, error) {
	for attempt := 0; attempt < 5; attempt++ {
		conn, err := DialOrders(target)
		if err == nil {
			return conn, nil
		}
		if errors.Is(err, errBadTarget) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(rand.N(min(time.Second<<attempt, 10*time.Second))):
		}
	}
	return nil, fmt.Errorf("dial %s: gave up", target)
}

// ledgerOptions are the dial options of the ledger clients, dialled
// elsewhere; the policy retries NOT_FOUND.
func ledgerOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(`{"methodConfig":[{"name":[{"service":"ledger.v1.Ledger"}],"retryPolicy":{"maxAttempts":3,"initialBackoff":"0.1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE","NOT_FOUND"]}}]}`), // want `retry-permanent: grpc.WithDefaultServiceConfig retries gRPC NotFound`
	}
}

// paymentOptions are sound.
func paymentOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithDefaultServiceConfig(retryConfig)}
}
