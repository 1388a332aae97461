// Package restyv2 calls an HTTP API through github.com/go-resty/resty/v2,
// whose client retries by itself once SetRetryCount is set.
package restyv2

import (
	"context"
	"errors"
	"time"

	"github.com/go-resty/resty/v2"
)

// API holds a client built in NewAPI and used by the methods.
type API struct {
	http *resty.Client
}

// NewAPI keeps resty's default back-off: capped exponential with jitter
// from 100ms to 2s, retrying transport errors only.
func NewAPI(base string) *API {
	return &API{http: resty.New().SetBaseURL(base).SetRetryCount(3)}
}

// Quote reads a quote once: the client's retries are the only layer.
func (a *API) Quote(ctx context.Context, id string) (string, error) {
	resp, err := a.http.R().SetContext(ctx).Get("/quotes/" + id)
	if err != nil {
		return "", err
	}
	return resp.String(), nil
}

// QuoteUntilReady asks again until the quote is ready, around a client
// that already retries: (4+1)×(3+1) attempts.
func (a *API) QuoteUntilReady(ctx context.Context, id string) (string, error) {
	var last error
	for attempt := 0; attempt < 5; attempt++ { // want `nested-retry: .*restyv2.go:\d+.*\(4\+1\)×\(3\+1\) = 20 attempts` `unclassified-retry: `
		resp, err := a.http.R().SetContext(ctx).Get("/quotes/" + id)
		if err == nil {
			return resp.String(), nil
		}
		last = err
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(time.Duration(attempt+1) * 200 * time.Millisecond): // want `no-jitter: `
		}
	}
	return "", last
}

// Status sends a request without the caller's context: the client's
// waits go on after the caller gave up.
func (a *API) Status(ctx context.Context) (int, error) {
	resp, err := a.http.R().Get("/status") // want `sleep-ignores-context: a.http.R\(\).Get waits between attempts without ctx although it is in scope; .*SetContext\(ctx\)`
	if err != nil {
		return 0, err
	}
	return resp.StatusCode(), nil
}

// Lockstep gives the back-off no room: every wait is RetryWaitTime.
func Lockstep(ctx context.Context, url string) error {
	c := resty.New().
		SetRetryCount(4).
		SetRetryWaitTime(time.Second).
		SetRetryMaxWaitTime(time.Second) // want `fixed-sleep: c.R\(\).SetContext\(ctx\).Get waits a constant 1s between attempts; .*SetRetryMaxWaitTime room`
	_, err := c.R().SetContext(ctx).Get(url)
	return err
}

// RetryEverything retries every response, successes included.
func RetryEverything(ctx context.Context, url string) error {
	c := resty.New()
	c.SetRetryCount(2)
	c.AddRetryCondition(func(r *resty.Response, err error) bool { return true })
	_, err := c.R().SetContext(ctx).Get(url) // want `unclassified-retry: `
	return err
}

// RetryClientErrors retries on every 4xx and 5xx.
func RetryClientErrors(ctx context.Context, url string) error {
	c := resty.New().SetRetryCount(3).AddRetryAfterErrorCondition()
	_, err := c.R().SetContext(ctx).Post(url) // want `retry-permanent: .*HTTP 400, 401, 403, 404, 405, 410, 422`
	return err
}

// RetryServerErrors retries 429 and 5xx only.
func RetryServerErrors(ctx context.Context, url string) error {
	c := resty.New().SetRetryCount(3).
		AddRetryCondition(func(r *resty.Response, err error) bool {
			return err != nil || r.StatusCode() == 429 || r.StatusCode() >= 500
		})
	_, err := c.R().SetContext(ctx).Get(url)
	return err
}

var errNotFound = errors.New("not found")

// Once sends with a client that does not retry (RetryCount 0), in a loop
// over pages: no retry layer.
func Once(ctx context.Context, urls []string) error {
	c := resty.New().SetRetryWaitTime(time.Second).SetRetryMaxWaitTime(time.Second)
	for _, u := range urls {
		resp, err := c.R().SetContext(ctx).Get(u)
		if err != nil {
			return err
		}
		if resp.StatusCode() == 404 {
			return errNotFound
		}
	}
	return nil
}

// Fetch uses a client handed in: whether it retries is not known here.
func Fetch(ctx context.Context, c *resty.Client, url string) (string, error) {
	resp, err := c.R().SetContext(ctx).Get(url)
	if err != nil {
		return "", err
	}
	return resp.String(), nil
}
