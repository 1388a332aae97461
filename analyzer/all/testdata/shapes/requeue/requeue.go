// Package requeue holds retries without a loop: a failed item is handed
// back to its queue after a wait, and the queue's consumer tries again.
package requeue

import (
	"errors"
	"log"
	"math/rand/v2"
	"time"
)

// Queue is a work queue of keys, as controllers use them.
type Queue interface {
	Add(key string)
	AddAfter(key string, d time.Duration)
	AddRateLimited(key string)
	NumRequeues(key string) int
	Forget(key string)
}

// ErrConflict is a write that lost a race; it succeeds after a re-read.
var ErrConflict = errors.New("conflict")

// Controller reconciles keys.
type Controller struct {
	queue Queue
	sync  func(key string) error
}

// Process retries a failed key five seconds later, forever and for any
// error.
func (c *Controller) Process(key string) {
	if err := c.sync(key); err != nil {
		log.Printf("sync %s: %v", key, err)
		go func() { // want `unbounded-retry: ` `unclassified-retry: `
			time.Sleep(5 * time.Second) // want `fixed-sleep: `
			c.queue.Add(key)
		}()
	}
}

// ProcessAfter lets the queue hold the key back, always ten seconds.
func (c *Controller) ProcessAfter(key string) {
	err := c.sync(key)
	if errors.Is(err, ErrConflict) {
		c.queue.AddAfter(key, 10*time.Second) // want `fixed-sleep: ` `unbounded-retry: `
		return
	}
	if err != nil {
		log.Printf("dropping %s: %v", key, err)
	}
}

// Job is a unit of work of the dispatcher.
type Job struct{ ID string }

// Dispatcher runs jobs from a channel.
type Dispatcher struct {
	pending chan Job
	run     func(Job) error
}

// Handle puts a failed job back on the channel after a fixed delay.
func (d *Dispatcher) Handle(job Job) {
	if err := d.run(job); err != nil {
		time.AfterFunc(2*time.Second, func() { // want `fixed-sleep: ` `unbounded-retry: ` `unclassified-retry: `
			d.pending <- job
		})
	}
}

// --- must not be flagged ---

// ProcessBounded gives each key a few attempts with a growing, jittered
// and capped delay, and only for conflicts.
func (c *Controller) ProcessBounded(key string) {
	err := c.sync(key)
	if err == nil {
		c.queue.Forget(key)
		return
	}
	if !errors.Is(err, ErrConflict) {
		c.queue.Forget(key)
		return
	}
	if n := c.queue.NumRequeues(key); n < 5 {
		c.queue.AddAfter(key, rand.N(min(100*time.Millisecond<<n, 10*time.Second)))
		return
	}
	c.queue.Forget(key)
}

// ProcessRateLimited leaves the back-off to the queue's rate limiter.
func (c *Controller) ProcessRateLimited(key string) {
	if err := c.sync(key); err != nil {
		c.queue.AddRateLimited(key)
		return
	}
	c.queue.Forget(key)
}

// Resync schedules the next periodic pass after a success.
func (c *Controller) Resync(key string, every time.Duration) {
	if err := c.sync(key); err != nil {
		log.Printf("sync %s: %v", key, err)
		return
	}
	go func() {
		time.Sleep(every)
		c.queue.Add(key)
	}()
}

// Report counts a failure a little later; nothing is requeued.
func (d *Dispatcher) Report(job Job, failures chan<- string) {
	if err := d.run(job); err != nil {
		go func() {
			time.Sleep(time.Second)
			failures <- err.Error()
		}()
	}
}

// Immediate hands the job back at once; the channel's consumer paces it.
func (d *Dispatcher) Immediate(job Job) {
	if err := d.run(job); err != nil {
		d.pending <- job
	}
}
