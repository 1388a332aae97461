// Package unclassifiedretry defines an Analyzer that reports unclassified-retry findings.
//
// # Analyzer unclassifiedretry
//
// unclassifiedretry: A retry loop retries every error without looking at it, so permanent failures are retried as if they could succeed.
//
// A retry loop whose failure path never looks at the error retries
// permanent failures (bad request, unauthorised, forbidden, validation
// errors) exactly like transient ones: those retries cannot succeed and only
// add load to a dependency that may already be struggling.
//
//	for attempt := 0; attempt < 3; attempt++ { // unclassified-retry
//		if err = send(msg); err == nil {
//			return nil
//		}
//		time.Sleep(wait(attempt))
//	}
//
// Retry only transient failures: test the error with errors.Is or errors.As,
// a type switch, a status-code comparison, Timeout(), or a predicate such as
// isRetryable(err).
//
// The rule's name is unclassified-retry. Suppress one finding with
// //retrylint:ignore unclassified-retry reason on its line or the line above.
package unclassifiedretry
