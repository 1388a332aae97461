// Package retrypermanent defines an Analyzer that reports retry-permanent findings.
//
// # Analyzer retrypermanent
//
// retrypermanent: A retry loop's classification retries failures that cannot succeed, such as 400, 401, 403 or an open circuit breaker.
//
// Some failures cannot succeed on retry: HTTP 400, 401, 403, 404, 405, 410
// and 422, and gRPC InvalidArgument, PermissionDenied, Unauthenticated and
// NotFound. A circuit breaker's open error (gobreaker.ErrOpenState,
// hystrix.ErrCircuitOpen, or any error whose name says a circuit or breaker
// is open) means the breaker is failing fast on purpose; a retry layer
// around it must give up at once or it defeats the breaker.
//
//	if resp.StatusCode >= 400 { // retries 400, 401, 403 ...
//		time.Sleep(backoff(attempt))
//		continue
//	}
//
// Return these failures at once; retry 408, 409 (after a re-read), 425, 429
// and 5xx, and gRPC Unavailable, DeadlineExceeded, ResourceExhausted and
// Aborted.
//
// The rule's name is retry-permanent. Suppress one finding with
// //retrylint:ignore retry-permanent reason on its line or the line above.
package retrypermanent
