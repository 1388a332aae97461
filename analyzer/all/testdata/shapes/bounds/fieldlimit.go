package bounds

import (
	"context"
	"errors"
	"math"
	"time"
)

const defaultRetries = 3

// retryer keeps its limit and first wait in unexported fields that the
// package only ever sets to constants: three retries doubling from 100ms
// end at 400ms, so the growth needs no cap.
type retryer struct {
	retries int
	first   time.Duration
}

func newRetryer() *retryer { return &retryer{retries: defaultRetries, first: 100 * time.Millisecond} }

var errGone = errors.New("gone")

func (r *retryer) Do(ctx context.Context, op func() error) error {
	for i := 0; ; i++ {
		err := op()
		if err == nil || errors.Is(err, errGone) {
			return err
		}
		if i == r.retries {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(r.first * time.Duration(pow2(i))): // want `no-jitter: `
		}
	}
}

func pow2(n int) float64 { return math.Pow(2, float64(n)) }

// tunable takes its limit from the caller: nothing bounds how far the
// wait doubles.
type tunable struct {
	retries int
	first   time.Duration
}

func newTunable(retries int) *tunable {
	return &tunable{retries: retries, first: 100 * time.Millisecond}
}

func (r *tunable) Do(ctx context.Context, op func() error) error {
	for i := 0; ; i++ {
		err := op()
		if err == nil || errors.Is(err, errGone) {
			return err
		}
		if i == r.retries {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(r.first << i): // want `no-jitter: ` `no-cap: `
		}
	}
}
