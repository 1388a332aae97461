// Package clients holds API clients that retry, some without looking at
// the error.
package clients

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"time"
)

type Order struct{ ID string }

type Store interface {
	Save(ctx context.Context, o Order) error
}

var ErrConflict = errors.New("conflict")

type TemporaryError interface{ Temporary() bool }

func wait(ctx context.Context, attempt int) error {
	t := time.NewTimer(rand.N(time.Duration(100<<attempt) * time.Millisecond))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Every error retried alike.
func SaveAll(ctx context.Context, s Store, o Order) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `unclassified-retry: retry loop retries every error of s.Save without inspecting it`
		if err = s.Save(ctx, o); err == nil {
			return nil
		}
		if werr := wait(ctx, attempt); werr != nil {
			return werr
		}
	}
	return fmt.Errorf("save %s: %w", o.ID, err)
}

// Logging the error is not inspecting it.
func Upload(ctx context.Context, hc *http.Client, req *http.Request) (*http.Response, error) {
	for i := range 4 { // want `unclassified-retry: retry loop retries every error of hc.Do`
		resp, err := hc.Do(req)
		if err != nil {
			fmt.Fprintf(os.Stderr, "upload attempt %d: %v\n", i, err)
			if werr := wait(ctx, i); werr != nil {
				return nil, werr
			}
			continue
		}
		return resp, nil
	}
	return nil, errors.New("upload failed")
}

// A closure wrapped in a generic helper: still every error.
func Do(ctx context.Context, attempts int, op func(context.Context) error) error {
	var err error
	for n := 0; n < attempts; n++ { // want `unclassified-retry`
		err = op(ctx)
		if err == nil {
			break
		}
		_ = wait(ctx, n)
	}
	return err
}

// Recursion without classification.
func Publish(ctx context.Context, s Store, o Order, left int) error {
	err := s.Save(ctx, o)
	if err != nil && left > 0 {
		_ = wait(ctx, 3-left)
		return Publish(ctx, s, o, left-1) // want `unclassified-retry`
	}
	return err
}

// --- must not be flagged ---

func isRetryable(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() || errors.Is(err, syscall.ECONNREFUSED)
}

func Predicate(ctx context.Context, s Store, o Order) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.Save(ctx, o); err == nil || !isRetryable(err) {
			return err
		}
		_ = wait(ctx, attempt)
	}
	return err
}

func Sentinel(ctx context.Context, s Store, o Order) error {
	for attempt := 0; ; attempt++ {
		err := s.Save(ctx, o)
		switch {
		case err == nil:
			return nil
		case err == ErrConflict && attempt < 5:
			_ = wait(ctx, attempt)
		default:
			return err
		}
	}
}

func TypeSwitch(ctx context.Context, s Store, o Order) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		err = s.Save(ctx, o)
		switch e := err.(type) {
		case nil:
			return nil
		case *net.OpError:
			if !e.Timeout() {
				return err
			}
		default:
			return err
		}
		_ = wait(ctx, attempt)
	}
	return err
}

func StatusCode(ctx context.Context, hc *http.Client, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusServiceUnavailable && resp.StatusCode != http.StatusTooManyRequests {
			return resp, nil
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		_ = wait(ctx, attempt)
	}
	return nil, errors.New("service unavailable")
}

func Temporary(ctx context.Context, s Store, o Order) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		err = s.Save(ctx, o)
		if err == nil {
			return nil
		}
		if te, ok := err.(TemporaryError); !ok || !te.Temporary() {
			return err
		}
		_ = wait(ctx, attempt)
	}
	return err
}

func MessageMatch(ctx context.Context, s Store, o Order) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = s.Save(ctx, o); err == nil {
			return nil
		}
		if !strings.Contains(err.Error(), "connection reset") {
			return err
		}
		_ = wait(ctx, attempt)
	}
	return err
}

func StoredVerdict(ctx context.Context, s Store, o Order) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		err = s.Save(ctx, o)
		if err == nil {
			return nil
		}
		retry := errors.Is(err, ErrConflict)
		if !retry {
			return err
		}
		_ = wait(ctx, attempt)
	}
	return err
}

// Reading a file until EOF is not a retry loop.
func ReadAll(r io.Reader) ([]byte, error) {
	var out []byte
	buf := make([]byte, 512)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

// A consumer that runs until the context ends retries a failed receive:
// every error, a permanent one too, is tried again a second later.
func Consume(ctx context.Context, recv func(context.Context) (Order, error), s Store) {
	for ctx.Err() == nil { // want `unclassified-retry: `
		o, err := recv(ctx)
		if err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
			continue
		}
		_ = s.Save(ctx, o)
	}
}
