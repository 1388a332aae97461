// Package notify sends customer notifications (email, SMS, push) through
// third-party providers.
package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// Message is a rendered notification.
type Message struct {
	To      string
	Subject string
	Body    string
}

// ProviderError is a provider answer with an HTTP status.
type ProviderError struct {
	Status int
	Reason string
}

func (e *ProviderError) Error() string { return fmt.Sprintf("provider: %d %s", e.Status, e.Reason) }

// Sender is a provider API.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// spread returns d ± 50%.
func spread(d time.Duration) time.Duration {
	return d/2 + rand.N(d)
}

// SendEmail delivers one email through the provider.
func SendEmail(ctx context.Context, s Sender, m Message) error {
	delay := 300 * time.Millisecond
	var err error
	for attempt := range 4 {
		if err = s.Send(ctx, m); err == nil {
			return nil
		}
		var pe *ProviderError
		if !errors.As(err, &pe) {
			return err
		}
		if pe.Status != http.StatusTooManyRequests && pe.Status < 500 {
			return err
		}
		if attempt == 3 {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(spread(delay)):
		}
		delay = min(delay*2, 5*time.Second)
	}
	return fmt.Errorf("send email to %s: %w", m.To, err)
}

// temporary reports whether the provider marked the failure as temporary.
func temporary(err error) bool {
	var t interface{ Temporary() bool }
	return errors.As(err, &t) && t.Temporary()
}

// SendSMS delivers an SMS. Temporary failures are retried until the
// provider takes it.
func SendSMS(ctx context.Context, s Sender, m Message) error {
	delay := 500 * time.Millisecond
	for { // want `unbounded-retry: `
		err := s.Send(ctx, m)
		if err == nil {
			return nil
		}
		if !temporary(err) {
			return err
		}
		time.Sleep(spread(delay)) // want `sleep-ignores-context: `
		delay = min(delay*2, 30*time.Second)
	}
}

// Push sends a mobile push notification via the push gateway.
func Push(ctx context.Context, s Sender, m Message) error {
	wait := 100 * time.Millisecond
	for attempt := 1; attempt <= 5; attempt++ {
		err := s.Send(ctx, m)
		if err == nil || !temporary(err) {
			return err
		}
		t := time.NewTimer(rand.N(wait) + 10*time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(wait*3, 4*time.Second)
	}
	return errors.New("push: gateway kept failing")
}

// PostSlack posts a message to a Slack incoming webhook, following the
// server's Retry-After when rate limited.
func PostSlack(hc *http.Client, url string, payload []byte) error {
	for { // want `unbounded-retry: `
		resp, err := hc.Post(url, "application/json", bytes.NewReader(payload))
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			secs, convErr := strconv.Atoi(resp.Header.Get("Retry-After"))
			if convErr != nil || secs <= 0 {
				secs = 1
			}
			time.Sleep(time.Duration(secs) * time.Second)
			continue
		}
		if resp.StatusCode >= 300 {
			return &ProviderError{Status: resp.StatusCode, Reason: resp.Status}
		}
		return nil
	}
}
