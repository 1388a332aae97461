package payment

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// RetryStrategy decides how long to wait and whether to try again. The
// executor below owns the loop; the strategy owns the policy.
type RetryStrategy struct {
	BaseDelay  time.Duration
	MaxDelay   time.Duration
	MaxRetries int
}

// calculateDelay is full jitter: random(0, min(cap, base * 2^attempt)).
func (s RetryStrategy) calculateDelay(attempt int) time.Duration {
	ceiling := s.MaxDelay
	if attempt < 30 {
		ceiling = min(s.MaxDelay, s.BaseDelay<<attempt)
	}
	return rand.N(ceiling + 1)
}

func (s RetryStrategy) shouldRetry(err error) bool {
	if errors.Is(err, ErrDeclined) || errors.Is(err, ErrInvalidRequest) {
		return false
	}
	return isTransient(err)
}

// Charge authorizes a charge. The idempotency key makes retries safe.
func (c *Client) Charge(ctx context.Context, req ChargeRequest) (*Receipt, error) {
	s := c.strategy
	for attempt := 0; ; attempt++ {
		r, err := c.chargeThroughBreaker(ctx, req)
		if err == nil {
			return r, nil
		}
		if attempt >= s.MaxRetries || !s.shouldRetry(err) {
			return nil, err
		}
		delay := s.calculateDelay(attempt)
		// Retries are invisible load unless they are logged.
		c.log.Warn("retrying charge",
			"key", req.IdempotencyKey, "attempt", attempt+1, "delay", delay, "err", err)
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}
