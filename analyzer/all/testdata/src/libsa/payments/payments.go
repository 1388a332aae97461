// Package payments is a payment-provider client that retries with
// github.com/cenkalti/backoff/v4.
package payments

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// ErrAccountClosed is returned for an account that no longer exists.
var ErrAccountClosed = errors.New("account closed")

// APIError is a non-2xx answer of the provider.
type APIError struct {
	Status int
	Body   string
}

func (e *APIError) Error() string { return fmt.Sprintf("provider: %d %s", e.Status, e.Body) }

// Client talks to the payment provider.
type Client struct {
	http    *http.Client
	baseURL string
}

func (c *Client) post(ctx context.Context, path string, body any) error {
	buf, err := json.Marshal(body)
	if err != nil {
		return backoff.Permanent(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+path, bytes.NewReader(buf))
	if err != nil {
		return backoff.Permanent(err)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return &APIError{Status: resp.StatusCode}
	}
	return nil
}

// isTransient reports whether a failed call may succeed later.
func isTransient(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.Status == http.StatusTooManyRequests || apiErr.Status >= 500
	}
	return true
}

// Charge gives up at once on client errors and waits as the default
// exponential back-off says, until ctx ends.
func (c *Client) Charge(ctx context.Context, amount int64) error {
	op := func() error {
		err := c.post(ctx, "/charges", map[string]int64{"amount": amount})
		var apiErr *APIError
		if errors.As(err, &apiErr) && apiErr.Status >= 400 && apiErr.Status < 500 && apiErr.Status != http.StatusTooManyRequests {
			return backoff.Permanent(err)
		}
		return err
	}
	return backoff.Retry(op, backoff.WithContext(backoff.NewExponentialBackOff(), ctx))
}

// Refund keeps trying until the provider answers.
func (c *Client) Refund(ctx context.Context, id string) error {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0
	return backoff.Retry(func() error { // want `unbounded-retry: ` `unclassified-retry: ` `sleep-ignores-context: `
		return c.post(ctx, "/refunds/"+id, nil)
	}, b)
}

// Balance runs in a batch job without a context.
func (c *Client) Balance() (int64, error) {
	return backoff.RetryWithData(func() (int64, error) {
		bal, err := c.balance()
		if errors.Is(err, ErrAccountClosed) {
			return 0, backoff.Permanent(err)
		}
		return bal, err
	}, backoff.NewExponentialBackOff())
}

func (c *Client) balance() (int64, error) { return 0, nil }

// WaitForPayout polls a payout that the provider may not know yet.
func (c *Client) WaitForPayout(ctx context.Context, id string) error {
	op := func() error {
		status, err := c.payoutStatus(ctx, id)
		if err != nil {
			return err
		}
		if status == http.StatusNotFound || status >= 500 {
			return fmt.Errorf("payout %s not ready: %d", id, status)
		}
		if status != http.StatusOK {
			return backoff.Permanent(fmt.Errorf("payout %s: %d", id, status))
		}
		return nil
	}
	return backoff.Retry(op, backoff.WithContext(backoff.NewExponentialBackOff(backoff.WithMaxElapsedTime(time.Minute)), ctx)) // want `retry-permanent: `
}

func (c *Client) payoutStatus(ctx context.Context, id string) (int, error) { return 200, nil }

// Settlements fetches the day's settlements with a back-off written as a
// struct literal.
func (c *Client) Settlements(ctx context.Context) error {
	b := &backoff.ExponentialBackOff{ // want `no-jitter: `
		InitialInterval: 200 * time.Millisecond,
		Multiplier:      2,
		MaxInterval:     10 * time.Second,
		MaxElapsedTime:  2 * time.Minute,
		Stop:            backoff.Stop,
		Clock:           backoff.SystemClock,
	}
	b.Reset()
	return backoff.Retry(c.fetchSettlements, backoff.WithContext(b, ctx))
}

func (c *Client) fetchSettlements() error {
	err := c.post(context.Background(), "/settlements", nil)
	if !isTransient(err) {
		return backoff.Permanent(err)
	}
	return err
}

// Capture retries a capture in a loop of its own, building the back-off
// on every round.
func (c *Client) Capture(ctx context.Context, id string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		b := backoff.NewExponentialBackOff() // want `fixed-sleep: `
		if err = c.post(ctx, "/captures/"+id, nil); err == nil || !isTransient(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(b.NextBackOff()):
		}
	}
	return err
}

// Void paces a loop of its own with a back-off whose jitter is switched
// off for predictable tests.
func (c *Client) Void(ctx context.Context, id string) error {
	b := backoff.NewExponentialBackOff()
	b.RandomizationFactor = 0 // want `no-jitter: `
	for {
		err := c.post(ctx, "/voids/"+id, nil)
		if err == nil || !isTransient(err) {
			return err
		}
		d := b.NextBackOff()
		if d == backoff.Stop {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
}

// Reconciler replays failed ledger writes.
type Reconciler struct {
	client *Client
	bo     backoff.BackOff
}

// NewReconciler builds a reconciler that makes at most four attempts.
func NewReconciler(c *Client) *Reconciler {
	return &Reconciler{client: c, bo: backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3)}
}

// Replay retries one ledger write.
func (r *Reconciler) Replay(ctx context.Context, entry string) error {
	return backoff.RetryNotify(func() error {
		err := r.client.post(ctx, "/ledger", entry)
		if err != nil && !isTransient(err) {
			return backoff.Permanent(err)
		}
		return err
	}, backoff.WithContext(r.bo, ctx), func(err error, wait time.Duration) {
		log.Printf("ledger write failed, retrying in %s: %v", wait, err)
	})
}

// Sender delivers webhooks.
type Sender struct {
	client *Client
}

func (s *Sender) send(ctx context.Context, event string) error {
	err := s.client.post(ctx, "/webhooks", event)
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.Status < 500 {
		return backoff.Permanent(err)
	}
	return err
}

// Deliver retries a webhook every five seconds, four times.
func (s *Sender) Deliver(ctx context.Context, event string) error {
	b := backoff.WithContext(backoff.WithMaxRetries(backoff.NewConstantBackOff(5*time.Second), 4), ctx) // want `fixed-sleep: `
	return backoff.RetryNotify(func() error { return s.send(ctx, event) }, b, func(err error, d time.Duration) {
		log.Printf("webhook %s: %v (next in %s)", event, err, d)
	})
}

// SettleAll settles each payment with up to three attempts; every attempt
// builds the back-off it waits with.
func (c *Client) SettleAll(ctx context.Context, ids []string) error {
	settle := func(id string) error {
		b := backoff.WithContext(backoff.NewExponentialBackOff(), ctx) // want `fixed-sleep: .*created anew`
		err := c.post(ctx, "/settle/"+id, nil)
		if err != nil && isTransient(err) {
			select {
			case <-ctx.Done():
			case <-time.After(b.NextBackOff()):
			}
		}
		return err
	}
	for _, id := range ids {
		for attempt := 0; attempt < 3; attempt++ {
			if err := settle(id); err == nil || !isTransient(err) {
				break
			}
		}
	}
	return nil
}

// Register announces the client to the provider, on the ticks of the
// default back-off.
func (c *Client) Register(ctx context.Context) error {
	ticker := backoff.NewTicker(backoff.NewExponentialBackOff())
	defer ticker.Stop()
	var err error
	for range ticker.C { // want `unclassified-retry: ` `sleep-ignores-context: .*backoff.WithContext`
		if err = c.post(ctx, "/register", nil); err != nil {
			log.Printf("register: %v", err)
			continue
		}
		break
	}
	return err
}

// Deregister does the same, stopping on ctx and on permanent failures.
func (c *Client) Deregister(ctx context.Context) error {
	ticker := backoff.NewTicker(backoff.WithContext(backoff.NewExponentialBackOff(), ctx))
	defer ticker.Stop()
	var err error
	for range ticker.C {
		err = c.post(ctx, "/deregister", nil)
		if err == nil || !isTransient(err) {
			break
		}
	}
	return err
}

// Authorize resets its back-off at the start of every attempt.
func (c *Client) Authorize(ctx context.Context, id string) error {
	b := backoff.NewExponentialBackOff()
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		b.Reset() // want `fixed-sleep: .*created anew`
		if err = c.post(ctx, "/authorize/"+id, nil); err == nil || !isTransient(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(b.NextBackOff()):
		}
	}
	return err
}

// Refresh renews the provider token with a bounded, jittered back-off.
func (c *Client) Refresh(ctx context.Context) error {
	b := backoff.NewExponentialBackOff(backoff.WithInitialInterval(100*time.Millisecond), backoff.WithMaxInterval(2*time.Second))
	return backoff.Retry(func() error {
		err := c.post(ctx, "/token", nil)
		var apiErr *APIError
		if errors.As(err, &apiErr) && apiErr.Status < 500 && apiErr.Status != http.StatusTooManyRequests {
			return backoff.Permanent(err)
		}
		return err
	}, backoff.WithContext(backoff.WithMaxRetries(b, 4), ctx))
}

// Export streams a report; the back-off is built once, outside its loop,
// and reset only after a success.
func (c *Client) Export(ctx context.Context, pages int) error {
	b := backoff.WithContext(backoff.NewExponentialBackOff(), ctx)
	for page := 0; page < pages; {
		err := c.post(ctx, fmt.Sprintf("/export?page=%d", page), nil)
		if err == nil {
			page++
			b.Reset()
			continue
		}
		if !isTransient(err) {
			return err
		}
		d := b.NextBackOff()
		if d == backoff.Stop {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	return nil
}
