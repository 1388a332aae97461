package summaries

import (
	"context"
	"net/http"
)

// run is a retry runner: it runs the attempt it is given up to tries times
// while the attempt asks for another try.
func run(attempt func() (bool, error), tries int) (err error) { // want run:`retries\(n at summaries/runner.go:\d+, param 0, limit param 1, answer\)`
	var again bool
	for try := 0; try < tries; try++ {
		again, err = attempt()
		if !again {
			break
		}
	}
	return err
}

// Paced hands its attempt on to run: a runner too.
func Paced(attempt func() (bool, error)) error { // want Paced:`retries\(10 at summaries/runner.go:\d+, param 0, answer\)`
	return run(attempt, 10)
}

// Single runs once: no retrier.
func Single(attempt func() (bool, error)) error {
	return run(attempt, 1)
}

// InList is true for the statuses of a list.
func InList(resp *http.Response, codes []int) bool { // want InList:`http\[in param 1\]\(of param 0\)`
	if resp == nil {
		return false
	}
	for _, c := range codes {
		if resp.StatusCode == c {
			return true
		}
	}
	return false
}

var again = []int{401, 429, 503}

// Again answers for an attempt: what the status list holds, unless the
// context has ended.
func Again(ctx context.Context, resp *http.Response, err error) (bool, error) { // want Again:`http\[401 429 503\]\(of param 1\)`
	if ctx.Err() != nil {
		return false, err
	}
	return InList(resp, again), err
}
