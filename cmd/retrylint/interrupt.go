package main

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// cleanups are what a run must undo if it is interrupted: temporary files
// not yet renamed into place, the worktree of a git base. A signal arrives
// for the whole process, so the list is the process's.
type cleanups struct {
	mu   sync.Mutex
	next int
	fns  map[int]func()
}

// pending is the process's list of cleanups.
var pending = &cleanups{fns: map[int]func(){}}

// add records fn; the returned func forgets it once it is no longer needed.
func (c *cleanups) add(fn func()) (forget func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id := c.next
	c.next++
	c.fns[id] = fn
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.fns, id)
	}
}

// finish runs step, which makes a cleanup unnecessary (a rename into
// place), so that a signal sees it either not begun or done; on success
// the cleanup is forgotten.
func (c *cleanups) finish(forget func(), step func() error) error {
	c.mu.Lock()
	err := step()
	c.mu.Unlock()
	if err == nil {
		forget()
	}
	return err
}

// runAll runs every recorded cleanup, newest first, and keeps the lock:
// the process exits next.
func (c *cleanups) runAll() {
	c.mu.Lock()
	for id := c.next - 1; id >= 0; id-- {
		if fn, ok := c.fns[id]; ok {
			fn()
		}
	}
}

// exitOnSignal makes SIGINT, SIGTERM, SIGHUP (a closed terminal or CI
// session) and SIGQUIT run the cleanups and end the process with 128 + the
// signal's number (130, 143, 129, 131), as a shell reports.
func exitOnSignal(c *cleanups) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	go func() {
		sig := <-ch
		c.runAll()
		code := 128 + 2
		if s, ok := sig.(syscall.Signal); ok {
			code = 128 + int(s)
		}
		os.Exit(code)
	}()
}
