// Package bad retries with a fixed sleep: retrylint must report fixed-sleep.
package bad

import (
	"errors"
	"time"
)

var errDown = errors.New("down")

func call() error { return errDown }

// Fetch tries call five times, a second apart.
func Fetch() error {
	for i := 0; i < 5; i++ {
		if err := call(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errDown
}
