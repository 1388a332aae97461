// Package schedule retries with growing waits whose attempt limit is, or
// is not, short enough to stand for a cap.
package schedule

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"time"
)

var errBusy = errors.New("busy")

func try(ctx context.Context) error { return errBusy }

// Three attempts: the waits are 100 ms and 200 ms.
func Three(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = try(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(time.Duration(rand.Int64N(int64(100 * time.Millisecond << attempt))))
	}
	return err
}

// Four attempts doubling a variable from 50 ms: the last wait is 400 ms.
func Four(ctx context.Context) error {
	delay := 50 * time.Millisecond
	var err error
	for range 4 {
		if err = try(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(delay + time.Duration(rand.Int64N(int64(delay))))
		delay *= 2
	}
	return err
}

const maxAttempts = 10

// Ten attempts doubling from 100 ms: the last wait before an attempt is
// 25.6 s, and the attempt limit is its cap.
func Ten(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < maxAttempts; attempt++ {
		if err = try(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		time.Sleep(time.Duration(rand.Int64N(int64(100 * time.Millisecond << attempt))))
	}
	return err
}

// Powers grows with math.Pow over six attempts: 3.2 s at the end, and
// the attempt limit is its cap.
func Powers(ctx context.Context) error {
	var err error
	for i := 0; i < 6; i++ {
		if err = try(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		d := time.Duration(math.Pow(2, float64(i))) * 100 * time.Millisecond
		time.Sleep(d + time.Duration(rand.Int64N(int64(d))))
	}
	return err
}

// Gentle grows by a quarter each round, forever.
func Gentle(ctx context.Context) error {
	interval := time.Second
	for {
		err := try(ctx)
		if err == nil || !errors.Is(err, errBusy) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(interval + time.Duration(rand.Int64N(int64(interval/2)))): // want `no-cap: `
		}
		interval = time.Duration(float64(interval) * 1.25)
	}
}

// Capped clamps the growth.
func Capped(ctx context.Context) error {
	interval := time.Second
	for {
		err := try(ctx)
		if err == nil || !errors.Is(err, errBusy) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(interval + time.Duration(rand.Int64N(int64(interval/2)))):
		}
		interval = min(time.Duration(float64(interval)*1.25), time.Minute)
	}
}

const maxRetries = 3

// Quadratic waits 100 ms × i², computed afresh each round: 900 ms at most.
func Quadratic(ctx context.Context) error {
	var err error
	for i := 1; i <= maxRetries; i++ {
		if err = try(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		if i+1 <= maxRetries {
			retryAfter := time.Duration(100*i*i) * time.Millisecond
			time.Sleep(retryAfter)
		}
	}
	return err
}

// QuadraticLong does the same over twelve attempts: 14.4 s at the end,
// still shorter than an outage.
func QuadraticLong(ctx context.Context) error {
	var err error
	for i := 1; i <= 12; i++ {
		if err = try(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		retryAfter := time.Duration(100*i*i) * time.Millisecond
		time.Sleep(retryAfter)
	}
	return err
}

// QuadraticLonger does the same over thirty attempts: 90 s at the end.
func QuadraticLonger(ctx context.Context) error {
	var err error
	for i := 1; i <= 30; i++ {
		if err = try(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		retryAfter := time.Duration(100*i*i) * time.Millisecond
		time.Sleep(retryAfter) // want `no-cap: `
	}
	return err
}

// PowersLong grows with math.Pow over ten attempts from 500 ms: 128 s at
// the end.
func PowersLong(ctx context.Context) error {
	var err error
	for i := 0; i < 10; i++ {
		if err = try(ctx); err == nil || !errors.Is(err, errBusy) {
			return err
		}
		d := time.Duration(math.Pow(2, float64(i))) * 500 * time.Millisecond
		time.Sleep(d + time.Duration(rand.Int64N(int64(d)))) // want `no-cap: `
	}
	return err
}
