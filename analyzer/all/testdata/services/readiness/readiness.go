// Package readiness has the small helpers tests and start-up code use to
// wait for something to become true.
package readiness

import (
	"context"
	"errors"
	"os"
	"sync/atomic"
	"time"
)

// ErrTimeout is returned when the condition did not become true in time.
var ErrTimeout = errors.New("readiness: timed out")

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// WaitForFile waits until path exists, checking every 100ms.
func WaitForFile(path string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for !exists(path) {
		if time.Now().After(deadline) {
			return ErrTimeout
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

// Service is anything that can say whether it is ready.
type Service interface {
	Ready() bool
}

// WaitUntilReady polls svc every interval until it is ready or ctx ends.
func WaitUntilReady(ctx context.Context, svc Service, interval time.Duration) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for !svc.Ready() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

// Eventually calls cond every tick until it returns true or timeout passes.
func Eventually(cond func() bool, timeout, tick time.Duration) bool {
	deadline := time.After(timeout)
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	for {
		if cond() {
			return true
		}
		select {
		case <-deadline:
			return false
		case <-ticker.C:
		}
	}
}

// JobState is the state of an asynchronous job.
type JobState int

const (
	Pending JobState = iota
	Running
	Succeeded
	Failed
)

// Job reports its state.
type Job interface {
	State() JobState
}

// AwaitJob blocks until the job reaches a terminal state.
func AwaitJob(j Job, every time.Duration) JobState {
	for {
		switch s := j.State(); s {
		case Succeeded, Failed:
			return s
		}
		time.Sleep(every)
	}
}

// Gate is opened once by the start-up sequence.
type Gate struct{ open atomic.Bool }

// Open opens the gate.
func (g *Gate) Open() { g.open.Store(true) }

// Wait spins politely until the gate opens or ctx ends.
func (g *Gate) Wait(ctx context.Context) error {
	for !g.open.Load() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil
}

// WaitForCount waits until counter reaches want, e.g. all workers started.
func WaitForCount(counter *atomic.Int64, want int64, timeout time.Duration) bool {
	for start := time.Now(); time.Since(start) < timeout; {
		if counter.Load() >= want {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}
