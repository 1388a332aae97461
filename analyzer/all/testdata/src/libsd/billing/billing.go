// Package billing charges cards through a gateway, retrying with
// eapache/go-resiliency's retrier.
package billing

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/eapache/go-resiliency/retrier"
)

var (
	ErrTimeout  = errors.New("gateway timeout")
	ErrDeclined = errors.New("card declined")
)

// Gateway is the card gateway.
type Gateway struct {
	http *http.Client
	url  string
}

func (g *Gateway) post(ctx context.Context, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.url+path, nil)
	if err != nil {
		return err
	}
	resp, err := g.http.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		return ErrTimeout
	}
	return nil
}

// Charge retries only gateway timeouts, on a capped, jittered schedule.
func (g *Gateway) Charge(ctx context.Context, id string) error {
	r := retrier.New(retrier.LimitedExponentialBackoff(5, 100*time.Millisecond, 2*time.Second), retrier.WhitelistClassifier{ErrTimeout})
	r.SetJitter(0.25)
	return r.RunCtx(ctx, func(ctx context.Context) error {
		return g.post(ctx, "/charge/"+id)
	})
}

// Refund retries every error, with the default classifier.
func (g *Gateway) Refund(ctx context.Context, id string) error {
	r := retrier.New(retrier.ConstantBackoff(3, time.Second), nil) // want `fixed-sleep: .*LimitedExponentialBackoff`
	return r.RunCtx(ctx, func(ctx context.Context) error {         // want `unclassified-retry: .*WhitelistClassifier`
		return g.post(ctx, "/refund/"+id)
	})
}

// Capture doubles its wait ten times without a cap or jitter, and waits
// on context.Background().
func (g *Gateway) Capture(ctx context.Context, id string) error {
	r := retrier.New(retrier.ExponentialBackoff(10, 500*time.Millisecond), retrier.BlacklistClassifier{ErrDeclined}) // want `no-jitter: .*SetJitter` `no-cap: .*LimitedExponentialBackoff`
	return r.Run(func() error {                                                                                      // want `sleep-ignores-context: .*RunCtx`
		return g.post(ctx, "/capture/"+id)
	})
}

// Settle retries forever.
func (g *Gateway) Settle(id string) error {
	r := retrier.New(retrier.LimitedExponentialBackoff(4, time.Second, 10*time.Second), retrier.WhitelistClassifier{ErrTimeout}).WithInfiniteRetry()
	r.SetJitter(0.1)
	return r.Run(func() error { // want `unbounded-retry: .*WithInfiniteRetry`
		return g.post(context.Background(), "/settle/"+id)
	})
}

// Void retries a few times on a short, fixed list with jitter.
func (g *Gateway) Void(ctx context.Context, id string) error {
	r := retrier.New([]time.Duration{100 * time.Millisecond, 300 * time.Millisecond, time.Second}, retrier.WhitelistClassifier{ErrTimeout})
	r.SetJitter(0.5)
	return r.RunCtx(ctx, func(ctx context.Context) error {
		return g.post(ctx, "/void/"+id)
	})
}

// Lookup retries 404s.
func (g *Gateway) Lookup(ctx context.Context, id string) error {
	r := retrier.New(retrier.LimitedExponentialBackoff(3, 100*time.Millisecond, time.Second), nil)
	r.SetJitter(0.2)
	return r.RunCtx(ctx, func(ctx context.Context) error { // want `retry-permanent: .*HTTP 404`
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.url+"/cards/"+id, nil)
		if err != nil {
			return err
		}
		resp, err := g.http.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode >= 500 {
			return errors.New(resp.Status)
		}
		return nil
	})
}

// Once has no back-off entries: no retry.
func (g *Gateway) Once(ctx context.Context, id string) error {
	r := retrier.New(nil, nil)
	return r.RunCtx(ctx, func(ctx context.Context) error {
		return g.post(ctx, "/once/"+id)
	})
}
