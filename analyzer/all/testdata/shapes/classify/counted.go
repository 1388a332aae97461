package classify

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"time"
)

// ErrNoLeader is the answer of a cluster without a leader.
var ErrNoLeader = errors.New("no leader")

type counters map[string]int

func (c counters) add(name string) { c[name]++ }

// Drain writes a queued request until it passes, counting each failure
// by its kind: the tests of the error only pick a counter, and every
// error is retried.
func Drain(closeCh chan struct{}, stats counters, write func(context.Context) error) {
	for { // want `unclassified-retry: retry loop retries every error of write`
		select {
		case <-closeCh:
			return
		default:
		}
		err := write(context.Background())
		if err == nil {
			return
		}
		if errors.Is(err, ErrNoLeader) {
			log.Printf("no leader")
			stats.add("no-leader")
		} else {
			log.Printf("write: %v", err)
			if err.Error() == "leadership lost" {
				stats.add("lost")
			} else {
				stats.add("other")
			}
		}
		time.Sleep(rand.N(time.Second) + time.Second)
	}
}

// DrainLeader counts the same way, but gives up on a failure that is
// not the cluster's leadership: that is a classification.
func DrainLeader(closeCh chan struct{}, stats counters, write func(context.Context) error) error {
	for {
		select {
		case <-closeCh:
			return nil
		default:
		}
		err := write(context.Background())
		if err == nil {
			return nil
		}
		if errors.Is(err, ErrNoLeader) {
			stats.add("no-leader")
		} else {
			if err.Error() != "leadership lost" {
				return err
			}
			stats.add("lost")
		}
		time.Sleep(rand.N(time.Second) + time.Second)
	}
}
