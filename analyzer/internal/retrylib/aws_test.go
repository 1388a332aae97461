package retrylib

import (
	"testing"
)

func TestAWSRetriers(t *testing.T) {
	got := retriersOf(t, `package unit

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
)

func standard() aws.Retryer { return retry.NewStandard() }

func wrapped() aws.Retryer { return retry.AddWithMaxAttempts(retry.NewStandard(), 7) }

func viaVariable() aws.Retryer {
	r := retry.NewStandard(func(o *retry.StandardOptions) { o.MaxAttempts = 4 })
	return retry.AddWithMaxBackoffDelay(r, 5*time.Second)
}

func unlimited() aws.Retryer { return retry.AddWithMaxAttempts(retry.NewStandard(), 0) }

func nop() aws.Retryer { return retry.AddWithMaxAttempts(aws.NopRetryer{}, 5) }

func ignored(ctx context.Context) {
	config.LoadDefaultConfig(ctx, config.WithRetryMaxAttempts(9), config.WithRetryer(standard))
}

func attempts(ctx context.Context) { config.LoadDefaultConfig(ctx, config.WithRetryMaxAttempts(9)) }

func unsetAttempts(ctx context.Context) { config.LoadDefaultConfig(ctx, config.WithRetryMaxAttempts(0)) }
`)
	jitter := Delay{Grows: true, Random: true, Capped: true}
	type want struct {
		attempts              int
		context, waits, class bool
		delay                 Delay
	}
	cases := map[string]*want{
		"standard":    {3, true, true, true, jitter},
		"wrapped":     {7, true, true, true, jitter},
		"viaVariable": {4, true, true, true, jitter},
		// AddWithMaxAttempts(r, 0) retries until success or a
		// non-retryable error: no limit, and no context seen here.
		"unlimited":     {0, false, false, true, jitter},
		"nop":           nil,
		"ignored":       nil,
		"attempts":      {9, true, true, true, jitter},
		"unsetAttempts": {3, true, true, true, jitter},
	}
	expectRetriers(t, got, cases, func(r *Retrier) want { return want{r.Attempts, r.Context, r.Waits, r.Classified, r.Delay} })
}
