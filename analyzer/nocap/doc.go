// Package nocap defines an Analyzer that reports no-cap findings.
//
// # Analyzer nocap
//
// nocap: A retry loop's wait grows without an upper bound, so late attempts wait absurdly long or the delay overflows.
//
// A delay that doubles on every attempt without a maximum soon waits
// minutes or hours, long after the dependency recovered, and hides the
// outage from whoever waits on the result.
//
//	delay *= 2
//	time.Sleep(delay) // no-cap
//
// Clamp the growth: min(delay*2, maxDelay), or if delay > maxDelay { delay = maxDelay }.
//
// The rule's name is no-cap. Suppress one finding with
// //retrylint:ignore no-cap reason on its line or the line above.
package nocap
