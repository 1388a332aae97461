package sethvargo

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"time"

	"github.com/sethvargo/go-retry"
)

func get(ctx context.Context) (*http.Response, error) { return nil, nil }

func everyError(ctx context.Context) error {
	b := retry.NewExponential(time.Second)
	b = retry.WithMaxRetries(5, b)
	return retry.Do(ctx, b, func(ctx context.Context) error { // want `attempts=6 deadline=false ctx=true delay=grows\+capped at=retry.NewExponential\(time.Second\) classified=false`
		if _, err := get(ctx); err != nil {
			return retry.RetryableError(err)
		}
		return nil
	})
}

func classified(ctx context.Context) error {
	b := retry.WithCappedDuration(10*time.Second, retry.WithJitterPercent(10, retry.NewFibonacci(500*time.Millisecond)))
	return retry.Do(ctx, retry.WithMaxDuration(time.Minute, b), func(ctx context.Context) error { // want `attempts=0 deadline=true ctx=true delay=grows\+random\+capped at=retry.NewFibonacci\(500 \* time.Millisecond\) classified=true`
		resp, err := get(ctx)
		if err != nil {
			return err
		}
		if resp.StatusCode >= 500 {
			return retry.RetryableError(errors.New("server error"))
		}
		return nil
	})
}

func retriesForbidden(ctx context.Context) error {
	return retry.Constant(context.Background(), time.Second, func(ctx context.Context) error { // want `attempts=0 deadline=false ctx=false delay=const\(1s\) at=time.Second classified=true permanent=\[HTTP 403\]`
		resp, err := get(ctx)
		if err != nil {
			return err
		}
		if resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusServiceUnavailable {
			return retry.RetryableError(errors.New(resp.Status))
		}
		return nil
	})
}

func noRetry(ctx context.Context, db *sql.DB) error {
	return retry.Do(ctx, retry.NewConstant(time.Second), func(ctx context.Context) error {
		return db.PingContext(ctx)
	})
}

func handLoop(ctx context.Context) error {
	b := retry.WithMaxRetries(3, retry.NewExponential(100*time.Millisecond))
	for {
		_, err := get(ctx)
		if err == nil {
			return nil
		}
		d, stop := b.Next() // want `attempts=4 deadline=false ctx=false delay=grows\+capped at=retry.NewExponential\(100 \* time.Millisecond\) classified=true loop`
		if stop {
			return err
		}
		time.Sleep(d)
	}
}
