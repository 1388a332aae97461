package flagdelay

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// timerWithCancel makes a timer of delay and a function that stops it.
func timerWithCancel(delay time.Duration) (*time.Timer, func()) {
	t := time.NewTimer(delay)
	return t, func() { t.Stop() }
}

// backoffFor grows with the failures in a row, jittered, up to max.
func backoffFor(base, max time.Duration, retries int) time.Duration {
	d := base
	for d < max && retries > 0 {
		d *= 2
		retries--
	}
	d = min(d, max)
	return d/2 + rand.N(d/2+1)
}

// Downloader polls a bundle server.
type Downloader struct {
	min, max time.Duration
	download func(context.Context) error
}

// ErrNotFound is the server's answer for a bundle it does not have.
var ErrNotFound = errors.New("bundle not found")

// Poll downloads, waits a jittered poll interval after a success and a
// growing back-off after a failure: the failure's wait is its own, and
// every error is retried.
func (d *Downloader) Poll(ctx context.Context) {
	var retry int
	for { // want `unclassified-retry: retry loop retries every error of d.download`
		var delay time.Duration
		err := d.download(ctx)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			delay = backoffFor(time.Second, d.max, retry)
		} else {
			delay = d.min + rand.N(d.max-d.min)
		}
		timer, cancel := timerWithCancel(delay)
		select {
		case <-timer.C:
			if err != nil {
				retry++
			} else {
				retry = 0
			}
		case <-ctx.Done():
			cancel()
			return
		}
	}
}

// PollKnown backs off the same way but stops polling a bundle the server
// does not have.
func (d *Downloader) PollKnown(ctx context.Context) error {
	var retry int
	for {
		var delay time.Duration
		err := d.download(ctx)
		if errors.Is(err, ErrNotFound) {
			return err
		}
		if err != nil {
			delay = backoffFor(time.Second, d.max, retry)
			retry++
		} else {
			delay = d.min + rand.N(d.max-d.min)
			retry = 0
		}
		timer, cancel := timerWithCancel(delay)
		select {
		case <-timer.C:
		case <-ctx.Done():
			cancel()
			return ctx.Err()
		}
	}
}

// Refresh waits the same interval whatever happened: periodic.
func (d *Downloader) Refresh(ctx context.Context) {
	for {
		var delay time.Duration
		if err := d.download(ctx); err != nil {
			delay = d.min + rand.N(d.max-d.min)
		} else {
			delay = d.min + rand.N(d.max-d.min)
		}
		timer, cancel := timerWithCancel(delay)
		select {
		case <-timer.C:
		case <-ctx.Done():
			cancel()
			return
		}
	}
}
