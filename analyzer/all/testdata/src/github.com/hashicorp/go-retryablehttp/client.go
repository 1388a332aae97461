// Package retryablehttp is a stand-in for github.com/hashicorp/go-retryablehttp
// v0.7.8: the exported API that client code uses, with the same defaults.
package retryablehttp

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand"
	"net/http"
	"net/url"
	"strings"
	"time"
)

var (
	defaultRetryWaitMin = 1 * time.Second
	defaultRetryWaitMax = 30 * time.Second
	defaultRetryMax     = 4

	defaultClient = NewClient()
)

// ReaderFunc is the type of function that can be given natively to NewRequest.
type ReaderFunc func() (io.Reader, error)

// ResponseHandlerFunc is a type of function that takes in a Response.
type ResponseHandlerFunc func(*http.Response) error

// LenReader is an interface implemented by many in-memory io.Reader's.
type LenReader interface {
	Len() int
}

// Request wraps the metadata needed to create HTTP requests.
type Request struct {
	body            ReaderFunc
	responseHandler ResponseHandlerFunc
	*http.Request
}

// WithContext returns wrapped Request with a shallow copy of underlying *http.Request.
func (r *Request) WithContext(ctx context.Context) *Request {
	return &Request{body: r.body, responseHandler: r.responseHandler, Request: r.Request.WithContext(ctx)}
}

// SetResponseHandler allows setting the response handler.
func (r *Request) SetResponseHandler(fn ResponseHandlerFunc) { r.responseHandler = fn }

// BodyBytes allows accessing the request body.
func (r *Request) BodyBytes() ([]byte, error) {
	if r.body == nil {
		return nil, nil
	}
	body, err := r.body()
	if err != nil {
		return nil, err
	}
	return io.ReadAll(body)
}

// FromRequest wraps an http.Request in a retryablehttp.Request.
func FromRequest(r *http.Request) (*Request, error) {
	return &Request{Request: r}, nil
}

// NewRequest creates a new wrapped request.
func NewRequest(method, url string, rawBody interface{}) (*Request, error) {
	return NewRequestWithContext(context.Background(), method, url, rawBody)
}

// NewRequestWithContext creates a new wrapped request with the provided context.
func NewRequestWithContext(ctx context.Context, method, url string, rawBody interface{}) (*Request, error) {
	var body ReaderFunc
	var reader io.Reader
	switch b := rawBody.(type) {
	case nil:
	case []byte:
		body = func() (io.Reader, error) { return strings.NewReader(string(b)), nil }
	case string:
		body = func() (io.Reader, error) { return strings.NewReader(b), nil }
	case io.Reader:
		reader = b
	default:
		return nil, fmt.Errorf("cannot handle type %T", rawBody)
	}
	if body != nil {
		reader, _ = body()
	}
	httpReq, err := http.NewRequestWithContext(ctx, method, url, reader)
	if err != nil {
		return nil, err
	}
	return &Request{body: body, Request: httpReq}, nil
}

// Logger interface allows to use other loggers than standard log.Logger.
type Logger interface {
	Printf(string, ...interface{})
}

// LeveledLogger is an interface that can be implemented by any logger.
type LeveledLogger interface {
	Error(msg string, keysAndValues ...interface{})
	Info(msg string, keysAndValues ...interface{})
	Debug(msg string, keysAndValues ...interface{})
	Warn(msg string, keysAndValues ...interface{})
}

// RequestLogHook allows a function to run before each retry.
type RequestLogHook func(Logger, *http.Request, int)

// ResponseLogHook is like RequestLogHook, but allows running a function on each HTTP response.
type ResponseLogHook func(Logger, *http.Response)

// CheckRetry specifies a policy for handling retries.
type CheckRetry func(ctx context.Context, resp *http.Response, err error) (bool, error)

// Backoff specifies a policy for how long to wait between retries.
type Backoff func(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration

// ErrorHandler is called if retries are expired.
type ErrorHandler func(resp *http.Response, err error, numTries int) (*http.Response, error)

// PrepareRetry is called before retry operation.
type PrepareRetry func(req *http.Request) error

// Client is used to make HTTP requests with automatic retries.
type Client struct {
	HTTPClient *http.Client
	Logger     interface{}

	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	RetryMax     int

	RequestLogHook  RequestLogHook
	ResponseLogHook ResponseLogHook
	CheckRetry      CheckRetry
	Backoff         Backoff
	ErrorHandler    ErrorHandler
	PrepareRetry    PrepareRetry
}

// NewClient creates a new Client with default settings.
func NewClient() *Client {
	return &Client{
		HTTPClient:   &http.Client{},
		RetryWaitMin: defaultRetryWaitMin,
		RetryWaitMax: defaultRetryWaitMax,
		RetryMax:     defaultRetryMax,
		CheckRetry:   DefaultRetryPolicy,
		Backoff:      DefaultBackoff,
	}
}

// DefaultRetryPolicy retries on connection errors, 429 and 5xx except 501.
func DefaultRetryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	shouldRetry, _ := baseRetryPolicy(resp, err)
	return shouldRetry, nil
}

// ErrorPropagatedRetryPolicy is DefaultRetryPolicy returning its reason.
func ErrorPropagatedRetryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	return baseRetryPolicy(resp, err)
}

func baseRetryPolicy(resp *http.Response, err error) (bool, error) {
	if err != nil {
		return true, nil
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		return true, nil
	}
	if resp.StatusCode == 0 || (resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented) {
		return true, fmt.Errorf("unexpected HTTP status %s", resp.Status)
	}
	return false, nil
}

// DefaultBackoff is exponential backoff capped at max, without jitter.
func DefaultBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	mult := math.Pow(2, float64(attemptNum)) * float64(min)
	sleep := time.Duration(mult)
	if float64(sleep) != mult || sleep > max {
		sleep = max
	}
	return sleep
}

// LinearJitterBackoff is linear backoff with jitter between min and max.
func LinearJitterBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	attemptNum++
	if max <= min {
		return min * time.Duration(attemptNum)
	}
	jitter := rand.Float64() * float64(max-min)
	return time.Duration((int64(jitter) + int64(min)) * int64(attemptNum))
}

// RateLimitLinearJitterBackoff honours Retry-After, else LinearJitterBackoff.
func RateLimitLinearJitterBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	return LinearJitterBackoff(min, max, attemptNum, resp)
}

// PassthroughErrorHandler passes through the values of the final request.
func PassthroughErrorHandler(resp *http.Response, err error, _ int) (*http.Response, error) {
	return resp, err
}

// Do wraps calling an HTTP method with retries.
func (c *Client) Do(req *Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; ; i++ {
		if req.body != nil {
			body, berr := req.body()
			if berr != nil {
				return resp, berr
			}
			req.Body = io.NopCloser(body)
		}
		resp, err = c.HTTPClient.Do(req.Request)
		shouldRetry, checkErr := c.CheckRetry(req.Context(), resp, err)
		if !shouldRetry {
			if checkErr != nil {
				err = checkErr
			}
			return resp, err
		}
		if c.RetryMax-i <= 0 {
			break
		}
		timer := time.NewTimer(c.Backoff(c.RetryWaitMin, c.RetryWaitMax, i, resp))
		select {
		case <-req.Context().Done():
			timer.Stop()
			return nil, req.Context().Err()
		case <-timer.C:
		}
	}
	if c.ErrorHandler != nil {
		return c.ErrorHandler(resp, err, c.RetryMax+1)
	}
	return nil, fmt.Errorf("%s %s giving up after %d attempt(s): %w", req.Method, req.URL, c.RetryMax+1, err)
}

// Get is a shortcut for doing a GET request without making a new client.
func Get(url string) (*http.Response, error) { return defaultClient.Get(url) }

// Get is a convenience helper for doing simple GET requests.
func (c *Client) Get(url string) (*http.Response, error) {
	req, err := NewRequest("GET", url, nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

// Head is a shortcut for doing a HEAD request without making a new client.
func Head(url string) (*http.Response, error) { return defaultClient.Head(url) }

// Head is a convenience method for doing simple HEAD requests.
func (c *Client) Head(url string) (*http.Response, error) {
	req, err := NewRequest("HEAD", url, nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

// Post is a shortcut for doing a POST request without making a new client.
func Post(url, bodyType string, body interface{}) (*http.Response, error) {
	return defaultClient.Post(url, bodyType, body)
}

// Post is a convenience method for doing simple POST requests.
func (c *Client) Post(url, bodyType string, body interface{}) (*http.Response, error) {
	req, err := NewRequest("POST", url, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", bodyType)
	return c.Do(req)
}

// PostForm is a shortcut to perform a POST with form data without creating a new client.
func PostForm(url string, data url.Values) (*http.Response, error) {
	return defaultClient.PostForm(url, data)
}

// PostForm is a convenience method for doing simple POST operations using url.Values.
func (c *Client) PostForm(url string, data url.Values) (*http.Response, error) {
	return c.Post(url, "application/x-www-form-urlencoded", strings.NewReader(data.Encode()))
}

// StandardClient returns a stdlib *http.Client whose transport retries.
func (c *Client) StandardClient() *http.Client {
	return &http.Client{Transport: &RoundTripper{Client: c}}
}

// RoundTripper implements http.RoundTripper with retries.
type RoundTripper struct {
	Client *Client
}

// RoundTrip satisfies the http.RoundTripper interface.
func (rt *RoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if rt.Client == nil {
		rt.Client = NewClient()
	}
	retryableReq, err := FromRequest(req)
	if err != nil {
		return nil, err
	}
	return rt.Client.Do(retryableReq)
}
