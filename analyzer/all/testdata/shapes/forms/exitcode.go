package forms

import (
	"context"
	"errors"
	"math/rand/v2"
	"os/exec"
	"time"
)

// GitFetch gives up on git's exit code 128 and retries the rest with a
// jittered, capped back-off: an exit code of 128 is no HTTP status, and
// nothing permanent is retried.
func GitFetch(ctx context.Context, dir string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		err = exec.CommandContext(ctx, "git", "-C", dir, "fetch").Run()
		if err == nil {
			return nil
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 128 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(min(time.Second<<attempt, 10*time.Second))):
		}
	}
	return err
}

// UploadStatus gives up only on a 500 and retries the other statuses, 404
// among them: a status named as such is one.
func UploadStatus(ctx context.Context, send func(context.Context) (int, error)) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ { // want `retry-permanent: retry loop retries HTTP 400`
		status, serr := send(ctx)
		if serr == nil {
			return nil
		}
		err = serr
		if status == 500 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(min(time.Second<<attempt, 10*time.Second))):
		}
	}
	return err
}
