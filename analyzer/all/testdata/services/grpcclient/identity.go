package grpcclient

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"services/internal/grpc/codes"
	"services/internal/grpc/status"
)

// Token is a short-lived access token.
type Token struct {
	Value   string
	Expires time.Time
}

// IdentityClient is the generated identity stub.
type IdentityClient interface {
	Exchange(ctx context.Context, refresh string) (*Token, error)
	Introspect(ctx context.Context, token string) (bool, error)
}

// Identity wraps the identity service.
type Identity struct {
	stub IdentityClient
}

// Exchange swaps a refresh token for an access token. Unauthenticated is
// retried because the identity service returns it for a few hundred
// milliseconds after a key rotation.
func (id *Identity) Exchange(ctx context.Context, refresh string) (*Token, error) {
	wait := 200 * time.Millisecond
	for i := 0; i < 4; i++ { // want `retry-permanent: `
		tok, err := id.stub.Exchange(ctx, refresh)
		if err == nil {
			return tok, nil
		}
		if c := status.Code(err); c != codes.Unauthenticated && c != codes.Unavailable {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(rand.N(wait)):
		}
		wait = min(wait*2, 3*time.Second)
	}
	return nil, status.Error(codes.Unauthenticated, "exchange: still rejected")
}

// Introspect checks a token. The identity service sheds load with
// ResourceExhausted; back off exponentially up to 8s.
func (id *Identity) Introspect(ctx context.Context, token string) (bool, error) {
	d := 250 * time.Millisecond
	const maxWait = 8 * time.Second
	for attempt := 0; attempt < 6; attempt++ {
		ok, err := id.stub.Introspect(ctx, token)
		if err == nil {
			return ok, nil
		}
		if status.Code(err) != codes.ResourceExhausted {
			return false, err
		}
		t := time.NewTimer(d) // want `no-jitter: `
		select {
		case <-ctx.Done():
			t.Stop()
			return false, ctx.Err()
		case <-t.C:
		}
		d *= 2
		if d > maxWait {
			d = maxWait
		}
	}
	return false, errors.New("introspect: identity service overloaded")
}

// Warm pre-fetches a token at start-up. Unavailable and DeadlineExceeded
// are retried; this runs before the health check reports ready.
func (id *Identity) Warm(ctx context.Context, refresh string) (*Token, error) {
	var err error
	delay := 100 * time.Millisecond
	for attempt := 0; attempt < 5; attempt++ {
		var tok *Token
		tok, err = id.stub.Exchange(ctx, refresh)
		if err == nil {
			return tok, nil
		}
		switch status.Code(err) {
		case codes.Unavailable, codes.DeadlineExceeded:
		default:
			return nil, err
		}
		time.Sleep(delay/2 + rand.N(delay/2)) // want `sleep-ignores-context: `
		delay = min(delay*3, 5*time.Second)
	}
	return nil, err
}
