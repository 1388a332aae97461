package workflows

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/shareddata"
)

// corpusRoot is the folder of real Workflows sources kept beside the
// repository, for the tests that need it.
func corpusRoot(t *testing.T) string { return shareddata.Path(t, "corpus/gcp/workflows") }

// invalidYAML are the corpus files that are not valid YAML, with where
// the YAML first breaks: an unquoted "${…}" holding ": ". Workflows
// refuses them as they are; their tests read them quoted as their authors
// would write them (quoteAt).
var invalidYAML = map[string]string{
	"bpp-scale-pipeline.yaml":          "bpp-scale-pipeline.yaml:170:33: invalid YAML",
	"bpp-genie-sim-import-poller.yaml": "bpp-genie-sim-import-poller.yaml:46:84: invalid YAML",
}

// corpus parses one corpus file, skipping the test when the corpus is not
// there; a file of invalidYAML is read with its expressions quoted.
func corpus(t *testing.T, name string) *Workflow {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(corpusRoot(t), name))
	if err != nil {
		t.Skipf("corpus file not available: %v", err)
	}
	if invalidYAML[name] != "" {
		src = quoteExpressions(t, name, src)
	}
	w, err := Parse(name, src)
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return w
}

// quoteExpressions single-quotes, one after the other, the unquoted
// "${…}" values on which the YAML of src breaks, as the source's author
// would fix them.
func quoteExpressions(t *testing.T, name string, src []byte) []byte {
	t.Helper()
	for range 100 {
		_, err := Decode(name, src)
		var we *Error
		if !errors.As(err, &we) {
			return src
		}
		fixed, ok := "", false
		for n := we.Pos.Line; n > 0 && !ok; n-- { // the expression may start lines above
			fixed, ok = quoteAt(string(src), n, we.Pos.Line)
		}
		if !ok {
			t.Fatalf("%s: cannot quote the expression the YAML breaks on: %v", name, err)
		}
		src = []byte(fixed)
	}
	t.Fatalf("%s: too many expressions to quote", name)
	return nil
}

// quoteAt quotes the "${…}" value that starts on line n of src (1-based),
// to the brace that closes it, on line at or a later one.
func quoteAt(src string, n, at int) (string, bool) {
	lines := strings.Split(src, "\n")
	if n < 1 || n > len(lines) {
		return "", false
	}
	start := strings.Index(lines[n-1], "${")
	if start < 0 {
		return "", false
	}
	depth, inStr := 0, byte(0)
	for j := n - 1; j < len(lines); j++ {
		from := 0
		if j == n-1 {
			from = start + 1
		}
		for k := from; k < len(lines[j]); k++ {
			c := lines[j][k]
			switch {
			case inStr != 0 && c == '\\':
				k++
			case inStr != 0:
				if c == inStr {
					inStr = 0
				}
			case c == '"':
				inStr = c
			case c == '{':
				depth++
			case c == '}':
				if depth--; depth == 0 {
					return quoteSpan(lines, n-1, start, j, k), j+1 >= at
				}
			}
		}
	}
	return "", false
}

// quoteSpan wraps lines[i][start:] … lines[j][:end+1] in single quotes.
func quoteSpan(lines []string, i, start, j, end int) string {
	for x := i; x <= j; x++ {
		from, to := 0, len(lines[x])
		if x == i {
			from = start
		}
		if x == j {
			to = end + 1
		}
		body := strings.ReplaceAll(lines[x][from:to], "'", "''")
		if x == i {
			body = "'" + body
		}
		if x == j {
			body += "'"
		}
		lines[x] = lines[x][:from] + body + lines[x][to:]
	}
	return strings.Join(lines, "\n")
}

func failKinds(w *Workflow) []string {
	var out []string
	for _, p := range w.FailPaths {
		out = append(out, p.Kind)
	}
	return out
}

func TestCorpusAllParse(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusRoot(t), "*.yaml"))
	if len(files) == 0 {
		t.Skip("corpus not available")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		w, err := Parse(name, src)
		if want := invalidYAML[name]; want != "" {
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%s: error %v, want %s…", name, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if w.Approximate {
			t.Errorf("%s: analysis hit a bound", filepath.Base(f))
		}
	}
}

func TestCorpusErrorRetry(t *testing.T) {
	w := corpus(t, "wfs-error_retry.workflows.yaml")
	c := callByStep(t, w, "read_item")
	r := c.Retry
	if c.Function != "http.get" || r == nil || r.Predicate != DefaultRetry || r.MaxRetries != 5 || !r.Known ||
		r.Backoff == nil || *r.Backoff != (Backoff{1, 60, 1.25, r.Backoff.Pos}) {
		t.Fatalf("call %+v retry %+v", c, r)
	}
	if !reflect.DeepEqual(r.Signals, []string{SignalHTTP429, "http-502", "http-503", "http-504", SignalConnection, SignalTimeout}) {
		t.Errorf("signals = %v", r.Signals)
	}
	// No except: after 1+5 attempts the error fails the execution.
	if got := failKinds(w); !reflect.DeepEqual(got, []string{FailCallError}) {
		t.Errorf("fail kinds = %v", got)
	}
}

func TestCorpusErrorRetryCustom(t *testing.T) {
	w := corpus(t, "wfs-error_retry_custom.workflows.yaml")
	r := callByStep(t, w, "read_item").Retry
	if r == nil || r.Predicate != DefaultRetryPredicate || r.MaxRetries != 5 || r.Backoff == nil ||
		r.Backoff.Initial != 2 || r.Backoff.Max != 60 || r.Backoff.Multiplier != 2 || !r.Matches("http-503") {
		t.Fatalf("retry = %+v", r)
	}
}

func TestCorpusErrorRetry500(t *testing.T) {
	w := corpus(t, "wfs-error_retry_500.workflows.yaml")
	r := callByStep(t, w, "read_item").Retry
	if r == nil || r.Predicate != "custom_predicate" || !r.Known || r.Any ||
		!reflect.DeepEqual(r.Signals, []string{"http-500"}) || r.MaxRetries != 5 {
		t.Fatalf("retry = %+v", r)
	}
	if r.Matches("http-503") || !r.Matches(SignalHTTP5xx) {
		t.Error("predicate retries only 500")
	}
}

func TestCorpusErrorRetryHTTPOther(t *testing.T) {
	w := corpus(t, "wfs-error_retry_http_other.workflows.yaml")
	c := callByStep(t, w, "callStep")
	if c.Retry == nil || !reflect.DeepEqual(c.Retry.Signals, []string{"http-202"}) || c.Retry.MaxRetries != 5 {
		t.Fatalf("retry = %+v", c.Retry)
	}
	// The whole try block is retried; when retries run out the raise of the 202 response fails.
	kinds := failKinds(w)
	if !reflect.DeepEqual(kinds, []string{FailCallError, FailRaise}) {
		t.Errorf("fail kinds = %v", kinds)
	}
}

func TestCorpusErrorCatch(t *testing.T) {
	w := corpus(t, "wfs-error_catch.workflows.yaml")
	if len(w.FailPaths) != 1 || w.FailPaths[0].Kind != FailReraise || w.FailPaths[0].Reason != "re-raise of ${e} in except" {
		t.Fatalf("fail paths = %+v", w.FailPaths)
	}
	if !reflect.DeepEqual(w.FailPaths[0].Steps, []string{"read_item", "known_errors", "unhandled_exception"}) {
		t.Errorf("steps = %v", w.FailPaths[0].Steps)
	}
	if c := callByStep(t, w, "read_item"); c.Caught || !c.Handled || c.Retry != nil {
		t.Errorf("call = %+v", c)
	}
}

func TestCorpusParallelErrorHandling(t *testing.T) {
	w := corpus(t, "wfs-parallel_error_handling.workflows.yaml")
	if len(w.FailPaths) != 0 || len(w.Calls) != 0 {
		t.Errorf("raise in parallel branches is caught by the outer except: %+v", w.FailPaths)
	}
}

func TestCorpusConnectorWorkflowExecutions(t *testing.T) {
	w := corpus(t, "wfs-connector_workflowexecutions.workflows.yaml")
	run, create := callByStep(t, w, "run_execution"), callByStep(t, w, "create_execution")
	if run.Target.Kind != KindWorkflow || !run.Waits || create.Target.Kind != KindWorkflow || create.Waits {
		t.Errorf("run %+v create %+v", run, create)
	}
	if run.Retry != nil || create.Retry != nil {
		t.Error("only connector built-in retries")
	}
	if run.Target.Name != create.Target.Name || run.Target.Name != "[fill in the workflow to execute]" {
		t.Errorf("names %q %q", run.Target.Name, create.Target.Name)
	}
}

func TestCorpusCloudRunJobs(t *testing.T) {
	w := corpus(t, "wfd-cloud-run-jobs-workflow.yaml")
	c := callByStep(t, w, "run_job")
	if c.Function != "googleapis.run.v1.namespaces.jobs.run" || c.Target.Name != "parallel-job" || !c.Waits ||
		c.Timeout != 1800 || !c.TimeoutDefault || c.Retry != nil || c.Caught {
		t.Errorf("call = %+v", c)
	}
	if len(w.FailPaths) != 1 || w.FailPaths[0].Reason != "error from googleapis.run.v1.namespaces.jobs.run outside any try" {
		t.Fatalf("fail paths = %+v", w.FailPaths)
	}
	if !reflect.DeepEqual(w.FailPaths[0].Steps, []string{"init", "check_input_file", "run_job"}) {
		t.Errorf("steps = %v", w.FailPaths[0].Steps)
	}
}

func TestCorpusCloudRunJobsPayload(t *testing.T) {
	w := corpus(t, "wfd-cloud-run-jobs-payload-gcs-workflow.yaml")
	c := callByStep(t, w, "run_job_to_process_payload")
	if c.Target.Name != "message-payload-job" || c.Retry != nil || !c.Waits {
		t.Errorf("call = %+v", c)
	}
	if up := callByStep(t, w, "write_payload_to_gcs"); up.Target.URL != "https://storage.googleapis.com/upload/storage/v1/b/message-payload-*/o" {
		t.Errorf("upload URL = %q", up.Target.URL)
	}
	if len(w.FailPaths) != 2 {
		t.Errorf("fail paths = %+v", w.FailPaths)
	}
}

func TestCorpusScreenshotJobs(t *testing.T) {
	w := corpus(t, "wfd-screenshot-jobs-workflow.yaml")
	create, run := callByStep(t, w, "create_job"), callByStep(t, w, "run_job")
	// jobs.create defines the job; it runs nothing.
	if create.Target.Kind == KindJob || create.Waits {
		t.Errorf("create = %+v, want an admin call, not an invocation of the job", create)
	}
	if del := callByStep(t, w, "delete_job"); del.Target.Kind == KindJob || del.Waits {
		t.Errorf("delete = %+v, want an admin call, not an invocation of the job", del)
	}
	if run.Target.Name != "screenshot-*" || !run.Waits || run.Caught {
		t.Errorf("run = %+v", run)
	}
	found := false
	for _, p := range w.FailPaths {
		found = found || p.Pos == run.Pos
	}
	if !found {
		t.Error("a failed job (OperationError) ends the execution")
	}
}

func TestCorpusSagaOrdering(t *testing.T) {
	v2 := corpus(t, "wfd-retries-and-saga-ordering-v2.yaml")
	c := callByStep(t, v2, "reserve_credit")
	if c.Function != "http.post" || c.Retry == nil || c.Retry.Predicate != DefaultRetry || c.Target.Kind != KindService ||
		c.Target.Name != "customer-service" {
		t.Errorf("reserve_credit = %+v", c)
	}
	v3 := corpus(t, "wfd-retries-and-saga-ordering-v3.yaml")
	c = callByStep(t, v3, "reserve_credit")
	if c.Retry == nil || !c.Handled || c.Caught {
		t.Errorf("reserve_credit v3 = %+v", c)
	}
	reraise := false
	for _, p := range v3.FailPaths {
		reraise = reraise || p.Kind == FailReraise
	}
	if !reraise {
		t.Errorf("v3 re-raises non-500 errors: %+v", v3.FailPaths)
	}
	if reject := callByStep(t, v3, "reject_pending_order"); reject.Target.Name != "order-service" {
		t.Errorf("reject = %+v", reject)
	}
}

func TestCorpusParentWorkflow(t *testing.T) {
	w := corpus(t, "wfd-workflow-executes-other-workflows-workflow-parent.yaml")
	c := callByStep(t, w, "execute_child_workflow")
	if c.Target.Kind != KindWorkflow || c.Target.Name != "workflow-child" || !c.Waits || !c.Caught || c.Retry != nil {
		t.Errorf("call = %+v", c)
	}
	if len(w.FailPaths) != 0 {
		t.Errorf("child failures are caught: %+v", w.FailPaths)
	}
}

func TestCorpusScalePipeline(t *testing.T) {
	w := corpus(t, "bpp-scale-pipeline.yaml")
	c := callByStep(t, w, "run_scale_job")
	r := c.Retry
	if c.Function != "googleapis.run.v2.projects.locations.jobs.run" || c.Target.Kind != KindJob || c.Target.Name != "scale-job" {
		t.Fatalf("call = %+v", c)
	}
	if !c.Waits || c.Timeout != 1800 || !c.TimeoutDefault || c.TaskTimeout != 3600 {
		t.Errorf("waits %v timeout %v default %v task timeout %v", c.Waits, c.Timeout, c.TimeoutDefault, c.TaskTimeout)
	}
	if r == nil || r.Predicate != DefaultRetryPredicate || r.MaxRetries != 5 || !r.Matches(SignalTimeout) || r.Matches(SignalOperationError) {
		t.Errorf("retry = %+v", r)
	}
	// The 404 branch of check_if_done jumps straight to run_scale_job, past init_scale_metrics,
	// so scaleStartTime is never assigned when the metrics are computed afterwards.
	unassigned := false
	for _, p := range w.FailPaths {
		if p.Kind == FailUnassigned && strings.Contains(p.Reason, "scaleStartTime") {
			unassigned = true
		}
	}
	if !unassigned {
		t.Errorf("fail paths = %+v", w.FailPaths)
	}
	// Calls past that failure are still listed: they are steps the workflow can run.
	if c := callByStep(t, w, "mark_scale_complete"); c.Function != "googleapis.storage.v1.objects.insert" || c.Target.Kind != KindUnknown {
		t.Errorf("mark_scale_complete = %+v", c)
	}
}

func TestCorpusGenieSimPoller(t *testing.T) {
	w := corpus(t, "bpp-genie-sim-import-poller.yaml")
	var storage, create int
	for _, c := range w.Calls {
		switch {
		case strings.HasPrefix(c.Function, "googleapis.storage."):
			storage++
			if c.Retry == nil || c.Retry.Predicate != DefaultRetryPredicate || c.Retry.MaxRetries != 3 {
				t.Errorf("storage call %s retry %+v", c.Step, c.Retry)
			}
		case strings.HasSuffix(c.Function, "executions.create"):
			create++
			if c.Waits || c.Target.Name != "genie-sim-import-pipeline" {
				t.Errorf("create = %+v", c)
			}
		}
	}
	if storage != 3 || create != 1 {
		t.Errorf("storage calls %d, executions.create %d", storage, create)
	}
	reraise := 0
	for _, p := range w.FailPaths {
		if p.Kind == FailReraise {
			reraise++
		}
	}
	if reraise != 3 {
		t.Errorf("raise on non-404 errors: %+v", w.FailPaths)
	}
}

func TestCorpusEventarcPubSub(t *testing.T) {
	w := corpus(t, "evs-eventarc-pubsub-workflow.yaml")
	if len(w.Calls) != 0 || len(w.FailPaths) != 0 || !reflect.DeepEqual(w.Params, []string{"event"}) {
		t.Errorf("workflow = %+v", w)
	}
	// The workflow reads event.data.data; a Pub/Sub event carries event.data.message.data. The
	// shape of the event is the trigger's business: the read is reported for the caller to judge.
	found := false
	for _, r := range w.ParamReads {
		found = found || r.Path == "event.data.data"
	}
	if !found {
		t.Errorf("param reads = %+v", w.ParamReads)
	}
}

func TestCorpusOrderProcessing(t *testing.T) {
	w := corpus(t, "gcw-order-processing-workflow.yaml")
	if len(w.Calls) != 3 {
		t.Fatalf("calls = %+v", w.Calls)
	}
	for _, c := range w.Calls {
		if c.Function != "http.post" || c.Retry != nil || c.Target.URL == "" {
			t.Errorf("call = %+v", c)
		}
	}
	raise := false
	for _, p := range w.FailPaths {
		raise = raise || (p.Kind == FailRaise && p.Pos.Line == 17)
	}
	if !raise {
		t.Errorf("raise of a {code, message} map: %+v", w.FailPaths)
	}
}

func TestCorpusPRGenerator(t *testing.T) {
	w := corpus(t, "gem-pr-generator-workflow.yaml")
	c := callByStep(t, w, "run_job")
	if c.Target.Name != "pr-gen-job" || c.Timeout != 7200 || c.TimeoutDefault || !c.Waits || !c.Caught || c.Retry != nil {
		t.Fatalf("call = %+v", c)
	}
	// The job's failure never fails the execution: the except block returns. The one way to fail
	// is the input validation before the job runs.
	for _, p := range w.FailPaths {
		if p.Kind != FailRaise || contains(p.Steps, "run_job") {
			t.Errorf("unexpected fail path %+v", p)
		}
	}
	if len(w.FailPaths) != 1 || w.FailPaths[0].Pos.Line != 27 {
		t.Errorf("fail paths = %+v", w.FailPaths)
	}
	if fs := callByStep(t, w, "update_firestore_on_failure"); !fs.InExcept || !fs.Caught {
		t.Errorf("firestore call = %+v", fs)
	}
}
