package pacing

import (
	"errors"
	"log"
	"time"
)

// Store is a remote store.
type Store interface {
	Ping() bool
	Register(name string) error
	Flush() error
}

// waitForStore pings the store on a 100ms ticker until it answers: the
// ticker paces a retry of the ping, in lock-step with every other
// instance, and nothing ends it but an answer.
func waitForStore(s Store) {
	ticker := time.NewTicker(100 * time.Millisecond)
	defer ticker.Stop()
	for range ticker.C { // want `unbounded-retry: ` `fixed-sleep: retry loop waits a constant 100ms`
		if s.Ping() {
			return
		}
	}
}

// keepRegistered registers once a second until it lands, unless asked
// to quit; a failed register goes round on the tick.
func keepRegistered(s Store, quit <-chan struct{}) error {
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	for range ticker.C { // want `unclassified-retry: retry loop retries every error of s.Register` `fixed-sleep: retry loop waits a constant 1s`
		select {
		case <-quit:
			return nil
		default:
			if err := s.Register("me"); err != nil {
				log.Printf("register: %v", err)
				break
			}
			return nil
		}
	}
	return nil
}

// flushEvery flushes on every tick, whatever the last flush did: a
// periodic job, not a retry.
func flushEvery(s Store, quit <-chan struct{}) {
	for range time.Tick(time.Minute) {
		select {
		case <-quit:
			return
		default:
		}
		if err := s.Flush(); err != nil {
			log.Printf("flush: %v", err)
		}
	}
}

// drain stops at the first failure: nothing goes round after one.
func drain(s Store) error {
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	for range ticker.C {
		if err := s.Flush(); err != nil {
			return errors.Join(errors.New("flush"), err)
		}
	}
	return nil
}
