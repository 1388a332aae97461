package cenkaltiv4

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

var errNotFound = errors.New("not found")

func get(ctx context.Context) (*http.Response, error) { return nil, nil }

func defaults(ctx context.Context) error {
	return backoff.Retry(func() error { // want `attempts=0 deadline=true ctx=false delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=false`
		_, err := get(ctx)
		return err
	}, backoff.NewExponentialBackOff())
}

func neverStops(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0
	return backoff.Retry(func() error { // want `attempts=0 deadline=false ctx=false delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=false`
		_, err := get(ctx)
		return err
	}, b)
}

func withContext(ctx context.Context) error {
	b := backoff.NewExponentialBackOff(backoff.WithMaxElapsedTime(0), backoff.WithRandomizationFactor(0))
	op := func() error {
		resp, err := get(ctx)
		if err != nil {
			return err
		}
		if resp.StatusCode >= 400 && resp.StatusCode < 500 {
			return backoff.Permanent(fmt.Errorf("status %d", resp.StatusCode))
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}
	return backoff.Retry(op, backoff.WithContext(backoff.WithMaxRetries(b, 3), ctx)) // want `attempts=4 deadline=false ctx=true delay=grows\+capped at=backoff.WithRandomizationFactor\(0\) classified=true`
}

func retriesNotFound(ctx context.Context) error {
	op := func() error {
		resp, err := get(ctx)
		if err != nil {
			return err
		}
		if resp.StatusCode >= 500 || resp.StatusCode == http.StatusNotFound {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		if resp.StatusCode != http.StatusOK {
			return backoff.Permanent(fmt.Errorf("status %d", resp.StatusCode))
		}
		return nil
	}
	return backoff.RetryNotify(op, backoff.NewConstantBackOff(2*time.Second), nil) // want `attempts=0 deadline=false ctx=false delay=const\(2s\) at=backoff.NewConstantBackOff\(2 \* time.Second\) classified=true permanent=\[HTTP 404\]`
}

type client struct{ bo backoff.BackOff }

func (c *client) fetch() error {
	_, err := get(context.Background())
	if errors.Is(err, errNotFound) {
		return backoff.Permanent(err)
	}
	return err
}

func (c *client) methodValue() error {
	return backoff.Retry(c.fetch, c.bo) // want `attempts=0 deadline=false ctx=false bound=\? delay=\? at=c.bo classified=true`
}

func handLoop(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	b.RandomizationFactor = 0
	for {
		_, err := get(ctx)
		if err == nil {
			return nil
		}
		d := b.NextBackOff() // want `attempts=0 deadline=true ctx=false delay=grows\+capped at=b.RandomizationFactor classified=true loop`
		if d == backoff.Stop {
			return err
		}
		time.Sleep(d)
	}
}

func freshEachRound(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		b := backoff.NewExponentialBackOff()
		if _, err := get(ctx); err == nil {
			return nil
		}
		time.Sleep(b.NextBackOff()) // want `attempts=0 deadline=true ctx=false delay=random\+capped at=backoff.NewExponentialBackOff\(\) classified=true fresh=backoff.NewExponentialBackOff\(\) loop`
	}
	return nil
}

func literal(ctx context.Context) (*http.Response, error) {
	b := &backoff.ExponentialBackOff{
		InitialInterval: time.Second,
		Multiplier:      2,
		MaxInterval:     time.Minute,
		Clock:           backoff.SystemClock,
	}
	b.Reset()
	return backoff.RetryWithData(func() (*http.Response, error) { // want `attempts=0 deadline=false ctx=false delay=grows\+capped at=backoff.ExponentialBackOff{…} classified=false`
		return get(ctx)
	}, b)
}

func stopOnly(ctx context.Context) error {
	return backoff.Retry(func() error { _, err := get(ctx); return err }, &backoff.StopBackOff{})
}

func newBackOff() backoff.BackOff {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0
	b.InitialInterval = 100 * time.Millisecond
	return backoff.WithMaxRetries(b, 5)
}

func helper(ctx context.Context) error {
	return backoff.Retry(func() error { _, err := get(ctx); return err }, newBackOff()) // want `attempts=6 deadline=false ctx=false delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=false`
}

func freshInOperation(ctx context.Context) error {
	attempt := func() error {
		b := backoff.NewExponentialBackOff()
		_, err := get(ctx)
		if err != nil {
			time.Sleep(b.NextBackOff()) // want `attempts=0 deadline=true ctx=false delay=random\+capped at=backoff.NewExponentialBackOff\(\) classified=true fresh=backoff.NewExponentialBackOff\(\) loop`
		}
		return err
	}
	for i := 0; i < 3; i++ {
		if attempt() == nil {
			return nil
		}
	}
	return errNotFound
}

func freshInRetriedOperation(ctx context.Context) error {
	return backoff.Retry(func() error { // want `attempts=6 deadline=false ctx=false nowait at=backoff.ZeroBackOff{} classified=false`
		b := backoff.NewExponentialBackOff()
		_, err := get(ctx)
		if err != nil {
			time.Sleep(b.NextBackOff()) // want `attempts=0 deadline=true ctx=true bound=\? delay=random\+capped at=backoff.NewExponentialBackOff\(\) classified=true fresh=backoff.NewExponentialBackOff\(\)`
		}
		return err
	}, backoff.WithMaxRetries(&backoff.ZeroBackOff{}, 5))
}

func onceInOperation(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	return backoff.Retry(func() error { // want `attempts=0 deadline=true ctx=false delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=false`
		_, err := get(ctx)
		return err
	}, b)
}

func ticker(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0
	t := backoff.NewTicker(b) // want `attempts=0 deadline=false ctx=false delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=false loop`
	defer t.Stop()
	var err error
	for range t.C {
		if _, err = get(ctx); err != nil {
			continue
		}
		break
	}
	return err
}

type pinger interface{ Ping() error }

func foreignOp(db *sql.DB, p pinger) error {
	_ = backoff.Retry(p.Ping, backoff.NewExponentialBackOff())     // want `attempts=0 deadline=true ctx=false delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=true`
	return backoff.Retry(db.Ping, backoff.NewExponentialBackOff()) // want `attempts=0 deadline=true ctx=false delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=false`
}

func assignedPermanent(ctx context.Context) error {
	return backoff.Retry(func() error { // want `attempts=0 deadline=true ctx=false delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=true`
		_, err := get(ctx)
		if errors.Is(err, errNotFound) {
			err = backoff.Permanent(err)
		}
		return err
	}, backoff.NewExponentialBackOff())
}

func permanentForLocalErrors(ctx context.Context, body []byte) error {
	return backoff.Retry(func() error { // want `attempts=0 deadline=true ctx=false delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=false`
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://x", nil)
		if err != nil {
			return backoff.Permanent(err)
		}
		_, err = http.DefaultClient.Do(req)
		return err
	}, backoff.NewExponentialBackOff())
}

type worker struct{ b backoff.BackOff }

func newWorker() *worker {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0
	return &worker{b: b}
}

func (w *worker) run(ctx context.Context) error {
	return backoff.Retry(func() error { // want `attempts=0 deadline=false ctx=false delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=false`
		_, err := get(ctx)
		return err
	}, w.b)
}

func retryableStatus(code int) bool { return code == http.StatusTooManyRequests || code >= 500 }

func statusPredicate(ctx context.Context) error {
	return backoff.Retry(func() error { // want `attempts=0 deadline=true ctx=false delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=true`
		resp, err := get(ctx)
		if err != nil {
			return err
		}
		if !retryableStatus(resp.StatusCode) {
			return backoff.Permanent(fmt.Errorf("status %d", resp.StatusCode))
		}
		return fmt.Errorf("status %d", resp.StatusCode)
	}, backoff.NewExponentialBackOff())
}

func everyStatus(ctx context.Context) error {
	return backoff.Retry(func() error { // want `attempts=0 deadline=true ctx=false delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=true permanent=\[HTTP 400, 401, 403, 404, 405, 410, 422\]`
		resp, err := get(ctx)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}, backoff.NewExponentialBackOff())
}

func resetEachRound(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	for i := 0; i < 4; i++ {
		b.Reset()
		if _, err := get(ctx); err == nil {
			return nil
		}
		time.Sleep(b.NextBackOff()) // want `attempts=0 deadline=true ctx=false delay=random\+capped at=backoff.NewExponentialBackOff\(\) classified=true fresh=b loop`
	}
	return nil
}

func resetOnSuccess(ctx context.Context) {
	b := backoff.NewExponentialBackOff()
	for ctx.Err() == nil {
		if _, err := get(ctx); err == nil {
			b.Reset()
			continue
		}
		time.Sleep(b.NextBackOff()) // want `attempts=0 deadline=true ctx=false delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=true loop`
	}
}

type notifier interface {
	Notify(ctx context.Context) (bool, error)
}

func tickerVerdict(ctx context.Context, n notifier) error {
	tick := backoff.NewTicker(backoff.WithContext(backoff.NewExponentialBackOff(), ctx)) // want `attempts=0 deadline=true ctx=true delay=grows\+random\+capped at=backoff.NewExponentialBackOff\(\) classified=true loop`
	var err error
	for range tick.C {
		var retry bool
		if retry, err = n.Notify(ctx); err == nil || !retry {
			return err
		}
	}
	return err
}
