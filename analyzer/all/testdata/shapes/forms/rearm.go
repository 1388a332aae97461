package forms

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"time"
)

// Syncer pushes its state to a registry: on a timer it re-arms after each
// sync, with the periodic interval after a success and a back-off after a
// failure.
type Syncer struct {
	sync     func(ctx context.Context) error
	periodic time.Duration
	retry    time.Duration
	max      time.Duration
	ops      chan struct{}
}

var errInvalid = errors.New("invalid registration")

// Run grows its back-off linearly, capped, and never randomises it: every
// agent that failed together syncs again together.
func (s *Syncer) Run(ctx context.Context) {
	timer := time.NewTimer(0)
	failures := 0
	for { // want `unclassified-retry: `
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		case <-s.ops:
		}
		if err := s.sync(ctx); err != nil {
			log.Printf("sync: %v", err)
			failures++
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
			backoff := min(s.retry*time.Duration(failures), s.max)
			timer.Reset(backoff) // want `no-jitter: `
			continue
		}
		failures = 0
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(s.periodic)
	}
}

// RunJittered classifies the failure and spreads the back-off.
func (s *Syncer) RunJittered(ctx context.Context) {
	timer := time.NewTimer(0)
	failures := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		if err := s.sync(ctx); err != nil {
			if errors.Is(err, errInvalid) {
				return
			}
			failures++
			timer.Reset(rand.N(min(s.retry<<failures, s.max)))
			continue
		}
		failures = 0
		timer.Reset(s.periodic)
	}
}

// Tick syncs on the same interval whatever happened: a periodic job.
func (s *Syncer) Tick(ctx context.Context) {
	timer := time.NewTimer(s.periodic)
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		if err := s.sync(ctx); err != nil {
			log.Printf("sync: %v", err)
		}
		timer.Reset(s.periodic)
	}
}

// Claim retries until the claim goes through, doubling its wait up to a
// cap on a timer it re-arms, never randomised.
func (s *Syncer) Claim(ctx context.Context) error {
	backoff := s.retry
	t := time.NewTimer(0)
	defer t.Stop()
	var err error
	for {
		select {
		case <-ctx.Done():
			return err
		case <-t.C:
		}
		err = s.sync(ctx)
		if err == nil || errors.Is(err, errInvalid) {
			return err
		}
		backoff = min(backoff*2, s.max)
		t.Reset(backoff) // want `no-jitter: `
	}
}

// RunPeriodic re-arms its timer with the same interval after a success
// and after a failure: a periodic sync, not a retry.
func (s *Syncer) RunPeriodic(ctx context.Context) {
	timer := time.NewTimer(0)
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		if err := s.sync(ctx); err != nil {
			log.Printf("sync: %v", err)
			timer.Reset(s.periodic)
			continue
		}
		timer.Reset(s.periodic)
	}
}

// RunSooner re-arms it with the shorter retry interval after a failure: a
// failure is retried on a clock of its own.
func (s *Syncer) RunSooner(ctx context.Context) {
	timer := time.NewTimer(0)
	for { // want `unclassified-retry: `
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		if err := s.sync(ctx); err != nil {
			log.Printf("sync: %v", err)
			timer.Reset(s.retry) // want `fixed-sleep: `
			continue
		}
		timer.Reset(s.periodic)
	}
}
