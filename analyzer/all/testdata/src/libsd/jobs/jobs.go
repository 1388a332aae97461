// Package jobs runs queue jobs, retrying with github.com/Rican7/retry.
package jobs

import (
	"errors"
	"net/http"
	"time"

	"github.com/Rican7/retry"
	"github.com/Rican7/retry/backoff"
	"github.com/Rican7/retry/jitter"
	"github.com/Rican7/retry/strategy"
)

var ErrLocked = errors.New("locked")

// Runner runs jobs against the job API.
type Runner struct {
	http *http.Client
	url  string
}

func (r *Runner) call(path string) (int, error) {
	resp, err := r.http.Get(r.url + path)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

func (r *Runner) claim(id string) error {
	code, err := r.call("/claim/" + id)
	if err != nil {
		return err
	}
	if code == http.StatusConflict {
		return ErrLocked
	}
	return nil
}

// Claim retries only a locked job, a few times, jittered: a permanent
// failure stops the retries by returning nil and is kept aside.
func (r *Runner) Claim(id string) error {
	var failed error
	err := retry.Retry(func(attempt uint) error {
		err := r.claim(id)
		if err != nil && !errors.Is(err, ErrLocked) {
			failed = err
			return nil
		}
		return err
	}, strategy.Limit(5), strategy.BackoffWithJitter(backoff.BinaryExponential(10*time.Millisecond), jitter.Full(nil)))
	if failed != nil {
		return failed
	}
	return err
}

// Run retries at once, forever, every error.
func (r *Runner) Run(id string) error {
	return retry.Retry(func(uint) error { // want `unbounded-retry: .*strategy.Limit` `unclassified-retry: .*return nil`
		return r.claim(id)
	})
}

// Ack waits a constant second between attempts; Delay only waits before
// the first.
func (r *Runner) Ack(id string) error {
	var failed error
	err := retry.Retry(func(uint) error {
		err := r.claim(id)
		if errors.Is(err, ErrLocked) {
			return err
		}
		failed = err
		return nil
	}, strategy.Limit(3), strategy.Delay(time.Second), strategy.Wait(time.Second)) // want `fixed-sleep: .*BackoffWithJitter`
	if failed != nil {
		return failed
	}
	return err
}

// Complete grows its wait without jitter or cap over many attempts.
func (r *Runner) Complete(id string) error {
	return retry.Retry(func(uint) error { // want `unclassified-retry: `
		return r.claim(id)
	}, strategy.Limit(20), strategy.Backoff(backoff.Exponential(time.Second, 3))) // want `no-jitter: .*BackoffWithJitter` `no-cap: .*strategy.Limit`
}

// Fetch retries 404s.
func (r *Runner) Fetch(id string) error {
	return retry.Retry(func(uint) error { // want `retry-permanent: .*HTTP 404`
		code, err := r.call("/jobs/" + id)
		if err != nil {
			return err
		}
		if code == http.StatusNotFound || code >= 500 {
			return errors.New(http.StatusText(code))
		}
		return nil
	}, strategy.Limit(4), strategy.Wait(100*time.Millisecond, 500*time.Millisecond, 2*time.Second)) // want `no-jitter: `
}

// Peek makes a single attempt.
func (r *Runner) Peek(id string) error {
	return retry.Retry(func(uint) error {
		return r.claim(id)
	}, strategy.Limit(1))
}
