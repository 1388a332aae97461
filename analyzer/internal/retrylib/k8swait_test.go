package retrylib

import (
	"testing"
)

func TestK8sWaitRetriers(t *testing.T) {
	got := retriersOf(t, `package unit

import (
	"context"
	"errors"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

func op() error { return errors.New("x") }

func long() {
	wait.ExponentialBackoff(wait.Backoff{Duration: time.Second, Factor: 2, Steps: 30}, func() (bool, error) {
		if err := op(); err != nil {
			return false, nil
		}
		return true, nil
	})
}

func short(ctx context.Context) {
	b := wait.Backoff{Duration: 100 * time.Millisecond, Factor: 2, Jitter: 0.2, Steps: 4}
	wait.ExponentialBackoffWithContext(ctx, b, func(context.Context) (bool, error) {
		return op() == nil, nil
	})
}

func check() (bool, error) { return false, nil }

func given(b wait.Backoff) {
	wait.ExponentialBackoff(b, check)
}

func readiness(ctx context.Context) {
	wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(context.Context) (bool, error) {
		if err := op(); err != nil {
			return false, err
		}
		return true, nil
	})
}

func retrying(ctx context.Context) {
	wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(context.Context) (bool, error) {
		if err := op(); err != nil {
			return false, nil
		}
		return true, nil
	})
}

func forever() {
	wait.PollInfinite(time.Second, func() (bool, error) {
		if err := op(); err != nil {
			return false, nil
		}
		return true, nil
	})
}

func neverStop() {
	wait.PollUntil(time.Second, func() (bool, error) {
		if err := op(); err != nil {
			return false, nil
		}
		return true, nil
	}, wait.NeverStop)
}

func periodic(stop <-chan struct{}) {
	wait.Until(func() { op() }, time.Second, stop)
}
`)
	type want struct {
		attempts          int
		deadline, context bool
		delay             Delay
		classified        bool
	}
	cases := map[string]*want{
		"long":      {attempts: 30, delay: Delay{Grows: true}},
		"short":     nil, // the condition retries nothing: false, nil on failure is not written
		"given":     {attempts: unknownSteps, delay: Delay{Unknown: true}, classified: true},
		"readiness": nil,
		"retrying":  {deadline: true, context: true, delay: Delay{Value: "1s"}},
		"forever":   {delay: Delay{Value: "1s"}},
		"neverStop": {delay: Delay{Value: "1s"}},
		"periodic":  nil,
	}
	expectRetriers(t, got, cases, func(r *Retrier) want { return want{r.Attempts, r.Deadline, r.Context, r.Delay, r.Classified} })
}

func TestWaitBackoffSchedule(t *testing.T) {
	b := waitBackoff{durationV: 10e6, factorV: 5, jitterV: 0.1, stepsV: 4, durationK: true, factorK: true, jitterK: true, capK: true, stepsK: true}
	// client-go's DefaultBackoff: 10ms, 50ms, 250ms, each up to 10% more.
	total, ok := b.totalWait()
	if !ok || total < 310e6 || total > 341e6 {
		t.Errorf("DefaultBackoff waits %v in all (known %v), want 310ms to 341ms", total, ok)
	}
	if d := b.delay(); !d.Grows || !d.Random || !d.Capped {
		t.Errorf("DefaultBackoff's wait is %+v, want growing, random and short", d)
	}
}

func TestWaitBackoffEndsAtCap(t *testing.T) {
	// 1s doubling: after the fourth condition (8s) the next duration, 16s,
	// passes a 10s cap and ExponentialBackoff stops, whatever Steps says.
	b := waitBackoff{durationV: 1e9, factorV: 2, stepsV: 1 << 30, capV: 10e9, durationK: true, factorK: true, jitterK: true, capK: true, stepsK: true}
	if got := b.attempts(); got != 4 {
		t.Errorf("attempts = %d, want 4", got)
	}
	// A cap the schedule reaches exactly still allows that step: 1, 2, 4, 8.
	b.capV = 8e9
	if got := b.attempts(); got != 4 {
		t.Errorf("attempts with an 8s cap = %d, want 4", got)
	}
}
