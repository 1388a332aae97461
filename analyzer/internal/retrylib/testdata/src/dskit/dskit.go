package dskit

import (
	"context"
	"errors"
	"time"

	"github.com/grafana/dskit/backoff"
)

var errTooLarge = errors.New("too large")

func push(ctx context.Context) error { return nil }

func ongoing(ctx context.Context) error {
	b := backoff.New(ctx, backoff.Config{MinBackoff: 100 * time.Millisecond, MaxBackoff: 5 * time.Second, MaxRetries: 5})
	for b.Ongoing() {
		err := push(ctx)
		if err == nil {
			return nil
		}
		if errors.Is(err, errTooLarge) {
			return err
		}
		b.Wait() // want `attempts=5 deadline=false ctx=true delay=grows\+random\+capped at=backoff.Config{.*} classified=true loop`
	}
	return b.Err()
}

func forever() {
	cfg := backoff.Config{MinBackoff: time.Second}
	b := backoff.New(context.Background(), cfg)
	for b.Ongoing() {
		if err := push(context.Background()); err == nil {
			return
		}
		b.Wait() // want `attempts=0 deadline=false ctx=false delay=const\(1s\) at=backoff.Config{.*} classified=false loop`
	}
}

func perAttempt(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ {
		err := push(ctx)
		if err == nil {
			return nil
		}
		b := backoff.New(ctx, backoff.Config{MinBackoff: time.Second, MaxBackoff: time.Minute})
		b.Wait() // want `attempts=0 deadline=false ctx=true delay=random\+capped at=backoff.Config{.*} classified=false fresh=backoff.New\(.*\) loop`
	}
	return nil
}

type ingester struct{ cfg backoff.Config }

func (i *ingester) fromFlags(ctx context.Context) error {
	b := backoff.New(ctx, i.cfg)
	for b.Ongoing() {
		if err := push(ctx); err == nil {
			return nil
		}
		b.Wait() // want `attempts=0 deadline=false ctx=true bound=\? delay=\? at=i.cfg classified=false loop`
	}
	return b.Err()
}

func watch(ctx context.Context, w func(context.Context)) {
	b := backoff.New(ctx, backoff.Config{MinBackoff: 100 * time.Millisecond, MaxBackoff: 5 * time.Second})
	for b.Ongoing() {
		w(ctx) // nothing here fails: the back-off only paces a watch
		b.Wait()
	}
}

func postStatement(ctx context.Context) error {
	retries := backoff.New(ctx, backoff.Config{MinBackoff: time.Second, MaxBackoff: time.Second})
	var err error
	for ; retries.Ongoing(); retries.Wait() { // want `attempts=0 deadline=false ctx=true delay=const\(1s\) at=backoff.Config{.*} classified=false loop`
		if err = push(ctx); err == nil {
			return nil
		}
	}
	return err
}
