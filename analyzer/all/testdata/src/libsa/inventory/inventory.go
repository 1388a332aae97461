// Package inventory is a stock service client that retries with
// github.com/cenkalti/backoff/v5.
package inventory

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/cenkalti/backoff/v5"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Item is one stock keeping unit.
type Item struct {
	SKU   string
	Count int
}

// Stock is the gRPC stub of the stock service.
type Stock interface {
	Get(ctx context.Context, sku string) (*Item, error)
	Reserve(ctx context.Context, sku string, n int) error
}

// Service keeps the shop's view of the stock.
type Service struct {
	stock Stock
	http  *http.Client
}

func permanentCode(err error) bool {
	switch status.Code(err) {
	case codes.InvalidArgument, codes.NotFound, codes.PermissionDenied, codes.Unauthenticated, codes.FailedPrecondition:
		return true
	}
	return false
}

// Reserve makes at most five attempts and gives up on permanent codes.
func (s *Service) Reserve(ctx context.Context, sku string, n int) error {
	_, err := backoff.Retry(ctx, func() (struct{}, error) {
		err := s.stock.Reserve(ctx, sku, n)
		if permanentCode(err) {
			return struct{}{}, backoff.Permanent(err)
		}
		return struct{}{}, err
	}, backoff.WithMaxTries(5))
	return err
}

// Sync runs from a cron job and retries until the stock service answers.
func (s *Service) Sync() error {
	_, err := backoff.Retry(context.Background(), func() (int, error) { // want `unbounded-retry: .*backoff.WithMaxTries\(n\)` `unclassified-retry: .*backoff.Permanent\(err\)`
		resp, err := s.http.Get("http://stock/sync")
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		return resp.StatusCode, nil
	}, backoff.WithMaxElapsedTime(0))
	return err
}

// Lookup reads an item, detached from the request that asked for it.
func (s *Service) Lookup(ctx context.Context, sku string) (*Item, error) {
	return backoff.Retry(context.Background(), func() (*Item, error) { // want `sleep-ignores-context: .*pass ctx to backoff.Retry`
		it, err := s.stock.Get(ctx, sku)
		if permanentCode(err) {
			return nil, backoff.Permanent(err)
		}
		return it, err
	})
}

// Restock retries every two seconds for up to a minute.
func (s *Service) Restock(ctx context.Context, sku string) error {
	_, err := backoff.Retry(ctx, func() (bool, error) { // want `retry-permanent: .*gRPC NotFound, gRPC PermissionDenied, gRPC Unauthenticated`
		err := s.stock.Reserve(ctx, sku, -10)
		if status.Code(err) == codes.InvalidArgument {
			return false, backoff.Permanent(err)
		}
		return err == nil, err
	}, backoff.WithBackOff(&backoff.ConstantBackOff{Interval: 2 * time.Second}), backoff.WithMaxElapsedTime(time.Minute)) // want `fixed-sleep: `
	return err
}

// Get waits for an item that another service creates.
func (s *Service) Get(ctx context.Context, sku string) (*Item, error) {
	return backoff.Retry(ctx, func() (*Item, error) { // want `retry-permanent: .*gRPC NotFound`
		it, err := s.stock.Get(ctx, sku)
		switch status.Code(err) {
		case codes.OK:
			return it, nil
		case codes.NotFound, codes.Unavailable, codes.DeadlineExceeded:
			return nil, err
		}
		return nil, backoff.Permanent(err)
	}, backoff.WithMaxTries(8))
}

// Count assembles its options as the caller asks; the back-off is made
// deterministic for replays.
func (s *Service) Count(ctx context.Context, sku string, replay bool) (int, error) {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = 250 * time.Millisecond
	b.MaxInterval = 5 * time.Second
	opts := []backoff.RetryOption{backoff.WithMaxTries(6)}
	if replay {
		b.RandomizationFactor = 0 // want `no-jitter: .*set RandomizationFactor`
	}
	opts = append(opts, backoff.WithBackOff(b))
	return backoff.Retry(ctx, func() (int, error) {
		it, err := s.stock.Get(ctx, sku)
		if err != nil {
			if permanentCode(err) {
				return 0, backoff.Permanent(err)
			}
			return 0, err
		}
		return it.Count, nil
	}, opts...)
}

// Price honours the server's Retry-After and gives up on client errors.
func (s *Service) Price(ctx context.Context, sku string) (string, error) {
	return backoff.Retry(ctx, func() (string, error) {
		resp, err := s.http.Get("http://pricing/" + sku)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusTooManyRequests:
			secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			return "", backoff.RetryAfter(secs)
		case resp.StatusCode >= 500:
			return "", errors.New(resp.Status)
		case resp.StatusCode >= 400:
			return "", backoff.Permanent(errors.New(resp.Status))
		}
		return resp.Header.Get("Price"), nil
	}, backoff.WithMaxTries(4))
}

func (s *Service) fetchStock() (*Item, error) {
	it, err := s.stock.Get(context.Background(), "all")
	if permanentCode(err) {
		return nil, backoff.Permanent(err)
	}
	return it, err
}

// Snapshot retries a method value.
func (s *Service) Snapshot() (*Item, error) {
	return backoff.Retry(context.Background(), s.fetchStock, backoff.WithMaxTries(3))
}

// Release gives up on permanent codes, within the request's context.
func (s *Service) Release(ctx context.Context, sku string) error {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = 50 * time.Millisecond
	_, err := backoff.Retry(ctx, func() (struct{}, error) {
		err := s.stock.Reserve(ctx, sku, 0)
		if permanentCode(err) {
			return struct{}{}, backoff.Permanent(err)
		}
		return struct{}{}, err
	}, backoff.WithBackOff(b), backoff.WithMaxTries(4))
	return err
}

// Audit retries transient codes for up to thirty seconds.
func (s *Service) Audit(ctx context.Context) error {
	_, err := backoff.Retry(ctx, func() (int, error) {
		it, err := s.stock.Get(ctx, "audit")
		switch status.Code(err) {
		case codes.OK:
			return it.Count, nil
		case codes.Unavailable, codes.ResourceExhausted, codes.Aborted:
			return 0, err
		default:
			return 0, backoff.Permanent(err)
		}
	}, backoff.WithMaxElapsedTime(30*time.Second))
	return err
}
