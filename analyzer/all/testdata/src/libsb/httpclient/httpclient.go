// Package httpclient is client code written against go-retryablehttp:
// clients built with NewClient and struct literals, configured through
// fields set afterwards, kept in structs, and used for requests.
package httpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"
)

// Client talks to the billing API through a retrying HTTP client built in
// NewClient and used by the methods.
type Client struct {
	base string
	http *retryablehttp.Client
}

// NewClient keeps retryablehttp's defaults: DefaultBackoff doubles the wait
// from 1s to 30s without jitter.
func NewClient(base string) *Client {
	hc := retryablehttp.NewClient() // want `no-jitter: retry wait \(retryablehttp.NewClient\(\)\) grows with the attempt but nothing random enters it; .*; set Backoff to retryablehttp.LinearJitterBackoff`
	hc.Logger = nil
	hc.RetryMax = 3
	return &Client{base: base, http: hc}
}

// NewJitteredClient is the fixed constructor.
func NewJitteredClient(base string) *Client {
	hc := retryablehttp.NewClient()
	hc.Logger = nil
	hc.RetryMax = 3
	hc.RetryWaitMin = 200 * time.Millisecond
	hc.RetryWaitMax = 5 * time.Second
	hc.Backoff = retryablehttp.LinearJitterBackoff
	return &Client{base: base, http: hc}
}

// Invoice uses the client of the struct: its configuration is read where
// it is built.
func (c *Client) Invoice(ctx context.Context, id string) (map[string]any, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, c.base+"/invoices/"+id, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out map[string]any
	return out, json.NewDecoder(resp.Body).Decode(&out)
}

// Refund posts with a request built from net/http with the caller's context.
func (c *Client) Refund(ctx context.Context, id string) error {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/refunds/"+id, nil)
	if err != nil {
		return err
	}
	req, err := retryablehttp.FromRequest(hreq)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Ping sends a request without the caller's context: the retries keep
// waiting after the caller gave up.
func (c *Client) Ping(ctx context.Context) error {
	resp, err := c.http.Get(c.base + "/healthz") // want `sleep-ignores-context: c.http.Get waits between attempts without ctx although it is in scope; .*; build the request with retryablehttp.NewRequestWithContext\(ctx, ...\)`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Status uses the context of the request it is given.
func (c *Client) Status(req *retryablehttp.Request) (int, error) {
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}

// FetchOnce configures a client per call with a constant wait.
func FetchOnce(ctx context.Context, url string) (*http.Response, error) {
	client := retryablehttp.NewClient()
	client.RetryMax = 5
	client.Backoff = func(min, max time.Duration, attempt int, resp *http.Response) time.Duration { // want `fixed-sleep: client.Do waits a constant 2s between attempts`
		return 2 * time.Second
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

// FetchEqualBounds sets both bounds of DefaultBackoff to one value: every
// wait is that value.
func FetchEqualBounds(ctx context.Context, url string) (*http.Response, error) {
	client := retryablehttp.NewClient() // want `fixed-sleep: client.Do waits a constant 500ms between attempts`
	client.RetryWaitMin = 500 * time.Millisecond
	client.RetryWaitMax = 500 * time.Millisecond
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

// FetchLinear asks for linear back-off but gives equal bounds, which
// LinearJitterBackoff documents as strictly linear: no jitter is left.
func FetchLinear(ctx context.Context, url string) (*http.Response, error) {
	client := retryablehttp.NewClient()
	client.RetryWaitMin = time.Second
	client.RetryWaitMax = time.Second
	client.Backoff = retryablehttp.LinearJitterBackoff // want `no-jitter: retry wait \(retryablehttp.LinearJitterBackoff\) grows with the attempt but nothing random enters it`
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

// FetchFullJitter waits a random share of a capped exponential delay.
func FetchFullJitter(ctx context.Context, url string) (*http.Response, error) {
	client := retryablehttp.NewClient()
	client.Backoff = func(lo, hi time.Duration, attempt int, resp *http.Response) time.Duration {
		d := min(hi, lo<<attempt)
		return rand.N(d)
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

// literalClient is built as a struct literal with the library's policies.
func literalClient(ctx context.Context, url string) error {
	client := &retryablehttp.Client{
		HTTPClient:   &http.Client{Timeout: 10 * time.Second},
		RetryWaitMin: time.Second,
		RetryWaitMax: 10 * time.Second,
		RetryMax:     3,
		CheckRetry:   retryablehttp.DefaultRetryPolicy,
		Backoff:      retryablehttp.DefaultBackoff, // want `no-jitter: retry wait \(retryablehttp.DefaultBackoff\) grows with the attempt but nothing random enters it`
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPut, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// noRetries is a literal that leaves RetryMax at zero: one attempt.
func noRetries(ctx context.Context, url string) error {
	client := &retryablehttp.Client{
		HTTPClient: http.DefaultClient,
		CheckRetry: retryablehttp.DefaultRetryPolicy,
		Backoff:    retryablehttp.DefaultBackoff,
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// retryEverything retries whatever comes back.
func retryEverything(ctx context.Context, url string) (*http.Response, error) {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.RateLimitLinearJitterBackoff
	client.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		return true, nil
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req) // want `unclassified-retry: client.Do retries every error`
}

// retryMissing also retries 404, waiting for a replica to catch up.
func retryMissing(ctx context.Context, url string) (*http.Response, error) {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if err != nil {
			return true, nil
		}
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode >= 500 {
			return true, nil
		}
		return false, nil
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req) // want `retry-permanent: client.Do retries HTTP 404, which cannot succeed on retry`
}

// retryConflicts adds 409 to the library's policy.
func retryConflicts(ctx context.Context, url string) (*http.Response, error) {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if err == nil && resp.StatusCode == http.StatusConflict {
			return true, nil
		}
		return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPut, url, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

// retryClientErrors retries every status from 400 up.
func retryClientErrors(ctx context.Context, url string) (*http.Response, error) {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if err != nil {
			return true, err
		}
		return resp.StatusCode >= 400, nil
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req) // want `unclassified-retry: client.Do retries every error`
}

// ErrNotReady is returned while the export is being built.
var ErrNotReady = errors.New("export not ready")

// download retries server errors only, with jitter, through net/http.
func download(ctx context.Context, url string) (*http.Response, error) {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 2
	rc.Backoff = retryablehttp.LinearJitterBackoff
	hc := rc.StandardClient()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("download: %w", err)
	}
	if resp.StatusCode == http.StatusAccepted {
		resp.Body.Close()
		return nil, ErrNotReady
	}
	return resp, nil
}

// StandardHTTP hands a default retrying client to net/http.
func StandardHTTP() *http.Client {
	rc := retryablehttp.NewClient() // want `no-jitter: retry wait \(retryablehttp.NewClient\(\)\) grows`
	rc.Logger = nil
	return rc.StandardClient()
}

// quickGet uses the package's default client.
func quickGet(url string) error {
	resp, err := retryablehttp.Get(url) // want `no-jitter: retry wait \(retryablehttp.Get\(url\)\) grows`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// single turns retries off.
func single(ctx context.Context, url string) error {
	client := retryablehttp.NewClient()
	client.RetryMax = 0
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Sync retries, by hand, a request that the client already retries.
func (c *Client) Sync(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `nested-retry: retry loop retries c.http.Do, which retries too \((libsb/)?httpclient/httpclient.go:\d+\): attempts multiply, \(2\+1\)×\(4\+1\) = 15 attempts` `unclassified-retry: `
		req, rerr := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, c.base+"/sync", nil)
		if rerr != nil {
			return rerr
		}
		var resp *http.Response
		resp, err = c.http.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		if errors.Is(err, context.Canceled) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(min(5*time.Second, time.Second<<attempt))):
		}
	}
	return err
}

// API keeps its client in a field set in a literal, then configures it.
type API struct {
	http  *retryablehttp.Client
	token string
}

// NewAPI configures the client after building the struct.
func NewAPI(token string) *API {
	a := &API{http: retryablehttp.NewClient(), token: token}
	a.http.Backoff = retryablehttp.LinearJitterBackoff
	a.http.RetryWaitMax = 10 * time.Second
	return a
}

// NewLegacyAPI leaves the library's back-off.
func NewLegacyAPI(token string) *API {
	return &API{http: retryablehttp.NewClient(), token: token} // want `no-jitter: retry wait \(retryablehttp.NewClient\(\)\) grows`
}

// notFoundToo wraps the library's policy and adds 404.
func notFoundToo(ctx context.Context, url string) (*http.Response, error) {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		ok, perr := retryablehttp.DefaultRetryPolicy(ctx, resp, err)
		if ok || perr != nil {
			return ok, perr
		}
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return true, nil
		}
		return false, nil
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req) // want `retry-permanent: client.Do retries HTTP 404`
}

// throttled retries 429 and 503 only, with the library's jitter, and
// a linear back-off that grows with every attempt.
func throttled(ctx context.Context, url string) (*http.Response, error) {
	client := retryablehttp.NewClient()
	client.RetryMax = 6
	// The linear waits reach 6 × RetryWaitMax: three minutes, uncapped.
	client.Backoff = retryablehttp.RateLimitLinearJitterBackoff // want `no-cap: `
	client.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if err != nil {
			return true, nil
		}
		switch resp.StatusCode {
		case http.StatusTooManyRequests, http.StatusServiceUnavailable:
			return true, nil
		}
		return false, nil
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

// withPolicy uses a policy defined elsewhere in the package.
func withPolicy(ctx context.Context, url string) (*http.Response, error) {
	client := retryablehttp.NewClient()
	client.Backoff = retryablehttp.LinearJitterBackoff
	client.CheckRetry = retryOnUnavailable
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

func retryOnUnavailable(ctx context.Context, resp *http.Response, err error) (bool, error) {
	return err == nil && resp.StatusCode == http.StatusServiceUnavailable, nil
}

// Options tune a client built by NewTunedClient.
type Options struct {
	Retries int
	Jitter  bool
}

func (o Options) apply(c *retryablehttp.Client) {
	c.RetryMax = o.Retries
	if o.Jitter {
		c.Backoff = retryablehttp.LinearJitterBackoff
	}
}

// NewTunedClient hands its client to the options, which may set the
// back-off: nothing is known here about the wait.
func NewTunedClient(o Options) *retryablehttp.Client {
	c := retryablehttp.NewClient()
	o.apply(c)
	return c
}

// NewBackend retries 400 with the server errors, deciding in a variable.
func NewBackend() *http.Client {
	rc := retryablehttp.NewClient()
	rc.Backoff = retryablehttp.LinearJitterBackoff
	rc.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		var shouldRetry bool
		if err != nil {
			shouldRetry = true
		} else if resp.StatusCode == http.StatusBadRequest ||
			resp.StatusCode == http.StatusTooManyRequests ||
			resp.StatusCode >= http.StatusInternalServerError {
			shouldRetry = true
		}
		return shouldRetry, nil
	}
	return rc.StandardClient() // want `retry-permanent: rc.StandardClient retries HTTP 400`
}

// NewWatcher retries network errors and the library's policy.
func NewWatcher() *http.Client {
	rc := retryablehttp.NewClient()
	rc.Backoff = retryablehttp.LinearJitterBackoff
	rc.CheckRetry = func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if _, ok := err.(interface{ Timeout() bool }); ok {
			return true, nil
		}
		return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	}
	return rc.StandardClient()
}

// NewAgent retries for as long as the process lives.
func NewAgent() *http.Client {
	rc := retryablehttp.NewClient()
	rc.RetryMax = math.MaxInt32
	rc.Backoff = retryablehttp.LinearJitterBackoff // want `no-cap: retry wait \(retryablehttp.LinearJitterBackoff\) grows with the attempt without an upper bound; .*; LinearJitterBackoff has no cap: keep RetryMax small`
	return rc.StandardClient()                     // want `unbounded-retry: rc.StandardClient has no attempt limit, deadline or context exit; .*; set RetryMax to a few retries`
}

// NewTransport hands a jittered client to net/http as a transport.
func NewTransport() http.RoundTripper {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.LinearJitterBackoff
	c.CheckRetry = retryablehttp.ErrorPropagatedRetryPolicy
	return &retryablehttp.RoundTripper{Client: c}
}
