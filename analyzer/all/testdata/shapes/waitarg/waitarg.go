// Package waitarg calls retriers whose wait between attempts is an
// argument.
package waitarg

import (
	"math/rand/v2"
	"time"

	"shapes/waitarg/lock"
)

const backupInterval = 100 * time.Millisecond

// Close picks a constant interval for the retrier's lock-step waits.
func Close(c *lock.CAS) error {
	return c.BeginWithRetry("close", 10*time.Second, 10*time.Millisecond) // want `fixed-sleep: c.BeginWithRetry is given a constant 10ms to wait between its attempts`
}

// Backup does the same through a named constant.
func Backup(c *lock.CAS) error {
	return c.BeginWithRetry("backup", time.Minute, backupInterval) // want `fixed-sleep: c.BeginWithRetry is given a constant 100ms`
}

// Spread gives each caller its own random interval: no lock-step.
func Spread(c *lock.CAS) error {
	return c.BeginWithRetry("spread", time.Minute, 50*time.Millisecond+rand.N(50*time.Millisecond))
}

// Jittered hands a constant to a retrier that waits a random part of it.
func Jittered(c *lock.CAS) error {
	return c.BeginJittered("jittered", 5, time.Second)
}

// pollEvery waits interval after every pass, success or not: a poll,
// not a retry.
func pollEvery(interval time.Duration, check func() bool) {
	for !check() {
		time.Sleep(interval)
	}
}

// Ready polls with a constant interval: nothing failed.
func Ready(check func() bool) {
	pollEvery(time.Second, check)
}
