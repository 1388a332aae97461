// Package payments holds payment and HTTP clients, some of which retry in
// lock-step.
package payments

import (
	"context"
	"errors"
	"math/rand"
	"net/http"
	"time"
)

type Request struct{ Amount int }

type Provider interface {
	Charge(ctx context.Context, r Request) error
}

type Client struct {
	provider      Provider
	retryInterval time.Duration
	http          *http.Client
}

const retryDelay = 2 * time.Second

var ErrDeclined = errors.New("declined")

// The seed incident: five attempts, one second apart, whatever the error.
func (c *Client) ChargeSeed(ctx context.Context, r Request) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		err = c.provider.Charge(ctx, r)
		if err == nil {
			return nil
		}
		time.Sleep(1 * time.Second) // want `fixed-sleep: retry loop waits a constant 1s between attempts`
	}
	return err
}

// A named constant is still a constant.
func (c *Client) ChargeConst(ctx context.Context, r Request) error {
	for i := 0; i < 3; i++ {
		if err := c.provider.Charge(ctx, r); err == nil {
			return nil
		} else if errors.Is(err, ErrDeclined) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(retryDelay): // want `fixed-sleep: retry loop waits a constant 2s`
		}
	}
	return errors.New("payment failed")
}

// A configured interval that the loop never changes.
func (c *Client) ChargeConfigured(ctx context.Context, r Request) error {
	var last error
	for attempt := 1; attempt <= 4; attempt++ {
		last = c.provider.Charge(ctx, r)
		if last == nil {
			return nil
		}
		timer := time.NewTimer(c.retryInterval) // want `fixed-sleep: retry loop waits a constant c.retryInterval`
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
	}
	return last
}

// A parameter is a constant for the loop too; but an exported retrier's
// callers choose it, and those that give a constant are reported where
// they give it (package callers), so its loop is not.
func Retry(attempts int, wait time.Duration, op func() error) error {
	var err error
	for range attempts {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(wait)
	}
	return err
}

// The package's own retrier decides its callers' wait: reported at its
// loop.
func retry(attempts int, wait time.Duration, op func() error) error {
	var err error
	for range attempts {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(wait) // want `fixed-sleep: retry loop waits a constant wait`
	}
	return err
}

// Retrying with goto, every second.
func (c *Client) Refund(ctx context.Context, r Request) error {
	tries := 0
again:
	if err := c.provider.Charge(ctx, r); err != nil {
		tries++
		if tries < 3 {
			time.Sleep(500 * time.Millisecond) // want `fixed-sleep: retry loop waits a constant 500ms`
			goto again
		}
		return err
	}
	return nil
}

// A ticker paces the attempts at a fixed period.
func (c *Client) Capture(ctx context.Context, r Request) error {
	tick := time.NewTicker(3 * time.Second)
	defer tick.Stop()
	for n := 0; n < 10; n++ {
		err := c.provider.Charge(ctx, r)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C: // want `fixed-sleep: retry loop waits a constant 3s`
		}
	}
	return errors.New("capture failed")
}

// Status check on an HTTP response, fixed wait between attempts.
func (c *Client) Status(ctx context.Context, url string) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.http.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		time.Sleep(time.Second) // want `fixed-sleep: retry loop waits a constant 1s`
	}
	return nil, errors.New("unavailable")
}

// --- must not be flagged ---

// Exponential backoff with full jitter and a cap.
func (c *Client) ChargeBackoff(ctx context.Context, r Request) error {
	base, ceiling := 100*time.Millisecond, 10*time.Second
	for attempt := 0; attempt < 5; attempt++ {
		err := c.provider.Charge(ctx, r)
		if err == nil {
			return nil
		}
		d := min(ceiling, base<<attempt)
		d = time.Duration(rand.Int63n(int64(d)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	return errors.New("payment failed")
}

// The delay doubles on every attempt.
func (c *Client) ChargeDoubling(ctx context.Context, r Request) error {
	delay := 200 * time.Millisecond
	for i := 0; i < 4; i++ {
		if err := c.provider.Charge(ctx, r); err == nil {
			return nil
		}
		time.Sleep(delay)
		delay *= 2
	}
	return errors.New("payment failed")
}

// A randomised wait around a constant base.
func (c *Client) ChargeJittered(ctx context.Context, r Request) error {
	for i := 0; i < 4; i++ {
		if err := c.provider.Charge(ctx, r); err == nil {
			return nil
		}
		time.Sleep(time.Second + time.Duration(rand.Intn(1000))*time.Millisecond)
	}
	return errors.New("payment failed")
}

// Polling for readiness is not a retry of a failed operation.
func WaitReady(ready func() bool) {
	for !ready() {
		time.Sleep(time.Second)
	}
}

// Throttling a batch: the sleep follows success.
func (c *Client) ChargeAll(ctx context.Context, rs []Request) error {
	for _, r := range rs {
		if err := c.provider.Charge(ctx, r); err != nil {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

// A consumer never leaves on success, but a failed read is retried a
// constant second later: consumers that failed together read together.
func (c *Client) Drain(ctx context.Context, next func() (Request, error)) {
	for {
		r, err := next()
		if err != nil {
			time.Sleep(time.Second) // want `fixed-sleep: `
			continue
		}
		_ = c.provider.Charge(ctx, r)
	}
}

// A heartbeat: a failure is logged, and the loop goes on either way.
func (c *Client) Heartbeat(ctx context.Context, ping func() error) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		if err := ping(); err != nil {
			println("ping failed:", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Fail over to the next endpoint rather than retrying the same one.
func (c *Client) Failover(ctx context.Context, urls []string) (*http.Response, error) {
	for i := 0; i < len(urls); i++ {
		resp, err := c.http.Get(urls[i])
		if err == nil {
			return resp, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil, errors.New("all endpoints failed")
}

// A polling loop that stops at the first error is not a retry.
func PollJob(status func() (bool, error)) error {
	for {
		done, err := status()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		time.Sleep(5 * time.Second)
	}
}

// Suppressed with a reason.
func (c *Client) Legacy(ctx context.Context, r Request) error {
	for i := 0; i < 2; i++ {
		if err := c.provider.Charge(ctx, r); err == nil {
			return nil
		}
		//retrylint:ignore fixed-sleep the provider documents a 1 s retry interval
		time.Sleep(time.Second)
	}
	return nil
}

// A directive without a reason suppresses nothing (invalid-suppression
// reports it).
func (c *Client) LegacyNoReason(ctx context.Context, r Request) error {
	for i := 0; i < 2; i++ {
		if err := c.provider.Charge(ctx, r); err == nil {
			return nil
		}
		//retrylint:ignore fixed-sleep
		time.Sleep(time.Second) // want `fixed-sleep: retry loop waits a constant 1s`
	}
	return nil
}

// A directive naming a rule that does not exist suppresses nothing
// (invalid-suppression reports it), and neither does a misspelt keyword.
func (c *Client) LegacyTypo(ctx context.Context, r Request) error {
	for i := 0; i < 2; i++ {
		if err := c.provider.Charge(ctx, r); err == nil {
			return nil
		}
		//retrylint:ignore fixed-slep the provider documents a 1 s retry interval
		time.Sleep(time.Second) // want `fixed-sleep: retry loop waits a constant 1s`
	}
	for i := 0; i < 2; i++ {
		if err := c.provider.Charge(ctx, r); err == nil {
			return nil
		}
		//retrylint-ignore fixed-sleep the provider documents a 1 s retry interval
		time.Sleep(time.Second) // want `fixed-sleep: retry loop waits a constant 1s`
	}
	return nil
}

// A wildcard names every rule.
func (c *Client) LegacyAll(ctx context.Context, r Request) error {
	for i := 0; i < 2; i++ {
		if err := c.provider.Charge(ctx, r); err == nil {
			return nil
		}
		//retrylint:ignore all the provider documents a 1 s retry interval
		time.Sleep(time.Second)
	}
	return nil
}

// golangci-lint's directive is honoured.
func (c *Client) Nolint(ctx context.Context, r Request) error {
	for i := 0; i < 2; i++ {
		if err := c.provider.Charge(ctx, r); err == nil {
			return nil
		}
		time.Sleep(time.Second) //nolint:retrylint
	}
	return nil
}
