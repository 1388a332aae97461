// Package carrier is the shipping-carrier integration: rate quotes, label
// purchase, tracking and the carrier's gRPC address validator.
package carrier

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"time"

	"services/internal/grpc/codes"
	"services/internal/grpc/status"
)

const retryWait = 750 * time.Millisecond

// ErrCircuitOpen is returned by the carrier guard while it fails fast.
var ErrCircuitOpen = errors.New("carrier: circuit open")

// RetryableError is implemented by carrier errors that know whether a new
// attempt can help.
type RetryableError interface {
	error
	Retryable() bool
}

// API is the carrier's HTTP API, already wrapped into calls.
type API interface {
	Quote(ctx context.Context, parcel string) (int64, error)
	QuoteSync(parcel string) (int64, error)
	Buy(ctx context.Context, quoteID string) (*http.Response, error)
	Track(number string) (string, error)
	Cancel(ctx context.Context, label string) (*http.Response, error)
	Manifest(ctx context.Context, day string) error
	ManifestSync(day string) error
}

// Validator is the gRPC address validation stub.
type Validator interface {
	Validate(ctx context.Context, addr string) (bool, error)
}

// Carrier wraps one carrier account.
type Carrier struct {
	api       API
	validator Validator
	guard     func(ctx context.Context, fn func() error) error
}

func spread(d time.Duration) time.Duration { return d/2 + rand.N(d/2+1) }

// Track returns the tracking state. Used by the nightly CLI.
func (c *Carrier) Track(number string) (string, error) {
	var err error
	for attempts := 3; attempts > 0; attempts-- { // want `unclassified-retry: `
		var st string
		if st, err = c.api.Track(number); err == nil {
			return st, nil
		}
		<-time.After(500 * time.Millisecond) // want `fixed-sleep: `
	}
	return "", err
}

// TrackCtx is the request-path variant.
func (c *Carrier) TrackCtx(ctx context.Context, number string) (string, error) {
	d := 100 * time.Millisecond
	var err error
	for attempts := 4; attempts > 0; attempts-- {
		var st string
		st, err = c.api.Track(number)
		if err == nil {
			return st, nil
		}
		var re RetryableError
		if !errors.As(err, &re) || !re.Retryable() {
			return "", err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(spread(d)):
		}
		d = min(d*2, 2*time.Second)
	}
	return "", err
}

// BuyLabel purchases a label for a quote.
func (c *Carrier) BuyLabel(ctx context.Context, quoteID string) error {
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: `
		resp, err := c.api.Buy(ctx, quoteID)
		if err != nil {
			return err
		}
		resp.Body.Close()
		switch {
		case resp.StatusCode < 300:
			return nil
		case resp.StatusCode == http.StatusForbidden, resp.StatusCode >= 500:
			// the carrier's WAF sometimes answers 403 under load
		default:
			return fmt.Errorf("buy label: status %d", resp.StatusCode)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(spread(min(time.Duration(1<<attempt)*time.Second, 8*time.Second))):
		}
	}
	return errors.New("buy label: carrier unavailable")
}

// CancelLabel voids a label that was not used.
func (c *Carrier) CancelLabel(ctx context.Context, label string) error {
	wait := 200 * time.Millisecond
	for i := 0; i < 5; i++ { // want `retry-permanent: `
		resp, err := c.api.Cancel(ctx, label)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode < 300 {
			return nil
		}
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode >= 500 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(spread(wait)):
			}
			wait = min(wait*2, 5*time.Second)
			continue
		}
		return fmt.Errorf("cancel label %s: status %d", label, resp.StatusCode)
	}
	return fmt.Errorf("cancel label %s: gave up", label)
}

// BuyLabelSafe is BuyLabel with the agreed classification: conflicts,
// throttling and 5xx are retried.
func (c *Carrier) BuyLabelSafe(ctx context.Context, quoteID string) error {
	for attempt := 1; attempt <= 4; attempt++ {
		resp, err := c.api.Buy(ctx, quoteID)
		if err != nil {
			return err
		}
		resp.Body.Close()
		code := resp.StatusCode
		if code < 300 {
			return nil
		}
		switch code {
		case http.StatusConflict, http.StatusTooEarly, http.StatusTooManyRequests,
			http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		default:
			return fmt.Errorf("buy label: status %d", code)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(min(time.Duration(attempt)*time.Second, 4*time.Second))):
		}
	}
	return errors.New("buy label: carrier unavailable")
}

// Validate checks an address with the carrier's validator; its auth proxy
// drops fresh tokens now and then.
func (c *Carrier) Validate(ctx context.Context, addr string) (bool, error) {
	backoff := 100 * time.Millisecond
	for n := 0; n < 3; n++ { // want `retry-permanent: `
		ok, err := c.validator.Validate(ctx, addr)
		if err == nil {
			return ok, nil
		}
		st, _ := status.FromError(err)
		if st.Code() != codes.Unauthenticated && st.Code() != codes.Unavailable {
			return false, err
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(rand.N(backoff)):
		}
		backoff = min(backoff*2, time.Second)
	}
	return false, errors.New("validate: validator unavailable")
}

// ValidateSafe retries only what the validator documents as transient.
func (c *Carrier) ValidateSafe(ctx context.Context, addr string) (bool, error) {
	backoff := 100 * time.Millisecond
	for n := 0; n < 3; n++ {
		ok, err := c.validator.Validate(ctx, addr)
		if err == nil {
			return ok, nil
		}
		st, _ := status.FromError(err)
		if st.Code() != codes.Aborted && st.Code() != codes.Unavailable {
			return false, err
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(rand.N(backoff)):
		}
		backoff = min(backoff*2, time.Second)
	}
	return false, errors.New("validate: validator unavailable")
}

// QuoteAll asks for a quote through the guard, waiting out trips.
func (c *Carrier) QuoteAll(ctx context.Context, parcel string) (int64, error) {
	var cents int64
	for attempt := 0; attempt < 6; attempt++ { // want `retry-permanent: `
		err := c.guard(ctx, func() error {
			var err error
			cents, err = c.api.Quote(ctx, parcel)
			return err
		})
		if err == nil {
			return cents, nil
		}
		if !errors.Is(err, ErrCircuitOpen) {
			return 0, err
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(spread(min(time.Duration(attempt+1)*time.Second, 10*time.Second))):
		}
	}
	return 0, ErrCircuitOpen
}

// Manifest closes the day's manifest. The carrier rate-limits manifests
// hard, so each wait is half again the previous one, at most 20s.
func (c *Carrier) Manifest(ctx context.Context, day string) error {
	delay := 400 * time.Millisecond
	for attempt := 0; attempt < 6; attempt++ {
		err := c.api.Manifest(ctx, day)
		var re RetryableError
		if err == nil || !errors.As(err, &re) || !re.Retryable() {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay): // want `no-jitter: `
		}
		delay = delay * 3 / 2
		if delay > 20*time.Second {
			delay = 20 * time.Second
		}
	}
	return fmt.Errorf("manifest %s: still rate limited", day)
}

// ManifestCLI is the operator tool; quadratic waits, no context.
func (c *Carrier) ManifestCLI(day string) error {
	var err error
	for attempt := 1; attempt <= 10; attempt++ {
		err = c.api.ManifestSync(day)
		var re RetryableError
		if err == nil || !errors.As(err, &re) || !re.Retryable() {
			return err
		}
		log.Printf("manifest %s: attempt %d: %v", day, attempt, err)
		time.Sleep(time.Duration(attempt*attempt) * time.Second) // want `no-jitter: ` `no-cap: `
	}
	return err
}

// Requote asks again until the carrier has a price, e.g. after a surcharge
// table update.
func (c *Carrier) Requote(parcel string) (int64, error) {
	wait := 250 * time.Millisecond
	var cents int64
	for done := false; !done; { // want `unbounded-retry: `
		var err error
		cents, err = c.api.QuoteSync(parcel)
		if err == nil {
			done = true
			continue
		}
		var re RetryableError
		if !errors.As(err, &re) || !re.Retryable() {
			return 0, err
		}
		time.Sleep(spread(wait))
		wait = min(wait*2, 15*time.Second)
	}
	return cents, nil
}

// QuoteFor is called from the checkout handler.
func (c *Carrier) QuoteFor(reqCtx context.Context, parcel string) (int64, error) {
	wait := 100 * time.Millisecond
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var cents int64
		if cents, err = c.api.Quote(reqCtx, parcel); err == nil {
			return cents, nil
		}
		var re RetryableError
		if !errors.As(err, &re) || !re.Retryable() {
			return 0, err
		}
		time.Sleep(spread(wait)) // want `sleep-ignores-context: `
		wait = min(wait*2, time.Second)
	}
	return 0, err
}

// Pickup schedules a pickup; fixed pause between attempts, per the
// carrier's integration guide.
func (c *Carrier) Pickup(ctx context.Context, day string) error {
	for attempt := 0; attempt < 3; attempt++ {
		err := c.api.Manifest(ctx, "pickup-"+day)
		var re RetryableError
		if err == nil || !errors.As(err, &re) || !re.Retryable() {
			return err
		}
		timer := time.NewTimer(retryWait) // want `fixed-sleep: `
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
	}
	return errors.New("pickup: carrier busy")
}
