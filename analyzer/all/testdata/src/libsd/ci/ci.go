// Package ci is a CI agent's client of its build API, retrying with
// github.com/buildkite/roko.
package ci

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"time"

	"github.com/buildkite/roko"
)

// StatusError is a response of the build API with an error status.
type StatusError struct {
	Code       int
	RetryAfter time.Duration
}

func (e *StatusError) Error() string { return fmt.Sprintf("build API: HTTP %d", e.Code) }

// ErrJobCanceled reports a job the server canceled.
var ErrJobCanceled = errors.New("job canceled")

// API is the agent's client of the build API.
type API struct {
	http *http.Client
	url  string
}

func (a *API) post(ctx context.Context, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.url+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		return resp, &StatusError{Code: resp.StatusCode}
	}
	return resp, nil
}

// isRetryable reports a failure worth another attempt: a transport error,
// a 429 or a 5xx.
func isRetryable(err error) bool {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Code == http.StatusTooManyRequests || se.Code >= 500
	}
	return true
}

// Must flag.

// UploadHeaderTimes gives up on a rejection, but waits a constant 5s.
func (a *API) UploadHeaderTimes(ctx context.Context, job string) error {
	return roko.NewRetrier(
		roko.WithMaxAttempts(10),
		roko.WithStrategy(roko.Constant(5*time.Second)), // want `fixed-sleep: .*waits a constant 5s .*roko.ExponentialSubsecond`
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		resp, err := a.post(ctx, "/jobs/"+job+"/header_times")
		if err != nil {
			if resp != nil && resp.StatusCode >= 400 && resp.StatusCode <= 499 {
				r.Break()
			}
		}
		return err
	})
}

// StartJob grows its wait, 1s to 32s over seven attempts, with no jitter.
func (a *API) StartJob(ctx context.Context, job string) error {
	return roko.NewRetrier(
		roko.WithMaxAttempts(7),
		roko.WithStrategy(roko.Exponential(2*time.Second, 0)), // want `no-jitter: .*roko.WithJitter\(\)` `no-cap: .*roko.WithMaxAttempts\(n\)`
	).DoWithContext(ctx, func(rtr *roko.Retrier) error {
		_, err := a.post(ctx, "/jobs/"+job+"/start")
		if err != nil && !isRetryable(err) {
			rtr.Break()
		}
		return err
	})
}

// Fetch retries every failure of git fetch, bad refspecs too.
func Fetch(ctx context.Context, dir, refspec string) error {
	return roko.NewRetrier( // want `unclassified-retry: roko.NewRetrier\(...\).DoWithContext retries every error .*r.Break\(\)`
		roko.WithMaxAttempts(3),
		roko.WithStrategy(roko.Exponential(2*time.Second, 0)),
		roko.WithJitter(),
	).DoWithContext(ctx, func(*roko.Retrier) error {
		cmd := exec.CommandContext(ctx, "git", "fetch", "--", "origin", refspec)
		cmd.Dir = dir
		return cmd.Run()
	})
}

// Heartbeat pings forever, on nothing that can end it.
func (a *API) Heartbeat(agent string) error {
	return roko.NewRetrier( // want `unbounded-retry: .*roko.TryForever\(\)`
		roko.TryForever(),
		roko.WithJitter(),
		roko.WithStrategy(roko.Constant(10*time.Second)),
	).Do(func(r *roko.Retrier) error {
		_, err := a.post(context.Background(), "/agents/"+agent+"/heartbeat")
		if errors.Is(err, ErrJobCanceled) {
			r.Break()
		}
		return err
	})
}

// Acquire has the caller's context but waits on context.Background().
func (a *API) Acquire(ctx context.Context, job string) error {
	r := roko.NewRetrier(
		roko.WithMaxAttempts(5),
		roko.WithJitter(),
		roko.WithStrategy(roko.ExponentialSubsecond(time.Second)),
	)
	return r.Do(func(r *roko.Retrier) error { // want `sleep-ignores-context: r.Do waits between attempts without ctx .*r.DoWithContext\(ctx, ...\)`
		_, err := a.post(ctx, "/jobs/"+job+"/acquire")
		if err != nil && !isRetryable(err) {
			r.Break()
		}
		return err
	})
}

// SetMetaData gives up on 401 and 404 only: a 400 or a 403 is retried.
func (a *API) SetMetaData(ctx context.Context, job, key string) error {
	return roko.NewRetrier( // want `retry-permanent: .*HTTP 400, 403, 405, 410, 422.*r.Break\(\)`
		roko.WithMaxAttempts(10),
		roko.WithJitter(),
		roko.WithStrategy(roko.ExponentialSubsecond(500*time.Millisecond)),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		resp, err := a.post(ctx, "/jobs/"+job+"/meta-data/"+key)
		if resp != nil && (resp.StatusCode == 401 || resp.StatusCode == 404) {
			r.Break()
		}
		if err != nil {
			return err
		}
		return nil
	})
}

// uploadChunk retries one chunk of the log itself.
func (a *API) uploadChunk(ctx context.Context, job string, seq int) error {
	return roko.NewRetrier(
		roko.WithMaxAttempts(3),
		roko.WithJitter(),
		roko.WithStrategy(roko.ExponentialSubsecond(200*time.Millisecond)),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		_, err := a.post(ctx, fmt.Sprintf("/jobs/%s/chunks/%d", job, seq))
		if err != nil && !isRetryable(err) {
			r.Break()
		}
		return err
	})
}

// UploadLog retries the chunk uploads that already retry.
func (a *API) UploadLog(ctx context.Context, job string, chunks int) error {
	return roko.NewRetrier( // want `nested-retry: .*retries a.uploadChunk, which retries too \((libsd/)?ci/ci.go:\d+\): attempts multiply, \(4\+1\)×\(2\+1\) = 15 attempts`
		roko.WithMaxAttempts(5),
		roko.WithJitter(),
		roko.WithStrategy(roko.ExponentialSubsecond(time.Second)),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		for seq := range chunks {
			if err := a.uploadChunk(ctx, job, seq); err != nil {
				if !isRetryable(err) {
					r.Break()
				}
				return err
			}
		}
		return nil
	})
}

// Artifacts waits up to 89s, 2s^(8/16+1), before its last attempt.
func (a *API) Artifacts(ctx context.Context, job string) error {
	r := roko.NewRetrier(
		roko.WithMaxAttempts(10),
		roko.WithJitter(),
		roko.WithStrategy(roko.ExponentialSubsecond(2*time.Second)), // want `no-cap: .*roko.WithMaxAttempts\(n\)`
	)
	_, err := roko.DoFunc(ctx, r, func(r *roko.Retrier) (*http.Response, error) {
		resp, err := a.post(ctx, "/jobs/"+job+"/artifacts")
		if err != nil && !isRetryable(err) {
			r.Break()
		}
		return resp, err
	})
	return err
}

// Must not flag.

// FinishJob retries until its deadline, with jitter, and stops once the
// server canceled the job.
func (a *API) FinishJob(ctx context.Context, job string) error {
	ctx, cancel := context.WithTimeout(ctx, 48*time.Hour)
	defer cancel()
	return roko.NewRetrier(
		roko.TryForever(),
		roko.WithJitter(),
		roko.WithStrategy(roko.Constant(time.Second)),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		_, err := a.post(ctx, "/jobs/"+job+"/finish")
		if errors.Is(err, ErrJobCanceled) {
			r.Break()
		}
		return err
	})
}

// UpdateArtifacts stays under 12s of wait over ten attempts.
func (a *API) UpdateArtifacts(ctx context.Context, job string) error {
	return roko.NewRetrier(
		roko.WithMaxAttempts(10),
		roko.WithJitter(),
		roko.WithStrategy(roko.ExponentialSubsecond(500*time.Millisecond)),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		_, err := a.post(ctx, "/jobs/"+job+"/artifacts/states")
		var se *StatusError
		if errors.As(err, &se) && se.Code < 500 && se.Code != http.StatusTooManyRequests {
			r.Break()
		}
		return err
	})
}

// JobState honours the server's Retry-After, through a Retrier kept in a
// variable that the callback breaks.
func (a *API) JobState(ctx context.Context, job string) (string, error) {
	retrier := roko.NewRetrier(
		roko.WithStrategy(roko.ExponentialSubsecond(time.Second)),
		roko.WithJitterRange(-time.Second, time.Second),
		roko.WithMaxAttempts(5),
	)
	return roko.DoFunc(ctx, retrier, func(*roko.Retrier) (string, error) {
		_, err := a.post(ctx, "/jobs/"+job+"/state")
		var se *StatusError
		if errors.As(err, &se) {
			if se.Code < 500 && se.Code != http.StatusTooManyRequests {
				retrier.Break()
			}
			retrier.SetNextInterval(max(se.RetryAfter, retrier.NextInterval()))
		}
		return "running", err
	})
}

// Ping makes a single attempt.
func (a *API) Ping(ctx context.Context) error {
	return roko.NewRetrier(
		roko.WithMaxAttempts(1),
		roko.WithStrategy(roko.Constant(time.Second)),
	).DoWithContext(ctx, func(*roko.Retrier) error {
		_, err := a.post(ctx, "/ping")
		return err
	})
}

// Checkout retries a fetch three times, jittered, and stops on a failure
// that is not the network's.
func Checkout(ctx context.Context, dir, ref string) error {
	return roko.NewRetrier(
		roko.WithMaxAttempts(3),
		roko.WithStrategy(roko.Exponential(2*time.Second, 0)),
		roko.WithJitter(),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		cmd := exec.CommandContext(ctx, "git", "fetch", "origin", ref)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil && !isNetworkFailure(err, string(out)) {
			r.Break()
		}
		return err
	})
}

// isNetworkFailure reports a git failure whose output names a failure to
// reach the remote, or a command killed by a signal.
func isNetworkFailure(err error, out string) bool {
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == -1 {
		return true
	}
	return strings.Contains(out, "Could not resolve host") || strings.Contains(out, "Connection timed out")
}

// Cancel runs on a Retrier its caller configured.
func (a *API) Cancel(ctx context.Context, r *roko.Retrier, job string) error {
	return r.DoWithContext(ctx, func(r *roko.Retrier) error {
		_, err := a.post(ctx, "/jobs/"+job+"/cancel")
		if err != nil && !isRetryable(err) {
			r.Break()
		}
		return err
	})
}

// DeletePipeline takes a 404 as done and gives up on any other client
// error.
func (a *API) DeletePipeline(ctx context.Context, pipeline string) error {
	return roko.NewRetrier(
		roko.WithMaxAttempts(5),
		roko.WithJitter(),
		roko.WithStrategy(roko.Exponential(2*time.Second, 0)),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		resp, err := a.post(ctx, "/pipelines/"+pipeline+"/delete")
		if err == nil {
			return nil
		}
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return nil
		}
		if resp != nil && resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
			r.Break()
		}
		return err
	})
}

// testRetrier runs at once in tests: its sleep is a no-op.
func testRetrier() *roko.Retrier {
	return roko.NewRetrier(
		roko.WithMaxAttempts(3),
		roko.WithStrategy(roko.Constant(time.Hour)),
		roko.WithSleepFunc(func(time.Duration) {}),
	)
}

// Claim runs on the test Retrier, and stops on a canceled job.
func (a *API) Claim(ctx context.Context, job string) error {
	return testRetrier().DoWithContext(ctx, func(r *roko.Retrier) error {
		_, err := a.post(ctx, "/jobs/"+job+"/claim")
		if errors.Is(err, ErrJobCanceled) {
			r.Break()
		}
		return err
	})
}

// Download retries only a precondition that a concurrent writer broke:
// every other failure breaks, after the checks that let some through.
func (a *API) Download(ctx context.Context, job string) error {
	return roko.NewRetrier(
		roko.WithMaxAttempts(3),
		roko.WithStrategy(roko.Exponential(time.Second, 0)),
		roko.WithJitter(),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		resp, err := a.post(ctx, "/jobs/"+job+"/artifact")
		if err != nil {
			if resp != nil && resp.StatusCode == http.StatusPreconditionFailed {
				return err
			}
			if isRetryable(err) {
				return err
			}
			r.Break()
			return err
		}
		return nil
	})
}

// DownloadAny breaks only where it could not create its file: every
// failure of the request is retried.
func (a *API) DownloadAny(ctx context.Context, job string) error {
	return roko.NewRetrier( // want `unclassified-retry: roko.NewRetrier\(...\).DoWithContext retries every error`
		roko.WithMaxAttempts(3),
		roko.WithStrategy(roko.Exponential(time.Second, 0)),
		roko.WithJitter(),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		if job == "" {
			r.Break()
			return errors.New("no job")
		}
		_, err := a.post(ctx, "/jobs/"+job+"/artifact")
		return err
	})
}

// Fetch128 gives up on git's exit code 128 and retries the others: an
// exit code is no HTTP status.
func Fetch128(ctx context.Context, dir, ref string) error {
	return roko.NewRetrier(
		roko.WithMaxAttempts(5),
		roko.WithStrategy(roko.Exponential(time.Second, 0)),
		roko.WithJitter(),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		err := exec.CommandContext(ctx, "git", "-C", dir, "fetch", "origin", ref).Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 128 {
			r.Break()
		}
		return err
	})
}

// breakOnClientError tells the retrier to stop on a client error other
// than 429, and reports whether it did.
func breakOnClientError(r *roko.Retrier, resp *http.Response, err error) bool {
	if resp != nil && resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
		r.Break()
		return true
	}
	return false
}

// logAttempt logs which attempt failed.
func logAttempt(r *roko.Retrier) { fmt.Println(r.String()) }

// Register hands the retrier and the failure to the helper that decides
// which failures stop the retries.
func (a *API) Register(ctx context.Context, agent string) error {
	return roko.NewRetrier(
		roko.WithMaxAttempts(5),
		roko.WithStrategy(roko.Exponential(time.Second, 0)),
		roko.WithJitter(),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		resp, err := a.post(ctx, "/agents/"+agent)
		if err != nil {
			breakOnClientError(r, resp, err)
		}
		return err
	})
}

// RegisterLogged hands the retrier only to a log: every failure is
// retried.
func (a *API) RegisterLogged(ctx context.Context, agent string) error {
	return roko.NewRetrier( // want `unclassified-retry: roko.NewRetrier\(...\).DoWithContext retries every error`
		roko.WithMaxAttempts(5),
		roko.WithStrategy(roko.Exponential(time.Second, 0)),
		roko.WithJitter(),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		_, err := a.post(ctx, "/agents/"+agent)
		if err != nil {
			logAttempt(r)
		}
		return err
	})
}

// Agent sleeps through a function its caller injects: time.Sleep in
// production, a no-op in tests.
type Agent struct {
	api   *API
	Sleep func(time.Duration)
}

// Connect waits a constant 5s through the injected sleep.
func (g *Agent) Connect(ctx context.Context) error {
	return roko.NewRetrier(
		roko.WithMaxAttempts(10),
		roko.WithStrategy(roko.Constant(5*time.Second)), // want `fixed-sleep: .*waits a constant 5s`
		roko.WithSleepFunc(g.Sleep),
	).DoWithContext(ctx, func(r *roko.Retrier) error {
		resp, err := g.api.post(ctx, "/connect")
		if err != nil {
			breakOnClientError(r, resp, err)
		}
		return err
	})
}
