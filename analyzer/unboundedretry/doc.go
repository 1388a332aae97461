// Package unboundedretry defines an Analyzer that reports unbounded-retry findings.
//
// # Analyzer unboundedretry
//
// unboundedretry: A retry loop has no attempt limit, no deadline and no context exit, so an outage that does not end makes it retry forever.
//
// A retry loop that nothing stops except success retries forever
// against a dependency that stays down, holding resources and adding load.
//
//	for { // unbounded-retry
//		if err := connect(); err == nil {
//			return nil
//		}
//		time.Sleep(backoff())
//	}
//
// Stop after a maximum number of attempts, at a deadline, or when the
// context is cancelled (select on ctx.Done(), or check ctx.Err()).
//
// The rule's name is unbounded-retry. Suppress one finding with
// //retrylint:ignore unbounded-retry reason on its line or the line above.
package unboundedretry
