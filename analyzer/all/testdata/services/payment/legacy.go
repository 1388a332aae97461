package payment

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// legacyGateway is the v1 SOAP bridge; it has no context support.
type legacyGateway interface {
	Authorize(req ChargeRequest) (*Receipt, error)
}

// chargeLegacy is the loop the v1 integration shipped with. Still used by
// the batch settlement path until it moves to Client.Charge.
func chargeLegacy(gw legacyGateway, req ChargeRequest) (*Receipt, error) {
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ { // want `unclassified-retry: `
		r, err := gw.Authorize(req)
		if err == nil {
			return r, nil
		}
		lastErr = err
		time.Sleep(1 * time.Second) // want `fixed-sleep: `
	}
	return nil, fmt.Errorf("authorize %s after 5 attempts: %w", req.IdempotencyKey, lastErr)
}

// chargeSlow was the first "fix": wait longer between attempts so the
// provider gets room to breathe.
func (c *Client) chargeSlow(ctx context.Context, req ChargeRequest) (*Receipt, error) {
	var err error
	for attempt := 1; attempt <= 5; attempt++ { // want `unclassified-retry: `
		var r *Receipt
		r, err = c.provider.Charge(ctx, req)
		if err == nil {
			return r, nil
		}
		c.log.Info("charge failed, retrying", "attempt", attempt, "err", err)
		time.Sleep(5 * time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
	return nil, err
}

// chargeExponential doubles the delay up to a minute, retrying only
// transient failures.
func (c *Client) chargeExponential(ctx context.Context, req ChargeRequest) (*Receipt, error) {
	const (
		base     = time.Second
		maxDelay = time.Minute
	)
	for attempt := 0; attempt < 4; attempt++ {
		r, err := c.provider.Charge(ctx, req)
		if err == nil {
			return r, nil
		}
		if !isTransient(err) {
			return nil, err
		}
		delay := min(maxDelay, base<<attempt)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay): // want `no-jitter: `
		}
	}
	return nil, errors.New("payment: provider still unavailable after 4 attempts")
}
