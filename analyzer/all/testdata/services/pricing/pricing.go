// Package pricing fetches FX rates and tax quotes from upstream services.
package pricing

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"time"

	"services/internal/grpc/codes"
	"services/internal/grpc/status"
)

// Upstream returns raw HTTP answers.
type Upstream interface {
	Rates(ctx context.Context, base string) (*http.Response, error)
	RatesNow(base string) (*http.Response, error)
	Tax(ctx context.Context, region string) (*http.Response, error)
}

// TaxRPC is the gRPC tax engine.
type TaxRPC interface {
	Rule(ctx context.Context, region string) (string, error)
}

// retryOn lists the answers the FX provider documents as retryable.
var retryOn = map[int]bool{
	http.StatusBadRequest:         true, // "malformed" is returned while a currency pair is being added
	http.StatusTooManyRequests:    true,
	http.StatusServiceUnavailable: true,
}

func wobble(d time.Duration) time.Duration { return d/2 + rand.N(d/2+1) }

// Rates fetches FX rates for a base currency.
func Rates(ctx context.Context, up Upstream, base string) (*http.Response, error) {
	wait := 150 * time.Millisecond
	for attempt := 0; attempt < 4; attempt++ { // want `retry-permanent: `
		resp, err := up.Rates(ctx, base)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusOK {
			return resp, nil
		}
		resp.Body.Close()
		if !retryOn[resp.StatusCode] {
			return nil, fmt.Errorf("rates %s: status %d", base, resp.StatusCode)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wobble(wait)):
		}
		wait = min(wait*2, 3*time.Second)
	}
	return nil, fmt.Errorf("rates %s: provider unavailable", base)
}

// TaxQuote fetches a tax quote; 5xx (except 501) and 429 are retried.
func TaxQuote(ctx context.Context, up Upstream, region string) (*http.Response, error) {
	wait := 100 * time.Millisecond
	for i := range 4 {
		resp, err := up.Tax(ctx, region)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode/100 == 2 {
			return resp, nil
		}
		resp.Body.Close()
		retry := resp.StatusCode == http.StatusTooManyRequests ||
			(resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented)
		if !retry || i == 3 {
			return nil, fmt.Errorf("tax %s: status %d", region, resp.StatusCode)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(rand.N(wait)):
		}
		wait = min(wait*3, 2*time.Second)
	}
	return nil, errors.New("unreachable")
}

// TaxRule reads a tax rule from the engine. Rules for new regions are
// published a little after the region itself.
func TaxRule(ctx context.Context, rpc TaxRPC, region string) (string, error) {
	d := 200 * time.Millisecond
	for n := 0; n < 5; n++ { // want `retry-permanent: `
		rule, err := rpc.Rule(ctx, region)
		if err == nil {
			return rule, nil
		}
		switch status.Convert(err).Code() {
		case codes.NotFound, codes.DeadlineExceeded:
		default:
			return "", err
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(wobble(d)):
		}
		d = min(d*2, 4*time.Second)
	}
	return "", status.Error(codes.NotFound, "rule never published")
}

// RefreshEvery re-reads FX rates on a fixed schedule set by ops; a failed
// read is retried at the same interval, up to five times.
func RefreshEvery(up Upstream, base string, intervalSec int, store func(*http.Response)) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var resp *http.Response
		resp, err = up.RatesNow(base)
		if err == nil && resp.StatusCode == http.StatusOK {
			store(resp)
			return nil
		}
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusServiceUnavailable {
				return fmt.Errorf("refresh %s: status %d", base, resp.StatusCode)
			}
		}
		time.Sleep(time.Duration(intervalSec) * time.Second) // want `fixed-sleep: `
	}
	return err
}

// Warm preloads the tax engine's rules; the engine sheds load with
// ResourceExhausted. Waits grow by 60% each time, at most 10s.
func Warm(ctx context.Context, rpc TaxRPC, regions []string) error {
	for _, region := range regions {
		d := 100 * time.Millisecond
		for attempt := 0; ; attempt++ {
			_, err := rpc.Rule(ctx, region)
			if err == nil {
				break
			}
			if status.Code(err) != codes.ResourceExhausted || attempt == 6 {
				return fmt.Errorf("warm %s: %w", region, err)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(d): // want `no-jitter: `
			}
			d = min(time.Duration(float64(d)*1.6), 10*time.Second)
		}
	}
	return nil
}

// DialFeed connects to the streaming rate feed in the background and
// hands the connection over when it is up.
func DialFeed(addr string, ready chan<- net.Conn, failed chan<- error) {
	go func() {
		wait := 100 * time.Millisecond
		for { // want `unbounded-retry: `
			c, err := net.DialTimeout("tcp", addr, 3*time.Second)
			if err == nil {
				ready <- c
				return
			}
			var ne net.Error
			if !errors.As(err, &ne) || !ne.Timeout() {
				failed <- err
				return
			}
			log.Printf("feed dial: %v", err)
			time.Sleep(wobble(wait))
			wait = min(wait*2, 30*time.Second)
		}
	}()
}

// Jobs returns the refresh job the scheduler runs per currency.
func Jobs(up Upstream, bases []string) []func(context.Context) error {
	var jobs []func(context.Context) error
	for _, base := range bases {
		jobs = append(jobs, func(ctx context.Context) error {
			wait := 200 * time.Millisecond
			for attempt := 0; attempt < 3; attempt++ {
				resp, err := up.Rates(ctx, base)
				if err != nil {
					return err
				}
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					return nil
				}
				if resp.StatusCode != http.StatusServiceUnavailable {
					return fmt.Errorf("rates %s: %d", base, resp.StatusCode)
				}
				time.Sleep(wobble(wait)) // want `sleep-ignores-context: `
				wait = min(wait*2, 2*time.Second)
			}
			return fmt.Errorf("rates %s: unavailable", base)
		})
	}
	return jobs
}
