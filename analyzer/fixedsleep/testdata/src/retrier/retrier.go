// Package retrier retries with a wait its callers give: the callers
// choose the wait, so a constant one is reported where a caller gives it.
package retrier

import (
	"errors"
	"time"
)

// ErrBusy is the failure worth another try.
var ErrBusy = errors.New("busy")

// Retry tries op up to n times, waiting d between tries.
func Retry(n int, d time.Duration, op func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = op(); err == nil || !errors.Is(err, ErrBusy) {
			return err
		}
		time.Sleep(d)
	}
	return err
}

// Client retries with an interval it is given.
type Client struct{}

// Do tries op three times, interval apart.
func (c *Client) Do(op func() error, interval time.Duration) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil || !errors.Is(err, ErrBusy) {
			return err
		}
		time.Sleep(interval)
	}
	return err
}

// poll is the package's own retry loop: its wait is reported there, and
// where a caller here gives it a constant.
func poll(d time.Duration, op func() error) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = op(); err == nil || !errors.Is(err, ErrBusy) {
			return err
		}
		time.Sleep(d) // want `fixed-sleep: retry loop waits a constant d between attempts`
	}
	return err
}

// Start polls each second.
func Start(op func() error) error {
	return poll(
		time.Second, // want `fixed-sleep: poll is given a constant 1s to wait between its attempts \(its loop at retrier/retrier.go:\d+\)`
		op)
}

// Fixed waits a constant of its own: reported at its loop.
func Fixed(op func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil || !errors.Is(err, ErrBusy) {
			return err
		}
		time.Sleep(time.Second) // want `fixed-sleep: retry loop waits a constant 1s`
	}
	return err
}

// Backoff retries at the interval its constructor is given: New's
// callers choose it.
type Backoff struct {
	wait  time.Duration
	tries int
}

// New returns a Backoff that waits d between its tries.
func New(d time.Duration, tries int) *Backoff {
	return &Backoff{wait: d, tries: tries}
}

// Retry tries op, b.wait apart.
func (b *Backoff) Retry(op func() error) error {
	var err error
	for i := 0; i < b.tries; i++ {
		if err = op(); err == nil || !errors.Is(err, ErrBusy) {
			return err
		}
		time.Sleep(b.wait)
	}
	return err
}

// pacer waits a field no constructor sets from a parameter: its own
// constant, reported at its loop.
type pacer struct{ every time.Duration }

func newPacer() *pacer { return &pacer{every: time.Second} }

func (p *pacer) run(op func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil || !errors.Is(err, ErrBusy) {
			return err
		}
		time.Sleep(p.every) // want `fixed-sleep: retry loop waits a constant p.every between attempts`
	}
	return err
}

func Paced(op func() error) error { return newPacer().run(op) }
