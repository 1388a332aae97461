// Package providers watches configuration sources and retries each watch
// with github.com/cenkalti/backoff/v4, the operation wrapped in a
// decorator that recovers from panics or traces it.
package providers

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// withRecover turns a panic of the operation into its error; the failure
// itself passes through unchanged.
func withRecover(op backoff.Operation) backoff.Operation {
	return func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic in operation: %v", r)
			}
		}()
		return op()
	}
}

// traced logs each attempt of an operation of any shape.
func traced[T any](name string, op func() (T, error)) func() (T, error) {
	return func() (T, error) {
		log.Printf("%s: attempt", name)
		return op()
	}
}

// StatusError is a non-2xx answer of a configuration endpoint.
type StatusError struct{ Code int }

func (e *StatusError) Error() string { return fmt.Sprintf("status %d", e.Code) }

// Source is a configuration source.
type Source interface {
	Fetch(ctx context.Context) ([]byte, error)
}

// Poll polls src every interval until the context ends; a failure ends
// the operation and the library restarts it, whatever the failure.
func Poll(ctx context.Context, src Source, interval time.Duration, out chan<- []byte) error {
	operation := func() error {
		ticker := time.NewTicker(interval)
		defer ticker.Stop()
		for {
			select {
			case <-ticker.C:
				data, err := src.Fetch(ctx)
				if err != nil {
					return fmt.Errorf("fetch: %w", err)
				}
				out <- data
			case <-ctx.Done():
				return nil
			}
		}
	}
	notify := func(err error, d time.Duration) { log.Printf("provider error, retrying in %s: %v", d, err) }
	return backoff.RetryNotify(withRecover(operation), backoff.WithContext(backoff.NewExponentialBackOff(), ctx), notify) // want `unclassified-retry: `
}

// PollClassified is Poll whose operation gives up on a 4xx answer.
func PollClassified(ctx context.Context, src Source, out chan<- []byte) error {
	operation := func() error {
		data, err := src.Fetch(ctx)
		var se *StatusError
		if errors.As(err, &se) && se.Code >= 400 && se.Code < 500 && se.Code != http.StatusTooManyRequests {
			return backoff.Permanent(err)
		}
		if err != nil {
			return err
		}
		out <- data
		return nil
	}
	return backoff.Retry(withRecover(operation), backoff.WithContext(backoff.NewExponentialBackOff(), ctx))
}

// Fetch fetches once through a traced operation that retries every
// failure.
func Fetch(ctx context.Context, src Source) ([]byte, error) {
	op := func() ([]byte, error) { return src.Fetch(ctx) }
	return backoff.RetryWithData(traced("fetch", op), backoff.WithContext(backoff.NewExponentialBackOff(), ctx)) // want `unclassified-retry: `
}

// FetchClassified is Fetch whose operation marks 4xx answers permanent.
func FetchClassified(ctx context.Context, src Source) ([]byte, error) {
	op := func() ([]byte, error) {
		data, err := src.Fetch(ctx)
		var se *StatusError
		if errors.As(err, &se) && se.Code < 500 {
			return nil, backoff.Permanent(err)
		}
		return data, err
	}
	return backoff.RetryWithData(traced("fetch", op), backoff.WithContext(backoff.NewExponentialBackOff(), ctx))
}

// PollTwiceWrapped is PollClassified with the operation decorated twice.
func PollTwiceWrapped(ctx context.Context, src Source, out chan<- []byte) error {
	operation := func() error {
		data, err := src.Fetch(ctx)
		var se *StatusError
		if errors.As(err, &se) && se.Code < 500 {
			return backoff.Permanent(err)
		}
		if err == nil {
			out <- data
		}
		return err
	}
	return backoff.Retry(withRecover(withRecover(operation)), backoff.WithContext(backoff.NewExponentialBackOff(), ctx))
}
