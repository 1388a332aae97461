// Package notify sends e-mail, SMS and push notifications, retrying with
// github.com/avast/retry-go/v4.
package notify

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/avast/retry-go/v4"
)

// HTTPError is a provider's non-2xx answer.
type HTTPError struct{ Code int }

func (e *HTTPError) Error() string { return http.StatusText(e.Code) }

// ErrInvalidRecipient is returned for an address the provider rejects.
var ErrInvalidRecipient = errors.New("invalid recipient")

// Provider sends one message.
type Provider interface {
	Send(ctx context.Context, to, body string) error
}

// Notifier fans messages out to the providers.
type Notifier struct {
	mail, sms, push Provider
}

func isTemporary(err error) bool {
	var he *HTTPError
	if errors.As(err, &he) {
		return he.Code == http.StatusTooManyRequests || he.Code >= 500
	}
	return !errors.Is(err, ErrInvalidRecipient)
}

// Mail makes five attempts on temporary failures.
func (n *Notifier) Mail(ctx context.Context, to, body string) error {
	return retry.Do(
		func() error { return n.mail.Send(ctx, to, body) },
		retry.Context(ctx),
		retry.Attempts(5),
		retry.RetryIf(isTemporary),
		retry.LastErrorOnly(true),
	)
}

// SMS relies on the library's defaults.
func (n *Notifier) SMS(ctx context.Context, to, body string) error {
	return retry.Do(func() error { // want `unclassified-retry: .*retry.RetryIf` `sleep-ignores-context: .*retry.Context\(ctx\)`
		return n.sms.Send(ctx, to, body)
	})
}

// Push retries every second until the device gateway takes the message.
func (n *Notifier) Push(ctx context.Context, device, body string) error {
	opts := []retry.Option{
		retry.Attempts(0),
		retry.Delay(time.Second),
		retry.DelayType(retry.FixedDelay), // want `fixed-sleep: .*FullJitterBackoffDelay`
	}
	opts = append(opts, retry.Context(ctx))
	return retry.Do(func() error {
		err := n.push.Send(ctx, device, body)
		if errors.Is(err, ErrInvalidRecipient) {
			return retry.Unrecoverable(err)
		}
		return err
	}, opts...)
}

// Webhook doubles its delay for eight attempts.
func (n *Notifier) Webhook(ctx context.Context, url string) (int, error) {
	return retry.DoWithData(func() (int, error) {
		resp, err := http.Post(url, "application/json", nil)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return 0, &HTTPError{Code: resp.StatusCode}
		}
		return resp.StatusCode, nil
	},
		retry.Attempts(8),
		retry.Delay(500*time.Millisecond),
		retry.DelayType(retry.BackOffDelay), // want `no-jitter: ` `no-cap: `
		retry.Context(ctx),
		retry.RetryIf(isTemporary),
	)
}

// Template fetches a message template that may not be published yet.
func (n *Notifier) Template(ctx context.Context, name string) error {
	return retry.Do(func() error { // want `retry-permanent: .*HTTP 404`
		resp, err := http.Get("http://templates/" + name)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return &HTTPError{Code: resp.StatusCode}
		}
		return nil
	}, retry.Context(ctx), retry.Attempts(4), retry.RetryIf(func(err error) bool {
		var he *HTTPError
		if errors.As(err, &he) {
			return he.Code == http.StatusNotFound || he.Code >= 500
		}
		return false
	}))
}

// Drain runs as a worker without a context and retries until it succeeds.
func (n *Notifier) Drain(queue []string) error {
	return retry.Do(func() error { // want `unbounded-retry: .*retry.Attempts\(n\)`
		for _, m := range queue {
			if err := n.mail.Send(context.Background(), "ops", m); err != nil {
				if !isTemporary(err) {
					return retry.Unrecoverable(err)
				}
				return err
			}
		}
		return nil
	}, retry.UntilSucceeded(), retry.DelayType(retry.FullJitterBackoffDelay), retry.MaxDelay(30*time.Second))
}

// Digest is configured as the library recommends.
func (n *Notifier) Digest(ctx context.Context, to string) error {
	return retry.Do(func() error { return n.mail.Send(ctx, to, "digest") },
		retry.Attempts(6),
		retry.Delay(200*time.Millisecond),
		retry.MaxDelay(5*time.Second),
		retry.DelayType(retry.FullJitterBackoffDelay),
		retry.Context(ctx),
		retry.RetryIf(isTemporary),
		retry.OnRetry(func(n uint, err error) {}),
	)
}

// Escalate retries until the caller's context ends.
func (n *Notifier) Escalate(ctx context.Context, to string) error {
	return retry.Do(func() error { return n.sms.Send(ctx, to, "escalation") },
		retry.UntilSucceeded(),
		retry.Context(ctx),
		retry.DelayType(retry.CombineDelay(retry.BackOffDelay, retry.RandomDelay)),
		retry.MaxDelay(time.Minute),
		retry.RetryIf(isTemporary),
	)
}

// Broadcast makes three quick attempts per device and gives up on a bad
// address.
func (n *Notifier) Broadcast(ctx context.Context, devices []string) error {
	for _, d := range devices {
		err := retry.Do(func() error {
			if err := n.push.Send(ctx, d, "news"); err != nil {
				var he *HTTPError
				if errors.As(err, &he) && he.Code < 500 {
					return retry.Unrecoverable(err)
				}
				return err
			}
			return nil
		}, retry.Attempts(3), retry.Context(ctx))
		if err != nil {
			return err
		}
	}
	return nil
}

// Page retries temporary failures three times, within the caller's context.
func (n *Notifier) Page(ctx context.Context, to string) error {
	opts := []retry.Option{retry.Attempts(3), retry.Context(ctx)}
	opts = append(opts, retry.RetryIf(isTemporary), retry.Delay(250*time.Millisecond))
	return retry.Do(func() error { return n.sms.Send(ctx, to, "page") }, opts...)
}

// Announce does the same for pushes, giving up at once on bad devices.
func (n *Notifier) Announce(ctx context.Context, device string) (bool, error) {
	return retry.DoWithData(func() (bool, error) {
		err := n.push.Send(ctx, device, "announce")
		if errors.Is(err, ErrInvalidRecipient) {
			return false, retry.Unrecoverable(err)
		}
		return err == nil, err
	}, retry.Attempts(4), retry.Context(ctx), retry.MaxDelay(2*time.Second))
}
