// Package poll asks a status API until it answers, as often as its caller
// configures.
package poll

import (
	"context"
	"net/http"
	"time"
)

// Poller polls with a configured attempt limit.
type Poller struct{ MaxAttempts int }

// Poll asks until the API answers 200, at most MaxAttempts times.
func (p *Poller) Poll(ctx context.Context) error {
	var err error
	for i := 0; i < p.MaxAttempts; i++ {
		var resp *http.Response
		resp, err = http.Get("https://status.example.com/v1")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}
