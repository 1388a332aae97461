// Package runner calls a remote API through the project's pace.Runner: each
// closure given to it is an attempt, and what it returns is the
// classification.
package runner

import (
	"context"
	"errors"
	"net/http"
	"time"

	"shapes/runner/pace"
)

// retryable lists the statuses worth another try; 401 and 403 are among
// them, and no attempt signs in again.
var retryable = []int{401, 403, 429, 500, 502, 503, 504}

// transient lists only statuses that can pass.
var transient = []int{429, 500, 502, 503, 504}

func inList(resp *http.Response, codes []int) bool {
	if resp == nil {
		return false
	}
	for _, c := range codes {
		if resp.StatusCode == c {
			return true
		}
	}
	return false
}

var errGone = errors.New("gone")

func again(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, err
	}
	return inList(resp, retryable), err
}

func againTransient(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, err
	}
	return inList(resp, transient), err
}

// againAfterLimit waits out a rate limit itself before asking for another
// try, and cancellation cannot cut the pause short.
func againAfterLimit(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
		time.Sleep(30 * time.Second) // want `sleep-ignores-context: .*`
		return true, err
	}
	return inList(resp, transient), err
}

// againAfterCtxLimit waits with the context.
func againAfterCtxLimit(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(30 * time.Second):
		}
		return true, err
	}
	return inList(resp, transient), err
}

type Client struct {
	hc   *http.Client
	pace *pace.Runner
}

func (c *Client) Fetch(ctx context.Context, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	err := c.pace.Do(func() (bool, error) { // want `retry-permanent: .*`
		var err error
		resp, err = c.hc.Do(req)
		return again(ctx, resp, err)
	})
	return resp, err
}

func (c *Client) FetchTransient(ctx context.Context, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	err := c.pace.Do(func() (bool, error) {
		var err error
		resp, err = c.hc.Do(req)
		return againTransient(ctx, resp, err)
	})
	return resp, err
}

func (c *Client) FetchPaused(ctx context.Context, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	err := c.pace.Do(func() (bool, error) {
		var err error
		resp, err = c.hc.Do(req)
		return againAfterLimit(ctx, resp, err)
	})
	return resp, err
}

func (c *Client) FetchCtxPaused(ctx context.Context, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	err := c.pace.Do(func() (bool, error) {
		var err error
		resp, err = c.hc.Do(req)
		return againAfterCtxLimit(ctx, resp, err)
	})
	return resp, err
}

// Every failure asks for another try: nothing looks at the error.
func (c *Client) Put(ctx context.Context, req *http.Request) error {
	return c.pace.Do(func() (bool, error) { // want `unclassified-retry: .*`
		resp, err := c.hc.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		return err != nil, err
	})
}

// Only the missing object is tried again, after a pause in the attempt that
// ignores the context.
func (c *Client) Stat(ctx context.Context, req *http.Request) error {
	return c.pace.Do(func() (bool, error) {
		resp, err := c.hc.Do(req)
		if err != nil {
			return false, err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusConflict {
			time.Sleep(5 * time.Second) // want `sleep-ignores-context: .*`
			return true, errGone
		}
		return false, nil
	})
}

// Once never retries: nothing to say.
func (c *Client) Probe(ctx context.Context, req *http.Request) error {
	return c.pace.Once(func() (bool, error) {
		resp, err := c.hc.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		return err != nil, err
	})
}

// A closure that never asks again is no retry.
func (c *Client) Head(ctx context.Context, req *http.Request) error {
	return c.pace.Do(func() (bool, error) {
		resp, err := c.hc.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		return false, err
	})
}

// Waiting for a job is a poll: nothing to say.
func (c *Client) WaitJob(ctx context.Context, req *http.Request) error {
	return pace.Until(func() (bool, error) {
		resp, err := c.hc.Do(req)
		if err != nil {
			return false, err
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	}, time.Second)
}

// The runner classifies the error itself: the attempt only reports it.
func (c *Client) Delete(ctx context.Context, req *http.Request) error {
	return pace.Tries(3, func() error { // want `sleep-ignores-context: pace.Tries takes no context and sleeps between attempts, although ctx is in scope`
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusForbidden {
			return errGone
		}
		return nil
	}, func(err error) bool { return !errors.Is(err, errGone) })
}
