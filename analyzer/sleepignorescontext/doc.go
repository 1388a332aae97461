// Package sleepignorescontext defines an Analyzer that reports sleep-ignores-context findings.
//
// # Analyzer sleepignorescontext
//
// sleepignorescontext: A function that has a context.Context waits with time.Sleep, so cancellation cannot stop its retries.
//
// time.Sleep cannot be interrupted: a retry loop that sleeps keeps
// retrying after its caller gave up, and ignores the caller's deadline.
//
//	func fetch(ctx context.Context) error {
//		for attempt := 0; attempt < 5; attempt++ {
//			...
//			time.Sleep(delay) // sleep-ignores-context
//		}
//	}
//
// Wait on a timer and the context together; the suggested fix does this:
//
//	timer := time.NewTimer(delay)
//	select {
//	case <-ctx.Done():
//		timer.Stop()
//		return ctx.Err()
//	case <-timer.C:
//	}
//
// The rule's name is sleep-ignores-context. Suppress one finding with
// //retrylint:ignore sleep-ignores-context reason on its line or the line above.
package sleepignorescontext
