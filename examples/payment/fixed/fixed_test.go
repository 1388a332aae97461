package fixed_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/retrylint/retrylint/examples/payment"
	"github.com/retrylint/retrylint/examples/payment/fixed"
)

// provider fails its first calls with the errors in fail, then succeeds.
type provider struct {
	fail  []error
	calls int
}

func (p *provider) Charge(ctx context.Context, req payment.Request) (payment.Receipt, error) {
	p.calls++
	if p.calls <= len(p.fail) {
		return payment.Receipt{}, p.fail[p.calls-1]
	}
	return payment.Receipt{ID: "r-" + req.ID}, nil
}

func (p *provider) Refund(ctx context.Context, receiptID string) error {
	_, err := p.Charge(ctx, payment.Request{ID: receiptID})
	return err
}

var quick = fixed.Policy{MaxRetries: 3, BaseDelay: time.Millisecond, MaxDelay: 4 * time.Millisecond}

func repeat(err error, n int) []error {
	errs := make([]error, n)
	for i := range errs {
		errs[i] = err
	}
	return errs
}

func TestChargeRetries(t *testing.T) {
	unavailable := &payment.StatusError{Code: 503}
	for _, tc := range []struct {
		name      string
		fail      []error
		wantCalls int
		wantErr   error // a sentinel the error wraps; nil: see wantCode
		wantCode  int   // the HTTP status of the error; 0 with a nil wantErr: success
	}{
		{"success at once", nil, 1, nil, 0},
		{"two 503s then success", repeat(unavailable, 2), 3, nil, 0},
		{"503 until the retries run out", repeat(unavailable, 10), 4, nil, 503},
		{"429 is transient", []error{&payment.StatusError{Code: 429}}, 2, nil, 0},
		{"open breaker gives up at once", repeat(payment.ErrCircuitOpen, 10), 1, payment.ErrCircuitOpen, 0},
		{"400 gives up at once", []error{&payment.StatusError{Code: 400}}, 1, nil, 400},
		{"401 gives up at once", []error{&payment.StatusError{Code: 401}}, 1, nil, 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &provider{fail: tc.fail}
			c := &fixed.Client{Provider: p, Policy: quick}
			_, err := c.Charge(context.Background(), payment.Request{ID: "p1"})
			if p.calls != tc.wantCalls {
				t.Errorf("provider called %d times, want %d", p.calls, tc.wantCalls)
			}
			var se *payment.StatusError
			switch {
			case tc.wantErr != nil:
				if !errors.Is(err, tc.wantErr) {
					t.Errorf("Charge: %v, want %v", err, tc.wantErr)
				}
			case tc.wantCode != 0:
				if !errors.As(err, &se) || se.Code != tc.wantCode {
					t.Errorf("Charge: %v, want HTTP %d", err, tc.wantCode)
				}
			case err != nil:
				t.Errorf("Charge: %v, want success", err)
			}
		})
	}
}

func TestDoBackoffIsJitteredAndCapped(t *testing.T) {
	p := fixed.Policy{MaxRetries: 8, BaseDelay: time.Millisecond, MaxDelay: 4 * time.Millisecond}
	var delays []time.Duration
	p.OnRetry = func(attempt int, d time.Duration, err error) { delays = append(delays, d) }
	unavailable := &payment.StatusError{Code: 503}
	_ = fixed.Do(context.Background(), p, func(context.Context) error { return unavailable })
	if len(delays) != 8 {
		t.Fatalf("%d retries, want 8", len(delays))
	}
	for i, d := range delays {
		limit := min(time.Millisecond<<i, 4*time.Millisecond)
		if d < 0 || d > limit {
			t.Errorf("retry %d waited %v, want within [0, %v]", i+1, d, limit)
		}
	}
}

func TestDoStopsWhenContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := fixed.Policy{MaxRetries: 3, BaseDelay: time.Hour, MaxDelay: time.Hour}
	p.OnRetry = func(int, time.Duration, error) { cancel() }
	start := time.Now()
	err := fixed.Do(ctx, p, func(context.Context) error { return &payment.StatusError{Code: 503} })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Do: %v, want context.Canceled", err)
	}
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("Do returned after %v: the wait ignored the context", elapsed)
	}
}
