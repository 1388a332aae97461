// Package nojitter defines an Analyzer that reports no-jitter findings.
//
// # Analyzer nojitter
//
// nojitter: A retry loop's wait grows with each attempt but has no randomness, so clients still retry in synchronised bursts.
//
// Exponential backoff without jitter only spaces the bursts out: every
// client computes the same delay for the same attempt, so the clients that
// failed together still retry together.
//
//	delay := base << attempt
//	time.Sleep(delay) // no-jitter
//
// Randomise the delay: full jitter, rand.N(min(maxDelay, base<<attempt)),
// roughly halves the calls a recovering server receives.
//
// The rule's name is no-jitter. Suppress one finding with
// //retrylint:ignore no-jitter reason on its line or the line above.
package nojitter
