package retrygo

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/avast/retry-go/v4"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

var errBadRequest = errors.New("bad request")

func call(ctx context.Context) error { return nil }

func defaults(ctx context.Context) error {
	return retry.Do(func() error { return call(ctx) }) // want `attempts=10 deadline=false ctx=false delay=grows\+random\+capped classified=false`
}

func fixed(ctx context.Context) error {
	return retry.Do( // want `attempts=3 deadline=false ctx=true delay=const\(1s\) at=retry.DelayType\(retry.FixedDelay\) classified=true permanent=\[gRPC NotFound\]`
		func() error { return call(ctx) },
		retry.Attempts(3),
		retry.Delay(time.Second),
		retry.DelayType(retry.FixedDelay),
		retry.Context(ctx),
		retry.RetryIf(func(err error) bool {
			switch status.Code(err) {
			case codes.Unavailable, codes.NotFound:
				return true
			}
			return false
		}),
	)
}

func backoffOnly(ctx context.Context) (int, error) {
	opts := []retry.Option{retry.Attempts(0), retry.DelayType(retry.BackOffDelay)}
	opts = append(opts, retry.Delay(2*time.Second), retry.LastErrorOnly(true))
	return retry.DoWithData(func() (int, error) { // want `attempts=0 deadline=false ctx=false delay=grows at=retry.DelayType\(retry.BackOffDelay\) classified=true`
		err := call(ctx)
		if errors.Is(err, errBadRequest) {
			return 0, retry.Unrecoverable(err)
		}
		return 1, err
	}, opts...)
}

func capped(ctx context.Context) error {
	return retry.Do(func() error { return call(ctx) }, // want `attempts=5 deadline=false ctx=true delay=grows\+random\+capped at=retry.DelayType\(retry.FullJitterBackoffDelay\) classified=true`
		retry.Attempts(5), retry.Delay(time.Second), retry.MaxDelay(10*time.Second),
		retry.DelayType(retry.FullJitterBackoffDelay), retry.Context(ctx),
		retry.RetryIf(isRetryable))
}

func isRetryable(err error) bool {
	var he interface{ StatusCode() int }
	if errors.As(err, &he) {
		return he.StatusCode() >= 500 || he.StatusCode() == http.StatusTooManyRequests
	}
	return false
}

func everything(ctx context.Context) error {
	return retry.Do(func() error { return call(ctx) }, // want `attempts=10 deadline=false ctx=false delay=grows\+random\+capped classified=false`
		retry.RetryIf(func(err error) bool { return true }))
}

func ignoredUnrecoverable(ctx context.Context) error {
	return retry.Do(func() error { // want `attempts=4 deadline=false ctx=false delay=grows\+random\+capped classified=false`
		if err := call(ctx); err != nil {
			return retry.Unrecoverable(err)
		}
		return nil
	}, retry.Attempts(4), retry.RetryIf(func(err error) bool { return err != nil }))
}

func shortGrowth(ctx context.Context) error {
	return retry.Do(func() error { return call(ctx) }, retry.Attempts(3), retry.DelayType(retry.BackOffDelay)) // want `attempts=3 deadline=false ctx=false delay=grows\+capped at=retry.DelayType\(retry.BackOffDelay\) classified=false`
}

type config struct {
	Retries uint
	Delay   time.Duration
}

func configured(ctx context.Context, cfg config) error {
	return retry.Do(func() error { return call(ctx) }, // want `attempts=0 deadline=false ctx=true bound=\? delay=grows\+random at=retry.Delay\(cfg.Delay\) classified=false`
		retry.Attempts(cfg.Retries), retry.Delay(cfg.Delay), retry.Context(ctx))
}

func opaque(ctx context.Context, opts []retry.Option) error {
	return retry.Do(func() error { return call(ctx) }, opts...) // want `attempts=0 deadline=false ctx=false bound=\? delay=\? classified=true`
}

func linear(ctx context.Context) error {
	return retry.Do(func() error { return call(ctx) }, retry.Attempts(8), retry.Context(ctx), // want `attempts=8 deadline=false ctx=true delay=grows at=retry.DelayType\(.*\) classified=false`
		retry.DelayType(func(n uint, err error, config *retry.Config) time.Duration {
			return time.Duration(n) * time.Second
		}))
}

func serverDirected(ctx context.Context) error {
	return retry.Do(func() error { return call(ctx) }, retry.Attempts(8), retry.Context(ctx), // want `attempts=8 deadline=false ctx=true delay=grows\+random\+capped at=retry.DelayType\(.*\) classified=false`
		retry.MaxDelay(time.Minute),
		retry.DelayType(func(n uint, err error, config *retry.Config) time.Duration {
			var he interface{ RetryAfter() time.Duration }
			if errors.As(err, &he) {
				return he.RetryAfter()
			}
			return retry.FullJitterBackoffDelay(n, err, config)
		}))
}
