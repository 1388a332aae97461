// Package mailer sends mail through an SMTP relay, retrying with
// lestrrat-go/backoff v2 controllers.
package mailer

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/lestrrat-go/backoff/v2"
)

var ErrTempFail = errors.New("421 try again later")

// Relay is the SMTP relay.
type Relay struct {
	addr string
}

func (r *Relay) send(ctx context.Context, msg string) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", r.addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.Write([]byte(msg))
	return err
}

var sendPolicy = backoff.Exponential(
	backoff.WithMinInterval(200*time.Millisecond),
	backoff.WithMaxInterval(10*time.Second),
	backoff.WithJitterFactor(0.2),
	backoff.WithMaxRetries(5),
)

// Send retries temporary failures on a jittered exponential policy.
func (r *Relay) Send(ctx context.Context, msg string) error {
	b := sendPolicy.Start(ctx)
	var err error
	for backoff.Continue(b) {
		if err = r.send(ctx, msg); err == nil || !errors.Is(err, ErrTempFail) {
			return err
		}
	}
	return err
}

// Notify uses the constant policy's defaults: a minute, every time.
func (r *Relay) Notify(ctx context.Context, msg string) error {
	p := backoff.Constant() // want `fixed-sleep: .*backoff.Exponential`
	b := p.Start(ctx)
	var err error
	for backoff.Continue(b) { // want `unclassified-retry: `
		if err = r.send(ctx, msg); err == nil {
			return nil
		}
	}
	return err
}

// Digest grows its wait without jitter (the exponential defaults).
func (r *Relay) Digest(ctx context.Context, msg string) error {
	b := backoff.Exponential(backoff.WithMaxRetries(3)).Start(ctx) // want `no-jitter: .*WithJitterFactor`
	for {
		err := r.send(ctx, msg)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrTempFail) {
			return err
		}
		if !backoff.Continue(b) {
			return err
		}
	}
}

// Forward retries forever on a context that never ends.
func (r *Relay) Forward(msg string) error {
	p := backoff.Constant(backoff.WithInterval(time.Second), backoff.WithJitterFactor(0.5), backoff.WithMaxRetries(0))
	b := p.Start(context.Background())
	var err error
	for backoff.Continue(b) { // want `unbounded-retry: .*WithMaxRetries`
		if err = r.send(context.Background(), msg); err == nil || !errors.Is(err, ErrTempFail) {
			return err
		}
	}
	return err
}

// Bounce ignores the caller's context.
func (r *Relay) Bounce(ctx context.Context, msg string) error {
	p := backoff.Exponential(backoff.WithJitterFactor(0.3))
	b := p.Start(context.Background())
	var err error
	for backoff.Continue(b) { // want `sleep-ignores-context: .*p.Start\(ctx\)`
		if err = r.send(ctx, msg); err == nil || !errors.Is(err, ErrTempFail) {
			return err
		}
	}
	return err
}

// Probe makes one attempt with the null policy.
func (r *Relay) Probe(ctx context.Context) error {
	b := backoff.Null().Start(ctx)
	var err error
	for backoff.Continue(b) {
		err = r.send(ctx, "NOOP")
	}
	return err
}
