package retrylib_test

import (
	"testing"

	"github.com/retrylint/retrylint/analyzer/internal/retrylib"
)

func TestAdvise(t *testing.T) {
	msg := "backoff.Retry has no attempt limit; it retries forever; stop after a maximum number of attempts"
	cases := []struct {
		name string
		r    *retrylib.Retrier
		rule string
		want string
	}{
		{"hand-written loop", nil, "unbounded-retry", msg},
		{"library advice", &retrylib.Retrier{Library: "github.com/cenkalti/backoff/v4"}, "unbounded-retry",
			"backoff.Retry has no attempt limit; it retries forever; set MaxElapsedTime, or wrap the back-off in backoff.WithMaxRetries(b, n) or backoff.WithContext(b, ctx)"},
		{"no advice for the rule", &retrylib.Retrier{Library: "github.com/googleapis/gax-go/v2"}, "no-jitter", msg},
		{"fresh back-off keeps its fix", &retrylib.Retrier{Library: "github.com/cenkalti/backoff/v4", Fresh: true}, "fixed-sleep", msg},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := retrylib.Advise(c.r, c.rule, msg); got != c.want {
				t.Errorf("Advise = %q, want %q", got, c.want)
			}
		})
	}
}
