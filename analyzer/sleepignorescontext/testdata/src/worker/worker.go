// Package worker holds job workers whose retries wait in different ways.
package worker

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"
)

type Job struct{ ID string }

type Queue interface {
	Ack(ctx context.Context, j Job) error
}

var ErrTransient = errors.New("transient")

func backoff(attempt int) time.Duration {
	return rand.N(min(time.Duration(1<<attempt)*100*time.Millisecond, 10*time.Second))
}

// The function has ctx, yet sleeps.
func Ack(ctx context.Context, q Queue, j Job) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = q.Ack(ctx, j); err == nil || !errors.Is(err, ErrTransient) {
			return err
		}
		time.Sleep(backoff(attempt)) // want `sleep-ignores-context: retry loop waits with time.Sleep although ctx is in scope`
	}
	return err
}

// Two results: the fix returns a zero value beside ctx.Err().
func Fetch(ctx context.Context, hc *http.Client, url string) (*http.Response, error) {
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := hc.Get(url)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		time.Sleep(backoff(attempt)) // want `sleep-ignores-context`
	}
	return nil, errors.New("unavailable")
}

// A context from a request, under another name; a timer already in scope.
func Handle(w http.ResponseWriter, r *http.Request, q Queue) {
	reqCtx := r.Context()
	timer := time.Now()
	_ = timer
	for attempt := 0; attempt < 3; attempt++ {
		if err := q.Ack(reqCtx, Job{}); err == nil || !errors.Is(err, ErrTransient) {
			return
		}
		time.Sleep(backoff(attempt)) // want `sleep-ignores-context: retry loop waits with time.Sleep although reqCtx is in scope`
	}
}

// A bare receive from time.After cannot be cancelled either.
func AckAfter(ctx context.Context, q Queue, j Job) (int, error) {
	for attempt := 0; attempt < 5; attempt++ {
		err := q.Ack(ctx, j)
		if err == nil {
			return attempt, nil
		}
		if !errors.Is(err, ErrTransient) {
			return attempt, err
		}
		<-time.After(backoff(attempt)) // want `sleep-ignores-context: retry loop waits with <-time.After`
	}
	return 5, errors.New("gave up")
}

// --- must not be flagged ---

// select on ctx.Done() and a timer.
func AckSelect(ctx context.Context, q Queue, j Job) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = q.Ack(ctx, j); err == nil || !errors.Is(err, ErrTransient) {
			return err
		}
		t := time.NewTimer(backoff(attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return err
}

// A helper that waits on the context.
func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

func AckHelper(ctx context.Context, q Queue, j Job) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = q.Ack(ctx, j); err == nil || !errors.Is(err, ErrTransient) {
			return err
		}
		if err := sleepCtx(ctx, backoff(attempt)); err != nil {
			return err
		}
	}
	return err
}

// No context anywhere: time.Sleep is all there is.
func AckNoContext(q Queue, j Job) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = q.Ack(context.TODO(), j); err == nil || !errors.Is(err, ErrTransient) {
			return err
		}
		time.Sleep(backoff(attempt))
	}
	return err
}

// A sleep that is not in a retry loop.
func Delay(ctx context.Context, q Queue, j Job) error {
	time.Sleep(time.Second)
	return q.Ack(ctx, j)
}

// Throttling after success in a function with ctx: not a retry wait.
func AckAll(ctx context.Context, q Queue, jobs []Job) error {
	for _, j := range jobs {
		if err := q.Ack(ctx, j); err != nil {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// Consumer keeps the context it was started with.
type Consumer struct {
	ctx context.Context
	q   Queue
}

// Ack retries with the consumer's context, held in a field.
func (c *Consumer) Ack(j Job) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = c.q.Ack(c.ctx, j); err == nil || !errors.Is(err, ErrTransient) {
			return err
		}
		time.Sleep(backoff(attempt)) // want `sleep-ignores-context: retry loop waits with time.Sleep although c.ctx is in scope`
	}
	return err
}
