// Package jobs retries with predicates, some of which decide nothing.
package jobs

import (
	"context"
	"math/rand/v2"
	"time"

	"policy"
)

func run(ctx context.Context) error { return policy.ErrThrottled }

func pause(ctx context.Context, attempt int) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Duration(rand.Int64N(int64(min(100*time.Millisecond<<attempt, 5*time.Second))))):
		return nil
	}
}

// shouldRetry takes the error and never reads it.
func shouldRetry(err error) bool { return true }

func Local(ctx context.Context) error {
	var err error
	for attempt := range 5 { // want `unclassified-retry: retry loop retries every error of run`
		if err = run(ctx); err == nil {
			return nil
		}
		if !shouldRetry(err) {
			return err
		}
		if err := pause(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

func Elsewhere(ctx context.Context) error {
	var err error
	for attempt := range 5 { // want `unclassified-retry: retry loop retries every error of run`
		if err = run(ctx); err == nil {
			return nil
		}
		if !policy.Always(err) {
			return err
		}
		if err := pause(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

func WithBudget(ctx context.Context, b *policy.Budget) error {
	for attempt := 0; ; attempt++ { // want `unclassified-retry: retry loop retries every error of run`
		err := run(ctx)
		if err == nil {
			return nil
		}
		if !b.Allow(err) {
			return err
		}
		if err := pause(ctx, attempt); err != nil {
			return err
		}
	}
}

// Classified asks a predicate that reads the error.
func Classified(ctx context.Context) error {
	var err error
	for attempt := range 5 {
		if err = run(ctx); err == nil {
			return nil
		}
		if !policy.Transient(err) {
			return err
		}
		if err := pause(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}

// isTransient reads it too.
func isTransient(err error) bool { return policy.Transient(err) }

func LocalClassified(ctx context.Context) error {
	var err error
	for attempt := range 5 {
		if err = run(ctx); err == nil {
			return nil
		}
		if !isTransient(err) {
			return err
		}
		if err := pause(ctx, attempt); err != nil {
			return err
		}
	}
	return err
}
