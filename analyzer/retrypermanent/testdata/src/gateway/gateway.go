// Package gateway classifies its upstream's answers with the predicates of
// another package.
package gateway

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"

	"google.golang.org/grpc/status"
	"statuses"
)

type Upstream struct{ c *http.Client }

func (u *Upstream) get(ctx context.Context) (*http.Response, error) { return nil, errors.New("down") }

func pause(ctx context.Context, attempt int) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Duration(rand.Int64N(int64(min(100*time.Millisecond<<attempt, 5*time.Second))))):
		return nil
	}
}

// Fetch retries what statuses.Retryable accepts: transient answers only.
func (u *Upstream) Fetch(ctx context.Context) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := u.get(ctx)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode < 300 {
			return resp, nil
		}
		if !statuses.Retryable(resp.StatusCode) || attempt == 4 {
			return nil, errors.New(resp.Status)
		}
		if err := pause(ctx, attempt); err != nil {
			return nil, err
		}
	}
}

// FetchLoose retries a bad request and a missing resource too.
func (u *Upstream) FetchLoose(ctx context.Context) (*http.Response, error) {
	for attempt := 0; ; attempt++ { // want `retry-permanent: retry loop retries HTTP 400, 404, which cannot succeed`
		resp, err := u.get(ctx)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode < 300 {
			return resp, nil
		}
		if !statuses.Loose(resp.StatusCode) || attempt == 4 {
			return nil, errors.New(resp.Status)
		}
		if err := pause(ctx, attempt); err != nil {
			return nil, err
		}
	}
}

// FetchResponse asks about the response as a whole: 502 and 503.
func (u *Upstream) FetchResponse(ctx context.Context) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := u.get(ctx)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode < 300 {
			return resp, nil
		}
		if !statuses.RetryableResponse(resp) || attempt == 4 {
			return nil, errors.New(resp.Status)
		}
		if err := pause(ctx, attempt); err != nil {
			return nil, err
		}
	}
}

func call(ctx context.Context) error { return errors.New("unavailable") }

// Invoke retries what statuses.Transient accepts, NotFound with it.
func Invoke(ctx context.Context) error {
	var err error
	for attempt := range 5 { // want `retry-permanent: retry loop retries gRPC NotFound`
		if err = call(ctx); err == nil {
			return nil
		}
		if !statuses.Transient(status.Code(err)) {
			return err
		}
		if err := pause(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}
