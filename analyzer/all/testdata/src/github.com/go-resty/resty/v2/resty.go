// Package resty is a stand-in for github.com/go-resty/resty/v2 v2.17.2:
// the signatures the libsc packages use, with the library's retry
// defaults (retry.go, client.go, request.go).
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
	RetryConditionFunc func(*Response, error) bool
	OnRetryFunc        func(*Response, error)
	RetryAfterFunc     func(*Client, *Response) (time.Duration, error)
)

// Client is a resty client.
type Client struct {
	BaseURL          string
	RetryCount       int
	RetryWaitTime    time.Duration
	RetryMaxWaitTime time.Duration
	RetryConditions  []RetryConditionFunc
	RetryHooks       []OnRetryFunc
	RetryAfter       RetryAfterFunc
}

func New() *Client {
	return &Client{RetryWaitTime: defaultWaitTime, RetryMaxWaitTime: defaultMaxWaitTime}
}

func (c *Client) SetBaseURL(url string) *Client            { c.BaseURL = url; return c }
func (c *Client) SetTimeout(timeout time.Duration) *Client { return c }
func (c *Client) SetRetryCount(count int) *Client          { c.RetryCount = count; return c }
func (c *Client) SetRetryWaitTime(waitTime time.Duration) *Client {
	c.RetryWaitTime = waitTime
	return c
}
func (c *Client) SetRetryMaxWaitTime(maxWaitTime time.Duration) *Client {
	c.RetryMaxWaitTime = maxWaitTime
	return c
}
func (c *Client) SetRetryAfter(callback RetryAfterFunc) *Client { c.RetryAfter = callback; return c }
func (c *Client) AddRetryCondition(condition RetryConditionFunc) *Client {
	c.RetryConditions = append(c.RetryConditions, condition)
	return c
}
func (c *Client) AddRetryAfterErrorCondition() *Client {
	return c.AddRetryCondition(func(response *Response, err error) bool { return response.IsError() })
}
func (c *Client) AddRetryHook(hook OnRetryFunc) *Client {
	c.RetryHooks = append(c.RetryHooks, hook)
	return c
}
func (c *Client) R() *Request          { return &Request{client: c} }
func (c *Client) NewRequest() *Request { return c.R() }

// Request is a request of a client.
type Request struct {
	client          *Client
	ctx             context.Context
	retryConditions []RetryConditionFunc
}

func (r *Request) SetContext(ctx context.Context) *Request { r.ctx = ctx; return r }
func (r *Request) SetHeader(header, value string) *Request { return r }
func (r *Request) SetBody(body interface{}) *Request       { return r }
func (r *Request) SetResult(res interface{}) *Request      { return r }
func (r *Request) SetError(err interface{}) *Request       { return r }
func (r *Request) AddRetryCondition(condition RetryConditionFunc) *Request {
	r.retryConditions = append(r.retryConditions, condition)
	return r
}
func (r *Request) Get(url string) (*Response, error)             { return r.Execute("GET", url) }
func (r *Request) Head(url string) (*Response, error)            { return r.Execute("HEAD", url) }
func (r *Request) Post(url string) (*Response, error)            { return r.Execute("POST", url) }
func (r *Request) Put(url string) (*Response, error)             { return r.Execute("PUT", url) }
func (r *Request) Delete(url string) (*Response, error)          { return r.Execute("DELETE", url) }
func (r *Request) Options(url string) (*Response, error)         { return r.Execute("OPTIONS", url) }
func (r *Request) Patch(url string) (*Response, error)           { return r.Execute("PATCH", url) }
func (r *Request) Send() (*Response, error)                      { return r.Execute("GET", "") }
func (r *Request) Execute(method, url string) (*Response, error) { return &Response{Request: r}, nil }

// Response is the response to a request.
type Response struct {
	Request *Request
	status  int
}

func (r *Response) Body() []byte    { return nil }
func (r *Response) StatusCode() int { return r.status }
func (r *Response) String() string  { return "" }
func (r *Response) IsSuccess() bool { return r.StatusCode() > 199 && r.StatusCode() < 300 }
func (r *Response) IsError() bool   { return r.StatusCode() > 399 }
