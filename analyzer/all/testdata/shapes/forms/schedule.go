package forms

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

var errRevoked = errors.New("revoked")

var renewIntervals = []time.Duration{time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute}

// RenewWithSchedule waits nothing before its first try, then each step of
// a growing table, staying on the last: it grows and is capped, but every
// instance walks the table in step.
func RenewWithSchedule(ctx context.Context, renew func(context.Context) error) error {
	step := -1
	for attempt := 0; attempt < 20; attempt++ {
		var wait time.Duration
		if step >= 0 {
			wait = renewIntervals[step]
		}
		timer := time.NewTimer(wait) // want `no-jitter: `
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
		err := renew(ctx)
		if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, errRevoked) {
			return err
		}
		if step < len(renewIntervals)-1 {
			step++
		}
	}
	return errors.New("renewal gave up")
}

// JitteredSchedule spreads each step of the table.
func JitteredSchedule(ctx context.Context, renew func(context.Context) error) error {
	step := -1
	for attempt := 0; attempt < 20; attempt++ {
		var wait time.Duration
		if step >= 0 {
			wait = renewIntervals[step]
			wait = wait/2 + rand.N(wait/2)
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
		err := renew(ctx)
		if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, errRevoked) {
			return err
		}
		if step < len(renewIntervals)-1 {
			step++
		}
	}
	return errors.New("renewal gave up")
}
