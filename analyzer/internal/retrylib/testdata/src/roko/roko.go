package roko

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/buildkite/roko"
)

var errGone = errors.New("gone")

func call(ctx context.Context) (*http.Response, error) { return nil, nil }

func constant(ctx context.Context) error {
	return roko.NewRetrier( // want `attempts=3 deadline=false ctx=true delay=const\(5s\)\+capped at=roko.Constant\(5 \* time.Second\) classified=false`
		roko.WithMaxAttempts(3),
		roko.WithStrategy(roko.Constant(5*time.Second)),
	).DoWithContext(ctx, func(*roko.Retrier) error {
		_, err := call(ctx)
		return err
	})
}

func jittered() error {
	r := roko.NewRetrier(roko.WithMaxAttempts(3), roko.WithJitter(), roko.WithStrategy(roko.Constant(time.Second)))
	return r.Do(func(r *roko.Retrier) error { // want `attempts=3 deadline=false ctx=false delay=random\+capped at=roko.Constant\(time.Second\) classified=true`
		_, err := call(context.Background())
		if errors.Is(err, errGone) {
			r.Break()
		}
		return err
	})
}

func exponential(ctx context.Context) error {
	// 1s, 2s, ... 2^5 = 32s: past the short schedule.
	return roko.NewRetrier( // want `attempts=7 deadline=false ctx=true delay=grows at=roko.Exponential\(2 \* time.Second, 0\) classified=false`
		roko.WithMaxAttempts(7),
		roko.WithStrategy(roko.Exponential(2*time.Second, 0)),
	).DoWithContext(ctx, func(*roko.Retrier) error {
		_, err := call(ctx)
		return err
	})
}

func exponentialShort(ctx context.Context) error {
	// 1s, 2s, 4s, 8s.
	return roko.NewRetrier( // want `attempts=5 deadline=false ctx=true delay=grows\+random\+capped at=roko.Exponential\(2 \* time.Second, 0\) classified=false`
		roko.WithMaxAttempts(5),
		roko.WithStrategy(roko.Exponential(2*time.Second, 0)),
		roko.WithJitter(),
	).DoWithContext(ctx, func(*roko.Retrier) error {
		_, err := call(ctx)
		return err
	})
}

func exponentialOfOne(ctx context.Context) error {
	// 1^n seconds + 5s: the same every time. A 404 ends it, as done;
	// every other status is retried.
	return roko.NewRetrier( // want `attempts=10 deadline=false ctx=true delay=const\(6s\)\+capped at=roko.Exponential\(time.Second, 5 \* time.Second\) classified=true permanent=\[HTTP 400, 401, 403, 405, 410, 422\]`
		roko.WithMaxAttempts(10),
		roko.WithStrategy(roko.Exponential(time.Second, 5*time.Second)),
	).DoWithContext(ctx, func(*roko.Retrier) error {
		resp, err := call(ctx)
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusNotFound {
				return nil
			}
			return err
		}
		return nil
	})
}

func subsecond(ctx context.Context) error {
	// 500ms^(8/16+1) = 11s at the last wait: short.
	r := roko.NewRetrier(roko.WithMaxAttempts(10), roko.WithStrategy(roko.ExponentialSubsecond(500*time.Millisecond)))
	_, err := roko.DoFunc(ctx, r, func(*roko.Retrier) (int, error) { // want `attempts=10 deadline=false ctx=true delay=grows\+capped at=roko.ExponentialSubsecond\(500 \* time.Millisecond\) classified=false`
		_, err := call(ctx)
		return 1, err
	})
	return err
}

func subsecondLong(ctx context.Context) error {
	// 2s: 2, 3, 5, 8, ... 89s.
	r := roko.NewRetrier(roko.WithMaxAttempts(10), roko.WithStrategy(roko.ExponentialSubsecond(2*time.Second)))
	_, _, err := roko.DoFunc2(ctx, r, func(*roko.Retrier) (int, string, error) { // want `attempts=10 deadline=false ctx=true delay=grows at=roko.ExponentialSubsecond\(2 \* time.Second\) classified=false`
		_, err := call(ctx)
		return 1, "", err
	})
	return err
}

func forever() error {
	return roko.NewRetrier( // want `attempts=0 deadline=false ctx=false delay=random\+capped at=roko.Constant\(time.Second\) classified=false`
		roko.TryForever(),
		roko.WithJitter(),
		roko.WithStrategy(roko.Constant(time.Second)),
	).Do(func(*roko.Retrier) error {
		_, err := call(context.Background())
		return err
	})
}

func foreverWithDeadline(ctx context.Context) error {
	// The deadline comes from a tuple assignment: the context is
	// read as one that ends, not as a deadline.
	ctx, cancel := context.WithTimeout(ctx, time.Hour)
	defer cancel()
	return roko.NewRetrier( // want `attempts=0 deadline=false ctx=true delay=random\+capped at=roko.Constant\(time.Second\) classified=false`
		roko.WithMaxAttempts(3), // TryForever wins
		roko.TryForever(),
		roko.WithJitter(),
		roko.WithStrategy(roko.Constant(time.Second)),
	).DoWithContext(ctx, func(*roko.Retrier) error {
		_, err := call(ctx)
		return err
	})
}

func breakOnSome(ctx context.Context) error {
	return roko.NewRetrier( // want `attempts=4 deadline=false ctx=true delay=const\(1s\)\+capped at=roko.Constant\(time.Second\) classified=true permanent=\[HTTP 400, 403, 405, 410, 422\]`
		roko.WithMaxAttempts(4),
		roko.WithStrategy(roko.Constant(time.Second)),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		resp, err := call(ctx)
		if resp != nil && (resp.StatusCode == 401 || resp.StatusCode == 404) {
			r.Break()
		}
		if err != nil {
			return err
		}
		return nil
	})
}

func breakOnAllClientErrors(ctx context.Context) error {
	return roko.NewRetrier( // want `attempts=4 deadline=false ctx=true delay=const\(1s\)\+capped at=roko.Constant\(time.Second\) classified=true`
		roko.WithMaxAttempts(4),
		roko.WithStrategy(roko.Constant(time.Second)),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		resp, err := call(ctx)
		if err != nil {
			return err
		}
		if resp.StatusCode >= 400 && resp.StatusCode < 500 {
			r.Break()
			return errors.New(resp.Status)
		}
		if resp.StatusCode >= 500 {
			return errors.New(resp.Status)
		}
		return nil
	})
}

func breakInElse(ctx context.Context) error {
	return roko.NewRetrier( // want `attempts=4 deadline=false ctx=true delay=const\(1s\)\+capped at=roko.Constant\(time.Second\) classified=true`
		roko.WithMaxAttempts(4),
		roko.WithStrategy(roko.Constant(time.Second)),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		resp, err := call(ctx)
		if err != nil {
			return err
		}
		if resp.StatusCode == 429 || resp.StatusCode >= 500 {
			// retried
		} else if resp.StatusCode >= 400 {
			r.Break()
		}
		if resp.StatusCode >= 400 {
			return errors.New(resp.Status)
		}
		return nil
	})
}

func retryAfter(ctx context.Context) error {
	return roko.NewRetrier( // want `attempts=4 deadline=false ctx=true delay=\? at=roko.Constant\(time.Second\) classified=false`
		roko.WithMaxAttempts(4),
		roko.WithStrategy(roko.Constant(time.Second)),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		_, err := call(ctx)
		r.SetNextInterval(max(time.Second, r.NextInterval()))
		return err
	})
}

func retryAfterOn429(ctx context.Context) error {
	return roko.NewRetrier( // want `attempts=4 deadline=false ctx=true delay=const\(10s\)\+capped at=roko.Constant\(10 \* time.Second\) classified=true`
		roko.WithMaxAttempts(4),
		roko.WithStrategy(roko.Constant(10*time.Second)),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		resp, err := call(ctx)
		if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
			r.SetNextInterval(time.Minute)
		}
		if resp != nil && resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
			r.Break()
		}
		return err
	})
}

func sleepFunc(ctx context.Context) error {
	return roko.NewRetrier( // want `attempts=3 deadline=false ctx=true delay=\? at=roko.Constant\(0\) classified=false`
		roko.WithMaxAttempts(3),
		roko.WithStrategy(roko.Constant(0)),
		roko.WithSleepFunc(func(time.Duration) {}),
	).DoWithContext(ctx, func(*roko.Retrier) error {
		_, err := call(ctx)
		return err
	})
}

func given(ctx context.Context, r *roko.Retrier) error {
	return r.DoWithContext(ctx, func(*roko.Retrier) error { // want `attempts=0 deadline=false ctx=true bound=\? delay=\? classified=false`
		_, err := call(ctx)
		return err
	})
}

func once(ctx context.Context) error {
	return roko.NewRetrier(roko.WithMaxAttempts(1), roko.WithStrategy(roko.Constant(time.Second))).DoWithContext(ctx, func(*roko.Retrier) error {
		_, err := call(ctx)
		return err
	})
}
