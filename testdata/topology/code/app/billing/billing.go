// Package billing charges a customer; it is called once, never retried.
package billing

import (
	"context"
	"net/http"
)

// Biller charges customers.
type Biller struct{ HTTP *http.Client }

// Charge makes one request.
func (b *Biller) Charge(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://billing.example.com/charge", nil)
	if err != nil {
		return err
	}
	resp, err := b.HTTP.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
