package retrylib

import (
	"testing"
)

func TestClientgoRetriers(t *testing.T) {
	got := retriersOf(t, `package unit

import (
	"errors"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

func update() error { return errors.New("x") }

func conflict() { retry.RetryOnConflict(retry.DefaultRetry, update) }

func forbidden() { retry.OnError(retry.DefaultBackoff, apierrors.IsForbidden, update) }

func any() { retry.OnError(retry.DefaultBackoff, func(error) bool { return true }, update) }

func notFound() {
	retry.OnError(retry.DefaultRetry, func(err error) bool {
		return apierrors.IsNotFound(err) || apierrors.IsTooManyRequests(err)
	}, update)
}

func slow() {
	b := retry.DefaultBackoff
	b.Duration = time.Second
	b.Steps = 10
	retry.RetryOnConflict(b, update)
}

func single() { retry.RetryOnConflict(wait.Backoff{Steps: 1}, update) }
`)
	type want struct {
		attempts            int
		context, classified bool
		delay               Delay
		permanent           []string
	}
	cases := map[string]*want{
		"conflict":  {attempts: 5, context: true, classified: true, delay: Delay{Random: true, Capped: true}},
		"forbidden": {attempts: 4, context: true, classified: true, delay: Delay{Grows: true, Random: true, Capped: true}, permanent: []string{"HTTP 403"}},
		"any":       {attempts: 4, context: true, delay: Delay{Grows: true, Random: true, Capped: true}},
		"notFound":  {attempts: 5, context: true, classified: true, delay: Delay{Random: true, Capped: true}, permanent: []string{"HTTP 404"}},
		// 1s growing fivefold over ten steps: far past a second in all, and
		// past any reasonable last wait.
		"slow":   {attempts: 10, classified: true, delay: Delay{Grows: true, Random: true}},
		"single": nil,
	}
	expectRetriers(t, got, cases, func(r *Retrier) want { return want{r.Attempts, r.Context, r.Classified, r.Delay, r.Permanent} })
}
