// Package waitfor calls a poll runner that goes round on errors, with a
// constant interval, a random one, and a condition that cannot fail.
package waitfor

import (
	"math/rand/v2"
	"sync/atomic"
	"time"

	"shapes/adapter/waitfor/util"
)

// Changes is the remote service that applies changes.
type Changes interface {
	Status(id string) (string, error)
}

type API struct {
	changes Changes
	synced  atomic.Bool
}

// WaitSynced asks for the change's status every 4s; a failed request is
// asked again at the same pace.
func WaitSynced(a *API, id string) error {
	return util.WaitFor(2*time.Minute, 4*time.Second, func() (bool, error) { // want `fixed-sleep: util.WaitFor is given a constant 4s` `unclassified-retry: util.WaitFor retries every error of a.changes.Status`
		st, err := a.changes.Status(id)
		if err != nil {
			return false, err
		}
		if st == "INSYNC" {
			return true, nil
		}
		return false, nil
	})
}

// WaitSpread asks at a random pace: no lock-step.
func WaitSpread(a *API, id string) error {
	return util.WaitFor(2*time.Minute, 2*time.Second+rand.N(2*time.Second), func() (bool, error) { // want `unclassified-retry: util.WaitFor retries every error of a.changes.Status`
		st, err := a.changes.Status(id)
		if err != nil {
			return false, err
		}
		return st == "INSYNC", nil
	})
}

// WaitFlag polls a flag of this process: nothing fails, nothing is
// retried, the interval is a poll's.
func WaitFlag(a *API) error {
	return util.WaitFor(time.Minute, time.Second, func() (bool, error) {
		return a.synced.Load(), nil
	})
}
