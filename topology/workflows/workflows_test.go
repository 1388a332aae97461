package workflows

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/shareddata"
)

func mustParse(t *testing.T, name, src string) *Workflow {
	t.Helper()
	w, err := Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return w
}

// reasons returns the sorted reasons of the fail paths.
func reasons(paths []FailPath) []string {
	out := []string{}
	for _, p := range paths {
		out = append(out, p.Reason)
	}
	sort.Strings(out)
	return out
}

func callByStep(t *testing.T, w *Workflow, step string) *Call {
	t.Helper()
	for _, c := range w.Calls {
		if c.Step == step {
			return c
		}
	}
	t.Fatalf("no call in step %q; calls: %+v", step, w.Calls)
	return nil
}

func TestControlFlow(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		fails []string
	}{
		{"log assign return never fail", `
- log:
    call: sys.log
    args: {text: hi}
- a:
    assign:
      - x: 1
- r:
    return: ${x}
`, nil},
		{"http outside try", `
- get:
    call: http.get
    args: {url: https://example.com}
`, []string{"error from http.get outside any try"}},
		{"except that returns catches", `
main:
  steps:
    - get:
        try:
          call: http.get
          args: {url: https://example.com}
        except:
          as: e
          steps:
            - give_up:
                return: failed
`, nil},
		{"retry without except still fails", `
- get:
    try:
      call: http.get
      args: {url: https://example.com}
    retry: ${http.default_retry}
`, []string{"error from http.get after retries are exhausted (no except)"}},
		{"raise in a switch condition", `
- check:
    switch:
      - condition: ${1 == 2}
        raise: bad
- ok:
    return: fine
`, []string{"raise"}},
		{"next end skips the raise", `
- first:
    next: end
- never:
    raise: unreachable
`, nil},
		{"next jumps over the raise", `
- first:
    next: third
- second:
    raise: unreachable
- third:
    return: ok
`, nil},
		{"loop through next terminates", `
- a:
    assign:
      - n: 0
- b:
    switch:
      - condition: ${n < 3}
        next: c
    next: end
- c:
    assign:
      - n: ${n + 1}
    next: b
`, nil},
		{"switch falls through when no condition holds", `
- check:
    switch:
      - condition: ${1 == 1}
        next: done
- fallthrough:
    raise: no condition held
- done:
    return: ok
`, []string{"raise"}},
		{"condition true cuts the fallthrough", `
- check:
    switch:
      - condition: true
        next: done
- fallthrough:
    raise: unreachable
- done:
    return: ok
`, nil},
		{"switch condition steps", `
- check:
    switch:
      - condition: ${1 == 1}
        steps:
          - inner:
              raise: inner
- done:
    return: ok
`, []string{"raise"}},
		{"for body call fails", `
- loop:
    for:
      value: item
      in: [1, 2]
      steps:
        - post:
            call: http.post
            args:
              url: https://example.com
              body: ${item}
`, []string{"error from http.post outside any try"}},
		{"loop variable out of scope after the loop", `
- loop:
    for:
      value: item
      in: [1, 2]
      steps:
        - log:
            call: sys.log
            args: {data: "${item}"}
- after:
    return: ${item}
`, []string{"read of `item`, never assigned on this path"}},
		{"break and continue", `
- loop:
    for:
      value: i
      range: [1, 5]
      steps:
        - decide:
            switch:
              - condition: ${i == 2}
                next: continue
              - condition: ${i == 4}
                next: break
        - log:
            call: sys.log
            args: {data: "${i}"}
- done:
    return: ok
`, nil},
		{"parallel branch error caught outside", `
- par:
    try:
      parallel:
        branches:
          - one:
              steps:
                - get:
                    call: http.get
                    args: {url: https://a.example.com}
          - two:
              steps:
                - fail:
                    raise: two failed
    except:
      as: e
      steps:
        - done:
            return: handled
`, nil},
		{"parallel branch error not caught", `
- par:
    parallel:
      branches:
        - one:
            steps:
              - fail:
                  raise: boom
`, []string{"raise"}},
		{"variable assigned on one branch only", `
main:
  params: [flag]
  steps:
    - decide:
        switch:
          - condition: ${flag}
            assign:
              - x: 1
    - use:
        return: ${x}
`, []string{"read of `x`, never assigned on this path"}},
		{"variable assigned on every branch", `
main:
  params: [flag]
  steps:
    - decide:
        switch:
          - condition: ${flag}
            assign:
              - x: 1
        next: other
    - one:
        next: use
    - other:
        assign:
          - x: 2
    - use:
        return: ${x.field}
`, nil},
		{"read of result after an except that falls through", `
- get:
    try:
      call: http.get
      args: {url: https://example.com}
      result: resp
    except:
      as: e
      steps:
        - log:
            call: sys.log
            args: {data: "${e}"}
- use:
    return: ${resp.body}
`, []string{"read of `resp`, never assigned on this path"}},
		{"unassigned read inside a try is caught", `
main:
  params: [flag]
  steps:
    - decide:
        switch:
          - condition: ${flag}
            assign:
              - x: 1
    - use:
        try:
          assign:
            - y: ${x}
        except:
          as: e
          steps:
            - ok:
                return: missing
    - done:
        return: ${y}
`, nil},
		{"re-raise versus a new raise", `
- get:
    try:
      call: http.get
      args: {url: https://example.com}
    except:
      as: err
      steps:
        - decide:
            switch:
              - condition: ${err.code == 404}
                raise: not found
        - again:
            raise: ${err}
`, []string{"raise", "re-raise of ${err} in except"}},
		{"error inside try body caught by outer except", `
- outer:
    try:
      steps:
        - inner:
            try:
              call: http.get
              args: {url: https://example.com}
            retry: ${http.default_retry}
    except:
      as: e
      steps:
        - done:
            return: ${e.message}
`, nil},
		{"subworkflow failure propagates", `
main:
  steps:
    - call_notify:
        call: notify
        args:
          base: https://hooks.example.com
    - done:
        return: ok
notify:
  params: [base]
  steps:
    - post:
        call: http.post
        args:
          url: ${base + "/events"}
`, []string{"error from http.post outside any try in subworkflow notify"}},
		{"subworkflow failure caught at the call site", `
main:
  steps:
    - call_notify:
        try:
          call: notify
        except:
          as: e
          steps:
            - ignore:
                return: ok
notify:
  steps:
    - fail:
        raise: boom
`, nil},
		{"failing helper called from except", `
main:
  steps:
    - work:
        try:
          call: http.get
          args: {url: https://example.com}
        except:
          as: e
          steps:
            - tell:
                call: notify_and_fail
                args: {err: "${e}"}
notify_and_fail:
  params: [err]
  steps:
    - post:
        try:
          call: http.post
          args: {url: https://hooks.example.com}
        except:
          as: ignored
          steps:
            - skip:
                next: fail
    - fail:
        raise: ${err}
`, []string{"raise in subworkflow notify_and_fail"}},
		{"notify helper called from except is a double fault", `
main:
  steps:
    - work:
        try:
          call: http.get
          args: {url: https://example.com}
        except:
          as: e
          steps:
            - tell:
                call: notify
            - done:
                return: handled
notify:
  steps:
    - post:
        call: http.post
        args: {url: https://hooks.example.com}
`, nil},
		{"recursive subworkflow", `
main:
  steps:
    - go:
        call: again
again:
  steps:
    - self:
        call: again
    - post:
        call: http.post
        args: {url: https://example.com}
`, []string{"error from http.post outside any try in subworkflow again"}},
		{"jump out of except to an outer step", `
- get:
    try:
      call: http.get
      args: {url: https://example.com}
    except:
      as: e
      steps:
        - recover:
            next: fallback
- ok:
    return: ok
- fallback:
    return: fallback
`, nil},
		{"events.await_callback can time out", `
- wait:
    call: events.await_callback
    args: {callback: x, timeout: 60}
`, []string{"error from events.await_callback outside any try"}},
		{"stdlib calls do not fail", `
- decode:
    call: json.decode
    args: {data: "{}"}
    result: x
- sleep:
    call: sys.sleep
    args: {seconds: 1}
- done:
    return: ${x}
`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := mustParse(t, "test.yaml", tt.src)
			got := reasons(w.FailPaths)
			want := append([]string{}, tt.fails...)
			sort.Strings(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("fail paths = %q, want %q\n%+v", got, want, w.FailPaths)
			}
		})
	}
}

func TestCallsAndTargets(t *testing.T) {
	src := `
main:
  params: [event]
  steps:
    - init:
        assign:
          - project: ${sys.get_env("GOOGLE_CLOUD_PROJECT_ID")}
          - job_name: mapping-job
          - child: child-workflow
          - seconds: 600
    - v1:
        call: googleapis.run.v1.namespaces.jobs.run
        args:
          name: ${"namespaces/" + project + "/jobs/" + job_name}
          connector_params:
            timeout: ${seconds * 2}
    - v2:
        call: googleapis.run.v2.projects.locations.jobs.run
        args:
          name: ${"projects/" + project + "/locations/us-central1/jobs/" + job_name}
          body:
            overrides:
              timeout: 900s
              taskCount: 4
    - v2_nowait:
        call: googleapis.run.v2.projects.locations.jobs.run
        args:
          name: projects/p/locations/l/jobs/other-job
          connector_params:
            skip_polling: true
    - run_child:
        call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.run
        args:
          workflow_id: ${child}
    - create_child:
        call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.create
        args:
          parent: ${"projects/" + project + "/locations/us-central1/workflows/" + child}
    - unknown_job:
        call: googleapis.run.v1.namespaces.jobs.run
        args:
          name: ${"namespaces/" + project + "/jobs/" + event.job}
    - post:
        call: http.post
        args:
          url: https://mapper-abc123def-an.a.run.app/map
    - log:
        call: sys.log
        args: {text: done}
`
	w := mustParse(t, "calls.yaml", src)
	if len(w.Calls) != 7 {
		t.Fatalf("got %d calls, want 7 (sys.log is not a call): %+v", len(w.Calls), w.Calls)
	}
	tests := []struct {
		step           string
		kind, name     string
		waits          bool
		timeout        float64
		timeoutDefault bool
	}{
		{"v1", KindJob, "mapping-job", true, 1200, false},
		{"v2", KindJob, "mapping-job", true, 1800, true},
		{"v2_nowait", KindJob, "other-job", false, 1800, true},
		{"run_child", KindWorkflow, "child-workflow", true, 1800, true},
		{"create_child", KindWorkflow, "child-workflow", false, 0, false},
		{"unknown_job", KindJob, "*", true, 1800, true},
		{"post", KindService, "mapper", false, 0, false},
	}
	for _, tt := range tests {
		c := callByStep(t, w, tt.step)
		if c.Target.Kind != tt.kind || c.Target.Name != tt.name || c.Waits != tt.waits ||
			c.Timeout != tt.timeout || c.TimeoutDefault != tt.timeoutDefault {
			t.Errorf("%s: got %s %q waits=%v timeout=%v default=%v; want %s %q %v %v %v", tt.step,
				c.Target.Kind, c.Target.Name, c.Waits, c.Timeout, c.TimeoutDefault,
				tt.kind, tt.name, tt.waits, tt.timeout, tt.timeoutDefault)
		}
	}
	if c := callByStep(t, w, "v2"); c.TaskTimeout != 900 || c.TaskCount != 4 {
		t.Errorf("v2 overrides: timeout %v count %d, want 900 and 4", c.TaskTimeout, c.TaskCount)
	}
	if c := callByStep(t, w, "v1"); c.Target.Raw != `${"namespaces/" + project + "/jobs/" + job_name}` || c.Target.Pos.Line != 14 {
		t.Errorf("v1 target raw/pos = %q %v", c.Target.Raw, c.Target.Pos)
	}
	if c := callByStep(t, w, "post"); c.Target.URL != "https://mapper-abc123def-an.a.run.app/map" {
		t.Errorf("post URL = %q", c.Target.URL)
	}
	if got := w.ParamReads; len(got) != 1 || got[0].Path != "event.job" {
		t.Errorf("param reads = %+v, want event.job", got)
	}
}

func TestSubworkflowCallsFollowed(t *testing.T) {
	src := `
main:
  steps:
    - start:
        try:
          call: run_it
          args:
            job: first-job
        retry:
          predicate: ${http.default_retry_predicate}
          max_retries: 3
        except:
          as: e
          steps:
            - alert:
                call: notify
                args:
                  text: ${e.message}
            - fail:
                raise: ${e}
    - second:
        call: run_it
        args:
          job: second-job
run_it:
  params: [job]
  steps:
    - run:
        call: googleapis.run.v1.namespaces.jobs.run
        args:
          name: ${"namespaces/p/jobs/" + job}
notify:
  params: [text]
  steps:
    - post:
        call: http.post
        args:
          url: https://hooks.example.com/alert
          body: ${text}
`
	w := mustParse(t, "sub.yaml", src)
	var names []string
	for _, c := range w.Calls {
		if c.Function == "googleapis.run.v1.namespaces.jobs.run" {
			names = append(names, c.Target.Name)
		}
	}
	sort.Strings(names)
	if !reflect.DeepEqual(names, []string{"first-job", "second-job"}) {
		t.Fatalf("job names = %v, want both call sites resolved", names)
	}
	for _, c := range w.Calls {
		switch {
		case c.Target.Name == "first-job":
			if c.Retry == nil || c.Retry.MaxRetries != 3 || !reflect.DeepEqual(c.Via, []string{"start"}) || !c.Handled || c.Caught {
				t.Errorf("first-job call: %+v", c)
			}
		case c.Target.Name == "second-job":
			if c.Retry != nil || c.Handled {
				t.Errorf("second-job call: %+v", c)
			}
		case c.Function == "http.post":
			if !c.InExcept || !reflect.DeepEqual(c.Via, []string{"alert"}) {
				t.Errorf("notify call: %+v", c)
			}
		}
	}
	if len(w.Notifications) != 1 || !w.Notifications[0].BeforeFail || w.Notifications[0].URL != "https://hooks.example.com/alert" {
		t.Errorf("notifications = %+v", w.Notifications)
	}
}

func TestRetryPolicies(t *testing.T) {
	tests := []struct {
		name       string
		retry      string
		predicate  string
		signals    []string
		any, known bool
		maxRetries int
		backoff    *Backoff
	}{
		{"default policy", `${http.default_retry}`, DefaultRetry,
			[]string{SignalHTTP429, "http-502", "http-503", "http-504", SignalConnection, SignalTimeout}, false, true, 5,
			&Backoff{Initial: 1, Max: 60, Multiplier: 1.25}},
		{"non-idempotent policy", `${http.default_retry_non_idempotent}`, DefaultRetryNonIdempotent,
			[]string{SignalHTTP429, "http-503", SignalConnection}, false, true, 5,
			&Backoff{Initial: 1, Max: 60, Multiplier: 1.25}},
		{"policy in a variable", `${my_policy}`, "my_policy", nil, false, false, -1, nil},
		{"custom map", "\n      predicate: ${http.default_retry_predicate_non_idempotent}\n      max_retries: 2\n      backoff:\n        initial_delay: 10\n        max_delay: 100\n        multiplier: 3",
			DefaultRetryPredicateNonIdempotent, []string{SignalHTTP429, "http-503", SignalConnection}, false, true, 2,
			&Backoff{Initial: 10, Max: 100, Multiplier: 3}},
		{"default backoff", "\n      predicate: ${retry_all}\n      max_retries: 4\n      backoff: ${retry.default_backoff}",
			"retry_all", []string{SignalHTTP4xx, SignalHTTP5xx, SignalConnection, SignalTimeout, SignalOperationError, SignalWorkflowFailed}, true, true, 4,
			&Backoff{Initial: 1, Max: 60, Multiplier: 1.25}},
		{"unreadable predicate", "\n      predicate: ${odd}\n      max_retries: 1",
			"odd", nil, false, false, 1, nil},
		{"no backoff", "\n      predicate: ${code_503}\n      max_retries: 7",
			"code_503", []string{"http-503"}, false, true, 7, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `main:
  steps:
    - get:
        try:
          call: http.get
          args: {url: https://example.com}
        retry: ` + strings.ReplaceAll(tt.retry, "\n", "\n    ") + `
retry_all:
  params: [e]
  steps:
    - yes:
        return: true
odd:
  params: [e]
  steps:
    - compute:
        assign:
          - c: ${e.code}
    - check:
        return: ${c == 500}
code_503:
  params: [err]
  steps:
    - check:
        return: ${err.code == 503}
`
			w := mustParse(t, "retry.yaml", src)
			r := w.Calls[0].Retry
			if r == nil {
				t.Fatal("no retry")
			}
			if r.Predicate != tt.predicate || !reflect.DeepEqual(r.Signals, tt.signals) || r.Any != tt.any ||
				r.Known != tt.known || r.MaxRetries != tt.maxRetries {
				t.Errorf("retry = %+v, want predicate %q signals %v any %v known %v max %d",
					r, tt.predicate, tt.signals, tt.any, tt.known, tt.maxRetries)
			}
			if (r.Backoff == nil) != (tt.backoff == nil) {
				t.Fatalf("backoff = %+v, want %+v", r.Backoff, tt.backoff)
			}
			if r.Backoff != nil && (r.Backoff.Initial != tt.backoff.Initial || r.Backoff.Max != tt.backoff.Max || r.Backoff.Multiplier != tt.backoff.Multiplier) {
				t.Errorf("backoff = %+v, want %+v", r.Backoff, tt.backoff)
			}
			if r.Pos.Line != 7 {
				t.Errorf("retry pos = %v, want line 7", r.Pos)
			}
		})
	}
}

func TestPredicateWithLoggingAndPublish(t *testing.T) {
	src := `
main:
  steps:
    - work:
        try:
          call: http.post
          args: {url: https://api.example.com/work}
        retry:
          predicate: ${transient}
          max_retries: 3
          backoff: {initial_delay: 1, max_delay: 30, multiplier: 2}
        except:
          as: e
          steps:
            - tell:
                call: googleapis.pubsub.v1.projects.topics.publish
                args:
                  topic: projects/p/topics/work-failed
                  body:
                    messages:
                      - data: ${base64.encode(json.encode(e))}
            - done:
                return: failed
transient:
  params: [err]
  steps:
    - note:
        assign:
          - code: ${map.get(err, "code")}
    - log:
        call: sys.log
        args: {data: "${code}"}
    - check:
        switch:
          - condition: ${map.get(err, "code") in [429, 503] or "ConnectionFailedError" in err.tags}
            return: true
    - no:
        return: false
`
	w := mustParse(t, "pred.yaml", src)
	r := callByStep(t, w, "work").Retry
	if r == nil || !r.Known || !reflect.DeepEqual(r.Signals, []string{SignalHTTP429, "http-503", SignalConnection}) {
		t.Fatalf("retry = %+v", r)
	}
	pub := callByStep(t, w, "tell")
	if pub.Target.Name != "work-failed" || !pub.InExcept {
		t.Errorf("publish = %+v", pub)
	}
	if len(w.Notifications) != 1 || w.Notifications[0].URL != "work-failed" || w.Notifications[0].BeforeFail {
		t.Errorf("notifications = %+v", w.Notifications)
	}
}

func TestFixtures(t *testing.T) {
	read := func(name string) *Workflow {
		src, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return mustParse(t, name, string(src))
	}

	t.Run("notify and fail", func(t *testing.T) {
		w := read("incident2-notify-and-fail.yaml")
		if got := reasons(w.FailPaths); !reflect.DeepEqual(got, []string{"re-raise of ${e} in except"}) {
			t.Errorf("fail paths = %q", got)
		}
		fp := w.FailPaths[0]
		if fp.Pos.Line != 38 || fp.Kind != FailReraise ||
			!reflect.DeepEqual(fp.Steps, []string{"init", "run_mapping", "notify_saga_failed", "fail_workflow"}) {
			t.Errorf("fail path = %+v", fp)
		}
		if len(w.Notifications) != 1 || !w.Notifications[0].BeforeFail || w.Notifications[0].Step != "notify_saga_failed" {
			t.Errorf("notifications = %+v", w.Notifications)
		}
		job := callByStep(t, w, "run_mapping")
		if job.Target.Kind != KindJob || job.Target.Name != "mapping-job" || job.Caught || !job.Handled ||
			job.Retry == nil || job.Retry.Matches(SignalOperationError) || !job.Retry.Matches(SignalTimeout) {
			t.Errorf("job call = %+v retry %+v", job, job.Retry)
		}
		if notify := callByStep(t, w, "notify_saga_failed"); notify.Target.Kind != KindService || notify.Target.Name != "saga-coordinator" || !notify.InExcept {
			t.Errorf("notify call = %+v", notify)
		}
	})

	t.Run("notify then ack", func(t *testing.T) {
		w := read("incident2-notify-then-ack.yaml")
		if len(w.FailPaths) != 0 {
			t.Errorf("fail paths = %+v, want none", w.FailPaths)
		}
		if len(w.Notifications) != 1 || w.Notifications[0].BeforeFail {
			t.Errorf("notifications = %+v, want one, not before a failure", w.Notifications)
		}
		if !callByStep(t, w, "run_mapping").Caught {
			t.Error("job failure should be caught")
		}
		// The failure notification itself can fail: that takes a second fault.
		if got := reasons(w.DoubleFaultPaths); !reflect.DeepEqual(got, []string{"error from http.post in except, outside any try"}) {
			t.Errorf("double-fault paths = %q", got)
		}
	})

	t.Run("deleted raise trap", func(t *testing.T) {
		w := read("incident2-deleted-raise.yaml")
		if got := reasons(w.FailPaths); !reflect.DeepEqual(got, []string{"read of `execution`, never assigned on this path"}) {
			t.Fatalf("fail paths = %q", got)
		}
		fp := w.FailPaths[0]
		if fp.Kind != FailUnassigned || fp.Pos.Line != 39 ||
			!reflect.DeepEqual(fp.Steps, []string{"init", "run_mapping", "notify_saga_failed", "collect"}) {
			t.Errorf("fail path = %+v", fp)
		}
		if len(w.Notifications) != 1 || !w.Notifications[0].BeforeFail {
			t.Errorf("notifications = %+v, want BeforeFail", w.Notifications)
		}
	})

	t.Run("custom predicate sees OperationError", func(t *testing.T) {
		w := read("predicate-operation-error.yaml")
		c := callByStep(t, w, "run_job")
		r := c.Retry
		if r == nil || r.Predicate != "job_failed" || !r.Known || r.Any ||
			!reflect.DeepEqual(r.Signals, []string{SignalHTTP429, "http-503", SignalOperationError}) || r.MaxRetries != 2 {
			t.Fatalf("retry = %+v", r)
		}
		if !r.Matches(SignalOperationError) || r.Matches(SignalTimeout) {
			t.Error("predicate should match operation-error and not timeout")
		}
		if c.Timeout != 3600 || c.TimeoutDefault || !c.Caught {
			t.Errorf("call = %+v", c)
		}
		if len(w.FailPaths) != 0 {
			t.Errorf("fail paths = %+v", w.FailPaths)
		}
	})
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line, col int
		msg       string
	}{
		{"bad YAML", "main:\n  steps:\n    - a:\n        call: [x\n", 4, 15, "invalid YAML"},
		{"bad YAML unterminated string", "- a:\n    return: \"unterminated\n", 2, 13, "invalid YAML"},
		{"bad YAML indentation", "main:\n  steps:\n    - a:\n        call: x\n      bad: : y\n", 5, 12, "invalid YAML"},
		{"step is a scalar", "main:\n  steps:\n    - just_a_name\n", 3, 7, "a step must be a mapping"},
		{"step body is a scalar", "- a: hello\n", 1, 6, `step "a" must be a mapping`},
		{"unclosed expression", "- s:\n    assign:\n      - x: ${\"a\" + b\n", 3, 12, `unclosed "${"`},
		{"unclosed quoted expression", "- s:\n    return: \"${a\"\n", 2, 14, `unclosed "${"`},
		{"retry is a list", "- s:\n    try:\n      call: http.get\n    retry: [1, 2]\n", 4, 12, "retry must be"},
		{"retry is a literal", "- s:\n    try:\n      call: http.get\n    retry: always\n", 4, 12, "retry must be"},
		{"retry has an unknown key", "- s:\n    try:\n      call: http.get\n    retry:\n      predicate: ${http.default_retry_predicate}\n      attempts: 3\n", 6, 7, `unknown key "attempts"`},
		{"retry max_retries negative", "- s:\n    try:\n      call: http.get\n    retry:\n      predicate: ${p}\n      max_retries: -1\n", 6, 20, "non-negative"},
		{"retry without predicate", "- s:\n    try:\n      call: http.get\n    retry:\n      max_retries: 2\n", 5, 7, "no predicate"},
		{"retry without try", "- s:\n    call: http.get\n    retry: ${http.default_retry}\n", 3, 12, "need a try"},
		{"unknown step key", "- s:\n    cal: http.get\n", 2, 5, `unknown key "cal"`},
		{"next to nowhere", "- s:\n    next: nowhere\n", 2, 11, `no step named "nowhere"`},
		{"break outside a loop", "- s:\n    next: break\n", 2, 11, "outside a for loop"},
		{"assign is a map", "- s:\n    assign:\n      x: 1\n", 3, 7, "assign must be a list"},
		{"switch without condition", "- s:\n    switch:\n      - next: end\n", 3, 9, "no condition"},
		{"root is a scalar", "hello\n", 1, 1, "a Workflows source is"},
		{"empty", "", 1, 1, "empty document"},
		{"main without steps", "main:\n  params: [a]\n", 1, 1, "has no steps"},
		{"call is a map", "- s:\n    call: {a: b}\n", 2, 11, "call must be a string"},
		{"except is a list", "- s:\n    try:\n      call: http.get\n    except: [a]\n", 4, 13, "except of step"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("bad.yaml", []byte(tt.src))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse: got %v (%T), want *Error", err, err)
			}
			if e.Pos.File != "bad.yaml" || e.Pos.Line != tt.line || e.Pos.Col != tt.col || !strings.Contains(e.Msg, tt.msg) {
				t.Errorf("error = %q at %d:%d, want %q at %d:%d", e.Msg, e.Pos.Line, e.Pos.Col, tt.msg, tt.line, tt.col)
			}
			if !strings.HasPrefix(e.Error(), e.Pos.String()+": ") {
				t.Errorf("Error() = %q", e.Error())
			}
		})
	}
}

func TestLooks(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want bool
	}{
		{"main", "main:\n  params: [e]\n  steps:\n    - a:\n        return: 1\n", true},
		{"flat list", "- a:\n    call: http.get\n- b:\n    return: 1\n", true},
		{"subworkflows only", "helper:\n  params: [x]\n  steps:\n    - a:\n        return: ${x}\n", true},
		{"kubernetes", "apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata: {name: x}\n", false},
		{"topology file", "version: 1\ncomponents:\n  a: {kind: app}\n", false},
		{"plain list", "- a\n- b\n", false},
		{"list of maps without step keys", "- name: a\n  value: 1\n", false},
		{"config map", "budget: 3\nseverity: {x: error}\n", false},
		{"scalar", "hello\n", false},
		{"main with a k8s key", "main:\n  steps:\n    - a:\n        return: 1\nkind: Job\n", false},
	}
	for _, tt := range tests {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(tt.src), &doc); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := Looks(&doc); got != tt.want {
			t.Errorf("Looks(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
	if Looks(nil) {
		t.Error("Looks(nil) = true")
	}
}

func TestParseNodeOffsets(t *testing.T) {
	var doc yaml.Node
	src := "- get:\n    call: http.get\n    args: {url: https://example.com}\n"
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	w, err := ParseNode("main.tf", &doc, 100, 4)
	if err != nil {
		t.Fatal(err)
	}
	if w.Calls[0].Pos != (Pos{File: "main.tf", Line: 102, Col: 15}) || w.FailPaths[0].Pos.Line != 102 || w.Pos.Line != 101 {
		t.Errorf("positions: call %v fail %v root %v", w.Calls[0].Pos, w.FailPaths[0].Pos, w.Pos)
	}
	if _, err := ParseNode("x", nil, 0, 0); err == nil {
		t.Error("ParseNode(nil) should fail")
	}
	bad := "- s:\n    return: ${a\n"
	if err := yaml.Unmarshal([]byte(bad), &doc); err != nil {
		t.Fatal(err)
	}
	_, err = ParseNode("main.tf", &doc, 10, 0)
	var e *Error
	if !errors.As(err, &e) || e.Pos.Line != 12 {
		t.Errorf("error = %v, want at line 12", err)
	}
}

func TestAliases(t *testing.T) {
	src := `
x: &args
  url: https://example.com
main:
  steps:
    - a:
        call: http.get
        args: *args
`
	_, err := Parse("alias.yaml", []byte(src))
	// x is not a workflow definition: it has no steps.
	if err == nil {
		t.Fatal("want an error for a top-level key without steps")
	}
	src = `
- a:
    call: http.get
    args: &args
      url: https://example.com
- b:
    call: http.post
    args: *args
`
	w := mustParse(t, "alias.yaml", src)
	if len(w.Calls) != 2 || w.Calls[1].Target.URL != "https://example.com" {
		t.Errorf("calls = %+v", w.Calls)
	}
	// A billion-laughs document ends quickly with an error.
	var b strings.Builder
	b.WriteString("- s:\n    assign:\n      - l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "      - l%d: &l%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	b.WriteString("- t:\n    return: *l9\n")
	start := time.Now()
	_, err = Parse("laughs.yaml", []byte(b.String()))
	var e *Error
	if !errors.As(err, &e) || time.Since(start) > 5*time.Second {
		t.Errorf("billion laughs: %v after %v", err, time.Since(start))
	}
}

func TestAliasedStepsBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("main:\n  steps:\n    - l0: &l0\n        steps:\n")
	for j := 0; j < 10; j++ {
		fmt.Fprintf(&b, "          - s%d:\n              call: http.get\n              args: {url: https://example.com}\n", j)
	}
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, "    - l%d: &l%d\n        steps:\n", i, i)
		for j := 0; j < 10; j++ {
			fmt.Fprintf(&b, "          - x%d: *l%d\n", j, i-1)
		}
	}
	start := time.Now()
	_, err := Parse("bomb.yaml", []byte(b.String()))
	var e *Error
	if !errors.As(err, &e) || time.Since(start) > 5*time.Second {
		t.Errorf("aliased steps: %v after %v", err, time.Since(start))
	}
}

// TestUnquotedExpressionWithColonIsInvalidYAML: a plain "${…}" value
// holding ": " is not valid YAML, and Workflows refuses it too: the source
// is an error at the line and column where the YAML breaks, with how to
// write it, never quoted into shape and analysed.
func TestUnquotedExpressionWithColonIsInvalidYAML(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"- s:\n    call: sys.log\n    args:\n      text: ${\"failed: \" + e.message}\n",
			`colon.yaml:4:22: invalid YAML: mapping values are not allowed in this context; a value holding ": " is read by YAML as a mapping: quote the expression as a whole`},
		{"- t:\n    return: ${json.encode({\n        \"a\": 1\n    })}\n",
			`colon.yaml:3:12: invalid YAML: mapping values are not allowed in this context`},
	} {
		_, err := Parse("colon.yaml", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("error %v\nwant %s…", err, tc.want)
		}
	}
	// Quoted whole, it is the expression it means.
	w, err := Parse("colon.yaml", []byte("- s:\n    call: sys.log\n    args:\n      text: '${\"failed: \" + e.message}'\n"))
	if err != nil || len(w.FailPaths) != 0 {
		t.Errorf("quoted: %v, fail paths %+v", err, w)
	}
}

func TestTerraformHeredoc(t *testing.T) {
	path := filepath.Join(shareddata.Path(t, "corpus/gcp/terraform"), "tds-workflows-cloud_run_job-main.tf")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	lines := strings.Split(string(data), "\n")
	start := -1
	for i, l := range lines {
		if strings.Contains(l, "source_contents = <<EOF") {
			start = i + 1
		}
	}
	if start < 0 {
		t.Fatal("no heredoc")
	}
	end := start
	for end < len(lines) && strings.TrimSpace(lines[end]) != "EOF" {
		end++
	}
	body := UnescapeTerraform(strings.Join(lines[start:end], "\n"))
	doc, err := Decode(path, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if !Looks(doc) {
		t.Fatal("heredoc should look like a workflow")
	}
	w, err := ParseNode(path, doc, start, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := callByStep(t, w, "run_job")
	if c.Target.Name != "parallel-job" || !c.Waits || c.Pos.Line != 183 {
		t.Errorf("call = %+v", c)
	}
	if len(w.FailPaths) != 1 || w.FailPaths[0].Kind != FailCallError || w.FailPaths[0].Pos.Line != 183 {
		t.Errorf("fail paths = %+v", w.FailPaths)
	}
}
