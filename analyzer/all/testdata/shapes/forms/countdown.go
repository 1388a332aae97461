package forms

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

var errLayer = errors.New("layer unavailable")

// Download waits attempt×5 ticks of a one-second ticker between attempts:
// the wait grows with the attempt and nothing random enters it.
func Download(ctx context.Context, fetch func(context.Context) error) error {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	var err error
	for attempt := 1; attempt <= 5; attempt++ {
		if err = fetch(ctx); err == nil || !errors.Is(err, errLayer) {
			return err
		}
		for i := attempt * 5; i > 0; i-- {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-t.C: // want `no-jitter: `
			}
		}
	}
	return err
}

// DownloadJittered counts down the same number of ticks, each one of a
// random length.
func DownloadJittered(ctx context.Context, fetch func(context.Context) error) error {
	var err error
	for attempt := 1; attempt <= 5; attempt++ {
		if err = fetch(ctx); err == nil || !errors.Is(err, errLayer) {
			return err
		}
		for i := attempt * 5; i > 0; i-- {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(rand.N(time.Second)):
			}
		}
	}
	return err
}

// DrainPending waits for each pending item in turn after a failure, a jittered
// time: the rounds of the inner loop do not grow with the attempt.
func DrainPending(ctx context.Context, fetch func(context.Context) error, pending []string) error {
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		if err = fetch(ctx); err == nil || !errors.Is(err, errLayer) {
			return err
		}
		for range pending {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(rand.N(100 * time.Millisecond)):
			}
		}
	}
	return err
}

// FetchEach retries each chunk of every batch it is sent by itself, five
// times a constant five seconds apart: the inner retry counts its own
// attempts, and the wait does not grow with anything of the loop around it.
func FetchEach(ctx context.Context, batches <-chan []string, fetch func(context.Context, string) error) {
	for {
		select {
		case <-ctx.Done():
			return
		case chunks := <-batches:
			for _, c := range chunks {
				for retry := 4; retry >= 0; retry-- { // want `unclassified-retry: `
					if err := fetch(ctx, c); err == nil {
						break
					}
					time.Sleep(5 * time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
				}
			}
		}
	}
}
