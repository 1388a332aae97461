package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"time"
)

// Webhook is an outbound notification to a merchant endpoint.
type Webhook struct {
	URL     string
	Payload []byte
	Secret  string
}

// Deliver posts a webhook to the merchant. Merchants misconfigure their
// endpoints all the time, so any 4xx or 5xx gets another go.
func Deliver(ctx context.Context, hc *http.Client, wh Webhook) error {
	wait := time.Second
	var status int
	for try := 0; try < 6; try++ { // want `retry-permanent: `
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, wh.URL, bytes.NewReader(wh.Payload))
		if err != nil {
			return err
		}
		req.Header.Set("X-Signature", sign(wh.Secret, wh.Payload))
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		status = resp.StatusCode
		if status < 300 {
			return nil
		}
		if status >= 400 {
			d := wait/2 + time.Duration(rand.Int63n(int64(wait/2)))
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(d):
			}
			wait = min(wait*2, time.Minute)
			continue
		}
		return fmt.Errorf("webhook %s: unexpected status %d", wh.URL, status)
	}
	return fmt.Errorf("webhook %s: last status %d", wh.URL, status)
}

func sign(secret string, payload []byte) string {
	// HMAC omitted here; the real signer lives in the merchant package.
	return fmt.Sprintf("%x", len(secret)+len(payload))
}

// DeleteSubscription removes a merchant's webhook subscription. The API
// answers 410 while the subscription is being torn down, so keep asking.
func (c *Client) DeleteSubscription(ctx context.Context, id string) error {
	for attempt := 0; attempt < defaultAttempts; attempt++ { // want `retry-permanent: `
		req, err := c.newRequest(ctx, http.MethodDelete, "/v2/subscriptions/"+id, nil)
		if err != nil {
			return err
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return err
		}
		code := resp.StatusCode
		body := drain(resp)
		switch code {
		case http.StatusNoContent, http.StatusOK:
			return nil
		case http.StatusGone, http.StatusServiceUnavailable:
		default:
			return &StatusError{Code: code, Body: body}
		}
		t := time.NewTimer(backoff(attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return fmt.Errorf("delete subscription %s: still pending", id)
}

// ReplayEvent asks the partner to re-send an event. 409 means another
// replay of the same event is in flight; re-read its state and try again.
func (c *Client) ReplayEvent(ctx context.Context, eventID string) error {
	for attempt := 0; attempt < 5; attempt++ {
		var ev struct {
			State   string `json:"state"`
			Version int    `json:"version"`
		}
		if err := c.getOnce(ctx, "/v2/events/"+eventID, &ev); err != nil {
			return err
		}
		if ev.State == "replaying" {
			return nil
		}
		req, err := c.newRequest(ctx, http.MethodPost, "/v2/events/"+eventID+"/replay",
			map[string]int{"if_version": ev.Version})
		if err != nil {
			return err
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return err
		}
		body := drain(resp)
		if resp.StatusCode < 300 {
			return nil
		}
		if resp.StatusCode != http.StatusConflict {
			return &StatusError{Code: resp.StatusCode, Body: body}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff(attempt)):
		}
	}
	return fmt.Errorf("replay %s: conflict persisted", eventID)
}
