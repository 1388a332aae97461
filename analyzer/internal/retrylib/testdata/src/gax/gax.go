package gax

import (
	"context"
	"net/http"
	"time"

	gax "github.com/googleapis/gax-go/v2"
	"google.golang.org/grpc/codes"
)

type client struct{}

func (client) Get(ctx context.Context, name string, opts ...gax.CallOption) error { return nil }

func rpc(ctx context.Context, _ gax.CallSettings) error { return nil }

func invoke(ctx context.Context) error {
	return gax.Invoke(ctx, rpc, gax.WithRetry(func() gax.Retryer { // want `attempts=0 deadline=false ctx=true delay=grows\+random\+capped at=gax.Backoff{.*} classified=true`
		return gax.OnCodes([]codes.Code{codes.Unavailable, codes.DeadlineExceeded}, gax.Backoff{
			Initial:    100 * time.Millisecond,
			Max:        10 * time.Second,
			Multiplier: 1.3,
		})
	}))
}

var retryable = []codes.Code{codes.Unavailable, codes.NotFound}

func background() error {
	return gax.Invoke(context.Background(), rpc, gax.WithRetry(func() gax.Retryer { // want `attempts=0 deadline=false ctx=false delay=grows\+random\+capped at=gax.Backoff{} classified=true permanent=\[gRPC NotFound\]`
		return gax.OnCodes(retryable, gax.Backoff{})
	}))
}

func noRetry(ctx context.Context) error {
	return gax.Invoke(ctx, rpc, gax.WithTimeout(time.Second))
}

func clientMethod(ctx context.Context, c client) error {
	return c.Get(ctx, "x", gax.WithRetry(func() gax.Retryer { // want `attempts=0 deadline=false ctx=true delay=random\+capped at=bo classified=true permanent=\[HTTP 404\]`
		bo := gax.Backoff{Initial: time.Second, Multiplier: 1}
		return gax.OnHTTPCodes(bo, http.StatusNotFound, http.StatusServiceUnavailable)
	}))
}

func everything(ctx context.Context) error {
	opts := []gax.CallOption{gax.WithRetry(func() gax.Retryer {
		return gax.OnErrorFunc(gax.Backoff{Initial: time.Second}, func(err error) bool { return true })
	})}
	return gax.Invoke(ctx, rpc, opts...) // want `attempts=0 deadline=false ctx=true delay=grows\+random\+capped at=gax.Backoff{.*} classified=false`
}
