package bounds

import (
	"errors"
	"math/rand/v2"
	"time"
)

const lookupTimeout = 30 * time.Second

// lookupBackoff doubles from one second once per retry, up to the timeout.
func lookupBackoff(retries int) time.Duration {
	b := time.Second
	for b < lookupTimeout && retries > 0 {
		b *= 2
		retries--
	}
	return min(b, lookupTimeout)
}

// expired answers from the clock whether the next wait would pass the
// deadline.
func expired(start time.Time, next time.Duration) bool {
	return next+time.Since(start) >= lookupTimeout
}

var errMissing = errors.New("missing")

// Lookup retries every error until a deadline it checks in a helper, with
// a doubling wait from a helper that grows it in a loop of its own.
func Lookup(find func(string) (string, error), name string) (string, error) {
	start := time.Now()
	retries := 0
	for { // want `unclassified-retry: `
		v, err := find(name)
		if err == nil {
			return v, nil
		}
		wait := lookupBackoff(retries)
		if expired(start, wait) {
			return "", err
		}
		retries++
		time.Sleep(wait) // want `no-jitter: `
	}
}

// LookupJittered is the same with a jittered wait and a classification.
func LookupJittered(find func(string) (string, error), name string) (string, error) {
	start := time.Now()
	retries := 0
	for {
		v, err := find(name)
		if err == nil || !errors.Is(err, errMissing) {
			return v, err
		}
		wait := lookupBackoff(retries)
		if expired(start, wait) {
			return "", err
		}
		retries++
		time.Sleep(rand.N(wait))
	}
}

// LookupForever has no deadline at all.
func LookupForever(find func(string) (string, error), name string) string {
	for { // want `unbounded-retry: `
		v, err := find(name)
		if err == nil || !errors.Is(err, errMissing) {
			return v
		}
		time.Sleep(rand.N(time.Second))
	}
}
