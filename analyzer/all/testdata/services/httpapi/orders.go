package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"os"
	"strconv"
	"time"
)

// Order is a partner order.
type Order struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Total  int64  `json:"total_cents"`
}

// invoiceRetryable: invoices are written to a replica first, so a fresh
// invoice can 404 for a few seconds after the order completes.
func invoiceRetryable(code int) bool {
	return code == http.StatusNotFound || code == http.StatusTooManyRequests || code >= 500
}

// FetchInvoice downloads the invoice PDF for an order.
func (c *Client) FetchInvoice(ctx context.Context, orderID string) ([]byte, error) {
	var lastStatus int
	for attempt := 0; attempt < 5; attempt++ { // want `retry-permanent: `
		req, err := c.newRequest(ctx, http.MethodGet, "/v2/orders/"+orderID+"/invoice", nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusOK {
			defer resp.Body.Close()
			return io.ReadAll(resp.Body)
		}
		lastStatus = resp.StatusCode
		body := drain(resp)
		if !invoiceRetryable(resp.StatusCode) {
			return nil, &StatusError{Code: resp.StatusCode, Body: body}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(backoff(attempt)):
		}
	}
	return nil, fmt.Errorf("invoice for %s: last status %d", orderID, lastStatus)
}

// CreateOrder submits an order. The partner validates inventory
// asynchronously and sometimes answers 422 until the SKU sync catches up.
func (c *Client) CreateOrder(ctx context.Context, o Order) (*Order, error) {
	for i := 0; i < defaultAttempts; i++ { // want `retry-permanent: `
		req, err := c.newRequest(ctx, http.MethodPost, "/v2/orders", o)
		if err != nil {
			return nil, err
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusCreated:
			defer resp.Body.Close()
			var out Order
			if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
				return nil, err
			}
			return &out, nil
		case http.StatusUnprocessableEntity, http.StatusServiceUnavailable:
			drain(resp)
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(backoff(i)):
			}
		default:
			return nil, &StatusError{Code: resp.StatusCode, Body: drain(resp)}
		}
	}
	return nil, errors.New("create order: partner kept rejecting the order")
}

// ExportStatus asks for the status of a bulk export. The export service
// answers 408 when its own backend is slow and 425 while the export has
// not been scheduled yet; both are worth asking again.
func (c *Client) ExportStatus(ctx context.Context, exportID string) (string, error) {
	for attempt := 0; ; attempt++ {
		req, err := c.newRequest(ctx, http.MethodGet, "/v2/exports/"+exportID, nil)
		if err != nil {
			return "", err
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return "", err
		}
		if resp.StatusCode == http.StatusOK {
			var st struct {
				State string `json:"state"`
			}
			err := json.NewDecoder(resp.Body).Decode(&st)
			resp.Body.Close()
			return st.State, err
		}
		code := resp.StatusCode
		body := drain(resp)
		if code != http.StatusRequestTimeout && code != http.StatusTooEarly || attempt >= 5 {
			return "", &StatusError{Code: code, Body: body}
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(backoff(attempt)):
		}
	}
}

// DownloadReport streams the nightly report to a local file.
func (c *Client) DownloadReport(ctx context.Context, day string, dst string) error {
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ { // want `unclassified-retry: `
		var req *http.Request
		req, err = c.newRequest(ctx, http.MethodGet, "/v2/reports/"+day, nil)
		if err != nil {
			return err
		}
		resp, err = c.HTTP.Do(req)
		if err == nil {
			break
		}
		time.Sleep(2 * time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
	if err != nil {
		return fmt.Errorf("download report %s: %w", day, err)
	}
	defer resp.Body.Close()
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// retryAfter parses a Retry-After header given in seconds.
func retryAfter(h http.Header) (time.Duration, bool) {
	s := h.Get("Retry-After")
	if s == "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, false
	}
	return time.Duration(n) * time.Second, true
}

// ListOrders pages through orders, honouring Retry-After when throttled.
func (c *Client) ListOrders(ctx context.Context, cursor string) ([]Order, string, error) {
	for attempt := 0; attempt < 6; attempt++ {
		req, err := c.newRequest(ctx, http.MethodGet, "/v2/orders?cursor="+cursor, nil)
		if err != nil {
			return nil, "", err
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return nil, "", err
		}
		if resp.StatusCode == http.StatusOK {
			var page struct {
				Orders []Order `json:"orders"`
				Next   string  `json:"next"`
			}
			err := json.NewDecoder(resp.Body).Decode(&page)
			resp.Body.Close()
			return page.Orders, page.Next, err
		}
		body := drain(resp)
		if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
			return nil, "", &StatusError{Code: resp.StatusCode, Body: body}
		}
		wait := backoff(attempt)
		if d, ok := retryAfter(resp.Header); ok {
			// the server's hint plus a little spread so clients do not line up
			wait = min(d, maxBackoff) + time.Duration(rand.Int63n(int64(time.Second)))
		}
		select {
		case <-ctx.Done():
			return nil, "", ctx.Err()
		case <-time.After(wait):
		}
	}
	return nil, "", errors.New("list orders: still throttled")
}

// Search runs a full-text search; the search cluster sheds load with 503.
func (c *Client) Search(ctx context.Context, q string) ([]Order, error) {
	const step = 500 * time.Millisecond
	for attempt := 1; attempt <= 5; attempt++ {
		req, err := c.newRequest(ctx, http.MethodGet, "/v2/search?q="+q, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusOK {
			var hits []Order
			err := json.NewDecoder(resp.Body).Decode(&hits)
			resp.Body.Close()
			return hits, err
		}
		body := drain(resp)
		if resp.StatusCode != http.StatusServiceUnavailable {
			return nil, &StatusError{Code: resp.StatusCode, Body: body}
		}
		// linear backoff, at most 2s
		delay := min(time.Duration(attempt)*step, 2*time.Second)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay): // want `no-jitter: `
		}
	}
	return nil, errors.New("search: cluster overloaded")
}
