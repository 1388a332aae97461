// Package resty is a stand-in for resty.dev/v3 v3.0.0-rc.4: the
// signatures the libsc packages use, with the library's retry defaults
// (resty.go createClient, client.go R, retry.go).
package resty

import (
	"context"
	"time"
)

const (
	defaultWaitTime    = time.Duration(100) * time.Millisecond
	defaultMaxWaitTime = time.Duration(2000) * time.Millisecond
)

type (
	RetryConditionFunc     func(*Response, error) bool
	RetryHookFunc          func(*Response, error)
	RetryDelayStrategyFunc func(*Response, error) (time.Duration, error)
)

func RetryConstantDelayStrategy(delay time.Duration) RetryDelayStrategyFunc {
	return func(*Response, error) (time.Duration, error) { return delay, nil }
}

func RetryConditionStatusTooManyRequests(res *Response, _ error) bool {
	return res != nil && res.StatusCode() == 429
}

func RetryConditionStatus5XX(res *Response, _ error) bool {
	return res != nil && res.StatusCode() >= 500 && res.StatusCode() != 501
}

// Client is a resty client.
type Client struct {
	retryCount                int
	retryWaitTime             time.Duration
	retryMaxWaitTime          time.Duration
	retryDelayStrategy        RetryDelayStrategyFunc
	isRetryDefaultConditions  bool
	isRetryAllowNonIdempotent bool
	retryConditions           []RetryConditionFunc
}

func New() *Client {
	return &Client{retryWaitTime: defaultWaitTime, retryMaxWaitTime: defaultMaxWaitTime, isRetryDefaultConditions: true}
}

func (c *Client) SetBaseURL(url string) *Client            { return c }
func (c *Client) SetTimeout(timeout time.Duration) *Client { return c }
func (c *Client) SetRetryCount(count int) *Client          { c.retryCount = count; return c }
func (c *Client) SetRetryWaitTime(waitTime time.Duration) *Client {
	c.retryWaitTime = waitTime
	return c
}
func (c *Client) SetRetryMaxWaitTime(maxWaitTime time.Duration) *Client {
	c.retryMaxWaitTime = maxWaitTime
	return c
}
func (c *Client) SetRetryDelayStrategy(rs RetryDelayStrategyFunc) *Client {
	c.retryDelayStrategy = rs
	return c
}
func (c *Client) SetRetryDefaultConditions(b bool) *Client { c.isRetryDefaultConditions = b; return c }
func (c *Client) SetRetryAllowNonIdempotent(b bool) *Client {
	c.isRetryAllowNonIdempotent = b
	return c
}
func (c *Client) AddRetryConditions(conditions ...RetryConditionFunc) *Client {
	c.retryConditions = append(c.retryConditions, conditions...)
	return c
}
func (c *Client) AddRetryHooks(hooks ...RetryHookFunc) *Client { return c }
func (c *Client) Close() error                                 { return nil }
func (c *Client) R() *Request {
	return &Request{client: c, RetryCount: c.retryCount, RetryWaitTime: c.retryWaitTime, RetryMaxWaitTime: c.retryMaxWaitTime}
}
func (c *Client) NewRequest() *Request { return c.R() }

// Request is a request of a client.
type Request struct {
	RetryCount                int
	RetryWaitTime             time.Duration
	RetryMaxWaitTime          time.Duration
	RetryDelayStrategy        RetryDelayStrategyFunc
	IsRetryDefaultConditions  bool
	IsRetryAllowNonIdempotent bool

	client *Client
	ctx    context.Context
}

func (r *Request) SetContext(ctx context.Context) *Request { r.ctx = ctx; return r }
func (r *Request) SetHeader(header, value string) *Request { return r }
func (r *Request) SetBody(body any) *Request               { return r }
func (r *Request) SetResult(v any) *Request                { return r }
func (r *Request) AddRetryConditions(conditions ...RetryConditionFunc) *Request {
	return r
}
func (r *Request) SetRetryConditions(conditions ...RetryConditionFunc) *Request { return r }
func (r *Request) SetRetryCount(count int) *Request                             { r.RetryCount = count; return r }
func (r *Request) SetRetryWaitTime(waitTime time.Duration) *Request             { return r }
func (r *Request) SetRetryMaxWaitTime(maxWaitTime time.Duration) *Request       { return r }
func (r *Request) SetRetryDelayStrategy(rs RetryDelayStrategyFunc) *Request     { return r }
func (r *Request) SetRetryDefaultConditions(b bool) *Request                    { return r }
func (r *Request) SetRetryAllowNonIdempotent(b bool) *Request                   { return r }
func (r *Request) Get(url string) (*Response, error)                            { return r.Execute("GET", url) }
func (r *Request) Head(url string) (*Response, error)                           { return r.Execute("HEAD", url) }
func (r *Request) Post(url string) (*Response, error)                           { return r.Execute("POST", url) }
func (r *Request) Put(url string) (*Response, error)                            { return r.Execute("PUT", url) }
func (r *Request) Patch(url string) (*Response, error)                          { return r.Execute("PATCH", url) }
func (r *Request) Delete(url string) (*Response, error)                         { return r.Execute("DELETE", url) }
func (r *Request) Options(url string) (*Response, error)                        { return r.Execute("OPTIONS", url) }
func (r *Request) Send() (*Response, error)                                     { return r.Execute("GET", "") }
func (r *Request) Execute(method, url string) (res *Response, err error) {
	return &Response{Request: r}, nil
}

// Response is the response to a request.
type Response struct {
	Request *Request
	status  int
}

func (r *Response) StatusCode() int       { return r.status }
func (r *Response) String() string        { return "" }
func (r *Response) Bytes() []byte         { return nil }
func (r *Response) IsStatusSuccess() bool { return r.status > 199 && r.status < 300 }
func (r *Response) IsStatusFailure() bool { return r.status > 399 }
