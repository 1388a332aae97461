package cenkaltiv5

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v5"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func get(ctx context.Context) (*http.Response, error) { return nil, nil }

func defaults(ctx context.Context) (*http.Response, error) {
	return backoff.Retry(ctx, func() (*http.Response, error) { // want `attempts=0 deadline=true ctx=true delay=grows\+random\+capped classified=false`
		return get(ctx)
	})
}

func noLimit() error {
	_, err := backoff.Retry(context.Background(), func() (struct{}, error) { // want `attempts=0 deadline=false ctx=false delay=grows\+random\+capped classified=false`
		_, err := get(context.Background())
		return struct{}{}, err
	}, backoff.WithMaxElapsedTime(0))
	return err
}

func constant(ctx context.Context) error {
	op := func() (bool, error) {
		_, err := get(ctx)
		if status.Code(err) == codes.InvalidArgument {
			return false, backoff.Permanent(err)
		}
		return err == nil, err
	}
	_, err := backoff.Retry(ctx, op, backoff.WithBackOff(backoff.NewConstantBackOff(500*time.Millisecond)), backoff.WithMaxTries(5)) // want `attempts=5 deadline=true ctx=true delay=const\(500ms\) at=backoff.NewConstantBackOff\(500 \* time.Millisecond\) classified=true`
	return err
}

func noJitter(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	b.RandomizationFactor = 0
	b.Multiplier = 2
	opts := []backoff.RetryOption{backoff.WithBackOff(b)}
	if deadline, ok := ctx.Deadline(); ok {
		opts = append(opts, backoff.WithMaxElapsedTime(time.Until(deadline)))
	}
	_, err := backoff.Retry(ctx, func() (int, error) { // want `attempts=0 deadline=true ctx=true delay=grows\+capped at=b.RandomizationFactor classified=true permanent=\[gRPC NotFound\]`
		_, err := get(ctx)
		switch status.Code(err) {
		case codes.OK:
			return 1, nil
		case codes.NotFound, codes.Unavailable:
			return 0, err
		}
		return 0, backoff.Permanent(errors.New("failed"))
	}, opts...)
	return err
}
