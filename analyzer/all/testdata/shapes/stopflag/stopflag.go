// Package stopflag holds reconnect loops that end when their owner shuts
// down: a flag of the receiver tested each round, as a stop channel would
// be. A flag that says nothing about shutting down, or one that is not the
// receiver's, is no bound.
package stopflag

import (
	"errors"
	"log"
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// Conn is a connection to a tail endpoint.
type Conn interface {
	Read() ([]byte, error)
	Close() error
}

// Tailer follows a remote log.
type Tailer struct {
	conn         Conn
	dial         func() (Conn, error)
	shuttingDown bool
	closed       atomic.Bool
	verbose      bool
	out          chan []byte
}

var errGone = errors.New("gone")

func pause() time.Duration { return time.Second + rand.N(time.Second) }

func (t *Tailer) isStopped() bool { return t.closed.Load() }

func (t *Tailer) reconnect() {
	c, err := t.dial()
	if err == nil {
		t.conn = c
	}
}

// redial dials until it connects or the tailer shuts down.
func (t *Tailer) redial() {
	for { // want `unclassified-retry: `
		if t.shuttingDown {
			return
		}
		c, err := t.dial()
		if err != nil {
			log.Printf("dial: %v", err)
			time.Sleep(pause())
			continue
		}
		t.conn = c
		return
	}
}

// Run reads until it is shut down; a failed read reconnects after a pause.
func (t *Tailer) Run() {
	for { // want `unclassified-retry: `
		if t.shuttingDown {
			return
		}
		data, err := t.conn.Read()
		if err != nil {
			log.Printf("read: %v", err)
			time.Sleep(pause())
			t.reconnect()
			continue
		}
		t.out <- data
	}
}

// Follow reads until it is shut down, and reconnects after a pause when a
// read fails or nothing came for too long.
func (t *Tailer) Follow(quiet time.Duration) {
	last := time.Now()
	for { // want `unclassified-retry: `
		if t.shuttingDown {
			t.conn.Close()
			return
		}
		data, err := t.conn.Read()
		if err != nil {
			<-time.After(10 * time.Second) // want `fixed-sleep: `
			t.redial()
			continue
		}
		if len(data) > 0 {
			last = time.Now()
		}
		t.out <- data
		if time.Since(last) > quiet {
			<-time.After(10 * time.Second)
			t.reconnect()
			continue
		}
	}
}

// RunAtomic is Run with an atomic flag in the loop's condition.
func (t *Tailer) RunAtomic() {
	for !t.closed.Load() { // want `unclassified-retry: `
		data, err := t.conn.Read()
		if err != nil {
			time.Sleep(pause())
			t.reconnect()
			continue
		}
		t.out <- data
	}
}

// RunMethod asks a method of the receiver.
func (t *Tailer) RunMethod() error {
	for { // want `unclassified-retry: `
		if t.isStopped() {
			return errGone
		}
		data, err := t.conn.Read()
		if err != nil {
			time.Sleep(pause())
			t.reconnect()
			continue
		}
		t.out <- data
	}
}

// Fetch retries a read until it succeeds: verbose says nothing about
// shutting down.
func (t *Tailer) Fetch() []byte {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		if t.verbose {
			log.Print("fetching")
		}
		data, err := t.conn.Read()
		if err == nil {
			return data
		}
		time.Sleep(pause())
	}
}

// FetchFrom retries a read of another tailer: its flag is not this
// function's owner's.
func FetchFrom(other *Tailer) []byte {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		if other.shuttingDown {
			log.Print("other is shutting down")
		}
		data, err := other.conn.Read()
		if err == nil {
			return data
		}
		time.Sleep(pause())
	}
}
