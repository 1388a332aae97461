// Package ratelimit is a stand-in for github.com/aws/aws-sdk-go-v2/aws/ratelimit
// v1.48.0: the retry quota.
package ratelimit

import "context"

// None implements a no-op rate limiter which effectively disables client-side
// rate limiting (also known as "retry quotas").
var None = &none{}

type none struct{}

func (*none) AddTokens(v uint) error { return nil }

func (*none) GetToken(ctx context.Context, cost uint) (func() error, error) {
	return func() error { return nil }, nil
}

// TokenRateLimit provides a Token Bucket RateLimiter.
type TokenRateLimit struct{ remaining uint }

// NewTokenRateLimit returns a TokenRateLimit with default values.
func NewTokenRateLimit(tokens uint) *TokenRateLimit { return &TokenRateLimit{remaining: tokens} }

// AddTokens increments the token bucket.
func (l *TokenRateLimit) AddTokens(v uint) error { l.remaining += v; return nil }

// GetToken attempts to deduct cost tokens from the bucket.
func (l *TokenRateLimit) GetToken(ctx context.Context, cost uint) (func() error, error) {
	l.remaining -= cost
	return func() error { return l.AddTokens(cost) }, nil
}
