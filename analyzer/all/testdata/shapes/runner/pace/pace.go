// Package pace is a project's own retry runner: it paces calls with a token
// channel refilled by a goroutine, runs each attempt through an injected
// invoker and asks the attempt itself whether to go again.
package pace

import (
	"sync"
	"time"
)

// Attempt is one try; it says whether it wants another.
type Attempt func() (again bool, err error)

// Schedule works out the next pause from the state so far.
type Schedule interface {
	Next(streak int) time.Duration
}

// Runner paces and retries attempts.
type Runner struct {
	mu     sync.Mutex
	tokens chan struct{}
	pause  time.Duration
	streak int
	tries  int
	sched  Schedule
	invoke func(try, tries int, a Attempt) (bool, error)
}

func plain(try, tries int, a Attempt) (bool, error) { return a() }

// New returns a runner making at most tries attempts a call.
func New(tries int, s Schedule) *Runner {
	r := &Runner{tokens: make(chan struct{}, 1), tries: tries, sched: s, invoke: plain}
	r.tokens <- struct{}{}
	return r
}

func (r *Runner) take() {
	r.mu.Lock()
	d := r.pause
	r.mu.Unlock()
	if d > 0 {
		<-r.tokens
		go func(d time.Duration) {
			time.Sleep(d)
			r.tokens <- struct{}{}
		}(d)
	}
}

func (r *Runner) settle(again bool) {
	r.mu.Lock()
	if again {
		r.streak++
	} else {
		r.streak = 0
	}
	r.pause = r.sched.Next(r.streak)
	r.mu.Unlock()
}

func (r *Runner) run(a Attempt, tries int) (err error) {
	var again bool
	for try := 1; try <= tries; try++ {
		r.take()
		again, err = r.invoke(try, tries, a)
		r.settle(again)
		if !again {
			break
		}
	}
	return err
}

// Do runs a until it succeeds, fails for good or runs out of tries.
func (r *Runner) Do(a Attempt) error {
	r.mu.Lock()
	tries := r.tries
	r.mu.Unlock()
	return r.run(a, tries)
}

// Once runs a a single time, paced.
func (r *Runner) Once(a Attempt) error { return r.run(a, 1) }

// Until polls check until it reports done: a poll, whose "not yet" is no
// failure.
func Until(check func() (done bool, err error), every time.Duration) error {
	for {
		done, err := check()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		time.Sleep(every)
	}
}

// Tries runs op up to n times while it fails with a transient error.
func Tries(n int, op func() error, transient func(error) bool) error {
	var err error
	for i := 0; i < n; i++ {
		if err = op(); err == nil || !transient(err) {
			return err
		}
		time.Sleep(min(time.Duration(i+1)*100*time.Millisecond, 2*time.Second)) // want `no-jitter: .*`
	}
	return err
}
