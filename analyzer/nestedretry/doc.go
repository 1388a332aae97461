// Package nestedretry defines an Analyzer that reports nested-retry
// findings.
//
// # Analyzer nestedretry
//
// nestedretry: A retry loop's operation retries too, so the attempts of the two layers multiply against a dependency that is already failing.
//
// A retry loop whose operation — directly, through a helper or a retry
// wrapper, or in another package — runs a retry loop of its own makes the
// attempts of both layers multiply: a loop of 4 attempts around a client
// that makes 5 calls each sends 20 requests per call to a dependency that
// is already failing.
//
//	for attempt := 0; attempt < 4; attempt++ { // nested-retry: (3+1)×(4+1) = 20 attempts
//		if err := client.GetWithRetry(ctx, key); err == nil {
//			return nil
//		}
//		time.Sleep(backoff(attempt))
//	}
//
// Keep one retry layer: the outermost one that knows the budget, and make
// the inner call single-shot.
//
// The rule's name is nested-retry. Suppress one finding with
// //retrylint:ignore nested-retry reason on its line or the line above.
package nestedretry
