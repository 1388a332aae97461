// Package fixedsleep defines an Analyzer that reports fixed-sleep findings.
//
// # Analyzer fixedsleep
//
// fixedsleep: A retry loop waits the same time before every attempt, so clients that failed together retry together.
//
// A retry loop whose wait is the same on every attempt (a literal, a
// constant, or a variable never changed in the loop) keeps every client that
// failed together in lock-step: after an outage they all retry in the same
// second, and the burst lands on the dependency just as it recovers.
// Lengthening the interval changes the period of the storm, not the storm.
//
//	for attempt := 0; attempt < 5; attempt++ {
//		if err := charge(ctx, req); err == nil {
//			return nil
//		}
//		time.Sleep(time.Second) // fixed-sleep
//	}
//
// Back off exponentially with random (full) jitter and a cap instead.
//
// The rule's name is fixed-sleep. Suppress one finding with
// //retrylint:ignore fixed-sleep reason on its line or the line above.
package fixedsleep
