package topology

import (
	"net/url"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/lazyre"
)

// Cloud Scheduler jobs share the `projects/*/locations/*/jobs/*` name shape
// with Cloud Run v2 jobs; a scheduler job has a `schedule`.
var (
	workflowExecutionsURL = lazyre.New(`/workflows/([^/?#]+)/executions`)
	runJobURL             = lazyre.New(`/jobs/([^/?#:]+):run`)
)

// DefaultSchedulerAttemptDeadline is the HTTP target's attempt deadline.
const DefaultSchedulerAttemptDeadline = 180

func isSchedulerGcloud(r *yaml.Node) bool {
	return v2JobName.MatchString(str(r, "name")) && val(r, "schedule") != nil
}

// loadSchedulerGcloud reads `gcloud scheduler jobs describe` YAML.
func loadSchedulerGcloud(file string, r *yaml.Node) (*Component, error) {
	name, pos := resourceName(file, r)
	c := &Component{Name: name, Kind: KindScheduler, Pos: pos}
	return c, readScheduler(file, c, r)
}

// loadSchedulerKCC reads a Config Connector CloudSchedulerJob.
func loadSchedulerKCC(file string, r *yaml.Node) (*Component, error) {
	name, pos, err := metadataName(file, r, "CloudSchedulerJob")
	if err != nil {
		return nil, err
	}
	c := &Component{Name: name, Kind: KindScheduler, Pos: pos}
	spec := val(r, "spec")
	if err := expectMapping(file, spec, "spec"); err != nil {
		return nil, err
	}
	return c, readScheduler(file, c, spec)
}

// readScheduler reads the retry config and the HTTP target: a scheduler job
// retries (retryCount, default 0) when the target does not answer 2xx. A
// target that only starts something (the Workflows executions API, a Cloud
// Run jobs:run) answers when the start succeeded, so only the start is
// retried.
func readScheduler(file string, c *Component, spec *yaml.Node) error {
	call := &Call{Kind: EdgeDeliver, Pos: c.Pos, RetryPos: c.Pos,
		Predicate: Predicate{Name: "any non-2xx answer", Any: true, Known: true},
		Timeout:   DefaultSchedulerAttemptDeadline}
	rc := val(spec, "retryConfig")
	if err := expectMapping(file, rc, "retryConfig"); err != nil {
		return err
	}
	if k, n := get(rc, "retryCount"); n != nil && !isNull(n) {
		v, err := intValue(file, n, "retryConfig.retryCount")
		if err != nil {
			return err
		}
		if v < 0 || v > 5 {
			return errorf(posOf(file, n), "retryConfig.retryCount: expected 0 to 5, got %d", v)
		}
		call.Retries, call.RetryPos = v, posOf(file, k)
	}
	if n := val(spec, "attemptDeadline"); n != nil && !isNull(n) {
		d, err := durationValue(file, n, "attemptDeadline")
		if err != nil {
			return err
		}
		call.Timeout, call.TimeoutSet = d, true
	}
	k, n := get(path(spec, "httpTarget"), "uri")
	uri, _ := scalar(n)
	if k == nil || uri == "" {
		return nil // a Pub/Sub or App Engine target: nothing invoked that we model
	}
	call.Pos = posOf(file, n)
	switch {
	case workflowExecutionsURL.MatchString(uri):
		call.To, call.ToKind = workflowExecutionsURL.FindStringSubmatch(uri)[1], KindWorkflow
	case runJobURL.MatchString(uri):
		call.To, call.ToKind = runJobURL.FindStringSubmatch(uri)[1], KindJob
	default:
		call.To, call.Awaits = "url:"+uri, true
	}
	if u, err := url.Parse(uri); err == nil && strings.HasSuffix(u.Hostname(), ".run.app") {
		call.Awaits = true
	}
	c.Calls = append(c.Calls, call)
	return nil
}
