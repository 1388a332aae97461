package grpcclient

import (
	"context"
	"time"

	"platform/third_party/google.golang.org/grpc/codes"
	"platform/third_party/google.golang.org/grpc/status"
)

type CatalogClient interface {
	Upsert(ctx context.Context, sku string, doc []byte) error
	Get(ctx context.Context, sku string) ([]byte, error)
	PushMetrics(ctx context.Context, batch []byte) error
}

// SyncCatalog upserts every document; the catalog rejects documents whose
// schema it has not loaded yet, which happens right after a deploy.
func SyncCatalog(ctx context.Context, c CatalogClient, docs map[string][]byte) error {
	for sku, doc := range docs {
		backoff := 100 * time.Millisecond
		var err error
		for attempt := 0; attempt < 5; attempt++ { // want `retry-permanent: `
			err = c.Upsert(ctx, sku, doc)
			if err == nil {
				break
			}
			switch status.Code(err) {
			case codes.InvalidArgument, codes.Unavailable:
			default:
				return err
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(jittered(backoff)):
			}
			backoff = min(backoff*2, 4*time.Second)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// GetDocument reads one catalog document.
func GetDocument(ctx context.Context, c CatalogClient, sku string) ([]byte, error) {
	o := CallOptions{MaxAttempts: 3, InitialBackoff: 50 * time.Millisecond, MaxBackoff: time.Second, Multiplier: 2}
	backoff := o.InitialBackoff
	var lastErr error
	for attempt := 0; attempt < o.MaxAttempts; attempt++ { // want `retry-permanent: `
		doc, err := c.Get(ctx, sku)
		if err == nil {
			return doc, nil
		}
		lastErr = err
		if code := status.Code(err); code != codes.Unauthenticated && code != codes.Unavailable && code != codes.DeadlineExceeded {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(jittered(backoff)):
		}
		backoff = nextBackoff(backoff, o)
	}
	return nil, lastErr
}

// PushMetrics retries quota and contention errors.
func PushMetrics(ctx context.Context, c CatalogClient, batch []byte) error {
	o := CallOptions{MaxAttempts: 6, InitialBackoff: 250 * time.Millisecond, MaxBackoff: 15 * time.Second, Multiplier: 2}
	return invoke(ctx, o, func(ctx context.Context) error {
		err := c.PushMetrics(ctx, batch)
		if status.Code(err) == codes.Aborted {
			return status.Error(codes.Unavailable, "aborted, retry")
		}
		return err
	})
}

// PushMetricsInline is PushMetrics without the shared helper.
func PushMetricsInline(ctx context.Context, c CatalogClient, batch []byte) error {
	backoff := 250 * time.Millisecond
	var err error
	for attempt := 0; attempt < 6; attempt++ {
		err = c.PushMetrics(ctx, batch)
		st, _ := status.FromError(err)
		switch st.Code() {
		case codes.OK:
			return nil
		case codes.ResourceExhausted, codes.Aborted, codes.Unavailable:
		default:
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff/2 + jittered(backoff/2)):
		}
		backoff = min(backoff*2, 15*time.Second)
	}
	return err
}
