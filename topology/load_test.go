package topology_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/topology"
)

func load(t *testing.T, name, src string) *topology.Graph {
	t.Helper()
	g, err := topology.LoadBytes(name, []byte(src), topology.Options{})
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return g
}

func loadErr(t *testing.T, name, src string) *topology.InputError {
	t.Helper()
	_, err := topology.LoadBytes(name, []byte(src), topology.Options{})
	var ie *topology.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("load %s: error %v, want an InputError", name, err)
	}
	return ie
}

const jobV1 = `apiVersion: run.googleapis.com/v1
kind: Job
metadata:
  name: nightly
spec:
  template:
    spec:
      taskCount: 4
      template:
        spec:
          maxRetries: 2
          timeoutSeconds: '1200'
`

func TestJobFormats(t *testing.T) {
	cases := []struct {
		name, src               string
		job                     string
		retries, tasks          int
		timeout                 float64
		defaulted               bool
		retriesLine, retriesCol int
	}{
		{"v1.yaml", jobV1, "nightly", 2, 4, 1200, false, 11, 11},
		{"v1-default.yaml", "apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata:\n  name: d\n", "d", 3, 1, 600, true, 4, 9},
		{"kcc.yaml", "apiVersion: run.cnrm.cloud.google.com/v1beta1\nkind: RunJob\nmetadata:\n  name: k\nspec:\n  template:\n    taskCount: 2\n    template:\n      maxRetries: 0\n      timeout: 10m0s\n", "k", 0, 2, 600, false, 9, 7},
		{"v2.json", `{"name": "projects/p/locations/l/jobs/v2", "template": {"template": {"maxRetries": 1, "timeout": "90s"}}}`, "v2", 1, 1, 90, false, 1, 70},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := load(t, c.name, c.src)
			j := g.Component(c.job)
			if j == nil || j.Kind != topology.KindJob || j.Job == nil {
				t.Fatalf("no job %s in %+v", c.job, g.Components)
			}
			if j.Job.MaxRetries != c.retries || j.Job.TaskCount != c.tasks || j.Job.TaskTimeout != c.timeout || j.Job.MaxRetriesDefault != c.defaulted {
				t.Errorf("job = %+v", *j.Job)
			}
			if p := j.Job.MaxRetriesPos; p.Line != c.retriesLine || p.Col != c.retriesCol {
				t.Errorf("maxRetries at %s, want line %d col %d", p, c.retriesLine, c.retriesCol)
			}
		})
	}
}

func TestSubscriptionFormats(t *testing.T) {
	gcloud := `ackDeadlineSeconds: 60
deadLetterPolicy:
  deadLetterTopic: projects/p/topics/dlq
  maxDeliveryAttempts: 7
messageRetentionDuration: 86400s
name: projects/p/subscriptions/orders
pushConfig:
  pushEndpoint: https://orders-abc123-uc.a.run.app/push
retryPolicy:
  maximumBackoff: 300s
  minimumBackoff: 20s
topic: projects/p/topics/orders
---
apiVersion: serving.knative.dev/v1
kind: Service
metadata:
  name: orders
spec:
  template:
    spec:
      timeoutSeconds: 300
`
	g := load(t, "sub.yaml", gcloud)
	s := g.Component("orders")
	if s == nil {
		t.Fatal("no component orders")
	}
	// The subscription and the service share a name: the later is qualified.
	sub := g.Component("pubsub.subscription/orders")
	svc := g.Component("orders")
	if sub == nil || svc == nil || svc.Kind != topology.KindService {
		sub = g.Component("orders")
		svc = g.Component("cloudrun.service/orders")
	}
	if sub == nil || sub.Delivery == nil || svc == nil {
		t.Fatalf("components: %v", names(g))
	}
	d := sub.Delivery
	if !d.Push || !d.DeadLetter || d.MaxDeliveryAttempts != 7 || d.Retention != 86400 || d.MinBackoff != 20 || d.MaxBackoff != 300 || d.AckDeadline != 60 {
		t.Errorf("delivery = %+v", *d)
	}
	out := g.Out[sub]
	if len(out) != 1 || out[0].To != svc || out[0].Retries != 6 || out[0].Unbounded {
		t.Fatalf("push edge = %+v", out)
	}

	kcc := `apiVersion: pubsub.cnrm.cloud.google.com/v1beta1
kind: PubSubSubscription
metadata:
  name: audit
spec:
  topicRef: {name: audit}
  deadLetterPolicy:
    deadLetterTopicRef: {name: dlq}
`
	g = load(t, "kcc.yaml", kcc)
	a := g.Component("audit")
	if a == nil || a.Delivery.Push || !a.Delivery.DeadLetter || a.Delivery.MaxDeliveryAttempts != 5 || a.Delivery.Retention != 604800 {
		t.Errorf("audit = %+v", a.Delivery)
	}
}

func TestTriggerFormats(t *testing.T) {
	g := load(t, "t.yaml", `destination:
  workflow: projects/p/locations/l/workflows/pipeline
name: projects/p/locations/l/triggers/to-wf
---
destination:
  cloudRun: {service: web, region: l}
name: projects/p/locations/l/triggers/to-web
retryPolicy: {maxAttempts: 1}
`)
	wf := g.Component("to-wf")
	if wf == nil || !wf.Delivery.AckAtStart || len(g.Out[wf]) != 1 || g.Out[wf][0].To.Kind != topology.KindWorkflow {
		t.Fatalf("to-wf: %+v", wf)
	}
	web := g.Component("to-web")
	if web == nil || !web.Delivery.SingleAttempt || g.Out[web][0].Retries != 0 || g.Out[web][0].Unbounded {
		t.Fatalf("to-web: %+v", web)
	}
	if len(g.Findings) != 2 {
		t.Errorf("want two unresolved references, got %+v", g.Findings)
	}
}

func TestTopologyOverrides(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "job.yaml", jobV1)
	write(t, dir, "retrylint.yaml", `version: 1
budget: 6
include: [job.yaml]
components:
  nightly:
    kind: cloudrun.job
    max_retries: 0
    runs: app
  app: {kind: app}
`)
	g, err := topology.Load([]string{filepath.Join(dir, "retrylint.yaml")}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	j := g.Component("nightly")
	if j.Job.MaxRetries != 0 || j.Job.TaskCount != 4 || len(j.Overridden) != 1 || !strings.HasPrefix(j.Overridden[0], "max_retries (retrylint.yaml:7:5)") {
		t.Errorf("job %+v overridden %v", *j.Job, j.Overridden)
	}
	if g.Budget != 6 {
		t.Errorf("budget %d", g.Budget)
	}
	if len(g.Out[j]) != 1 || g.Out[j][0].To.Name != "app" || g.Out[j][0].Kind != topology.EdgeRuns {
		t.Errorf("runs edge: %+v", g.Out[j])
	}
}

func TestSkipsUnknownAndWalks(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a/job.yaml", jobV1)
	write(t, dir, "a/b/other.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n")
	write(t, dir, "a/notes.txt", "not read")
	write(t, dir, ".hidden/job.yaml", strings.Replace(jobV1, "nightly", "hidden", 1))
	if err := os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "a", "b", "loop")); err != nil {
		t.Fatal(err)
	}
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if g.Component("nightly") == nil || g.Component("hidden") != nil {
		t.Errorf("components %v", names(g))
	}
	if len(g.Skipped) != 1 || g.Skipped[0].File != "a/b/other.yaml" {
		t.Errorf("skipped %v", g.Skipped)
	}
}

func TestInputErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"bad.yaml", "a: [1, 2\n", "bad.yaml:1:4: invalid YAML"},
		{"job.yaml", strings.Replace(jobV1, "maxRetries: 2", "maxRetries: {a: 1}", 1), "job.yaml:11:23: maxRetries: expected an integer"},
		{"job2.yaml", strings.Replace(jobV1, "maxRetries: 2", "maxRetries: -1", 1), "job2.yaml:11:23: maxRetries: expected 0 to 10"},
		{"noname.yaml", "apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata: {}\n", "noname.yaml:3:11: Cloud Run Job: expected metadata.name"},
		{"t.yaml", "version: 1\ncomponents:\n  a: {kind: nope}\n", "t.yaml:3:13: component a: kind: expected one of app, external"},
		{"t2.yaml", "version: 2\ncomponents: {}\n", "t2.yaml:1:10: version: expected 1"},
		{"t3.yaml", "version: 1\ncomponents:\n  a:\n    kind: app\n    calls:\n      - retries: 2\n", "t3.yaml:6:9: component a: calls: a call needs `to:`"},
		{"t4.yaml", "version: 1\ncomponents:\n  a:\n    kind: app\n    calls:\n      - {to: b, retries: lots}\n", "t4.yaml:6:26: component a: calls: retries: expected a number or `unbounded`"},
		{"t5.yaml", "version: 1\ncomponents:\n  a: {max_retries: 2}\n", "t5.yaml:3:3: component a: `kind:` is required"},
		{"t6.yaml", "version: 1\nextra: true\ncomponents: {}\n", `t6.yaml:2:1: topology file: unknown key "extra"`},
		{"t7.yaml", "version: 1\ninclude: [other.yaml]\ncomponents: {}\n", `t7.yaml:2:11: include "other.yaml"`},
		{"sub.yaml", "name: projects/p/subscriptions/s\ntopic: projects/p/topics/t\nmessageRetentionDuration: soon\n", "sub.yaml:3:27: messageRetentionDuration: expected a duration"},
		{"trig.yaml", "destination: {cloudRun: {service: s}}\nname: projects/p/locations/l/triggers/t\nretryPolicy: {maxAttempts: 3}\n", "trig.yaml:3:28: retryPolicy.maxAttempts: expected 1"},
		{"wf.yaml", "main:\n  steps:\n    - s:\n        return: ${1 +\n", "wf.yaml:4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ie := loadErr(t, c.name, c.src)
			if !strings.HasPrefix(ie.Error(), c.want) {
				t.Errorf("error %q, want prefix %q", ie.Error(), c.want)
			}
		})
	}
}

func TestFileSizeCap(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "big.yaml", "a: "+strings.Repeat("x", 2000)+"\n")
	_, err := topology.Load([]string{filepath.Join(dir, "big.yaml")}, topology.Options{MaxFileSize: 1000, WorkDir: dir})
	if err == nil || !strings.Contains(err.Error(), "larger than 1000 bytes") {
		t.Errorf("error %v, want the size cap", err)
	}
}

func TestAliasBomb(t *testing.T) {
	src := `a: &a ["x","x","x","x","x","x","x","x","x"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
version: 1
components: {x: {kind: app, calls: *i}}
`
	// Either a clean error or a result; it must not hang or blow up.
	_, _ = topology.LoadBytes("bomb.yaml", []byte(src), topology.Options{})
}

func TestSignalMatching(t *testing.T) {
	cases := []struct {
		p, s topology.Signal
		want bool
	}{
		{"http-5xx", "http-503", true},
		{"http-503", "http-5xx", true},
		{"http-503", "http-502", false},
		{"http-4xx", "http-429", true},
		{"http-429", "http-5xx", false},
		{"any", "exit-nonzero", true},
		{"nack", "http-500", true},
		{"nack", "timeout", true},
		{"operation-error", "timeout", false},
		{"exit-nonzero", "exit-nonzero", true},
	}
	for _, c := range cases {
		if got := topology.SignalMatches(c.p, c.s); got != c.want {
			t.Errorf("SignalMatches(%s, %s) = %v, want %v", c.p, c.s, got, c.want)
		}
	}
	for _, s := range []topology.Signal{"http-503", "http-5xx", "timeout", "nack", "any"} {
		if !topology.ValidSignal(s) {
			t.Errorf("%s not valid", s)
		}
	}
	for _, s := range []topology.Signal{"http-5", "http-6xx", "flaky", "http-50x"} {
		if topology.ValidSignal(s) {
			t.Errorf("%s valid", s)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]float64{"600": 600, "600s": 600, "10m0s": 600, "1h": 3600, "1.5s": 1.5, "7d": 604800} {
		got, err := topology.ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "soon", "-5s", "NaN"} {
		if _, err := topology.ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q): no error", in)
		}
	}
}

func write(t *testing.T, dir, name, src string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func names(g *topology.Graph) []string {
	var out []string
	for _, c := range g.Components {
		out = append(out, c.Name+"("+string(c.Kind)+")")
	}
	return out
}

func TestSchedulerFormats(t *testing.T) {
	g := load(t, "s.yaml", `httpTarget:
  uri: https://workflowexecutions.googleapis.com/v1/projects/p/locations/l/workflows/flow/executions
name: projects/p/locations/l/jobs/start-flow
retryConfig: {retryCount: 3}
schedule: '0 3 * * *'
---
httpTarget:
  uri: https://api-abc123-uc.a.run.app/tick
name: projects/p/locations/l/jobs/tick
attemptDeadline: 30s
schedule: '* * * * *'
---
apiVersion: cloudscheduler.cnrm.cloud.google.com/v1beta1
kind: CloudSchedulerJob
metadata: {name: kcc-run}
spec:
  schedule: '0 4 * * *'
  httpTarget: {uri: 'https://run.googleapis.com/v2/projects/p/locations/l/jobs/export:run'}
`)
	cases := []struct {
		name, to string
		kind     topology.Kind
		retries  int
		awaits   bool
		timeout  float64
	}{
		{"start-flow", "flow", topology.KindWorkflow, 3, false, 180},
		{"tick", "api", topology.KindService, 0, true, 30},
		{"kcc-run", "export", topology.KindJob, 0, false, 180},
	}
	for _, c := range cases {
		s := g.Component(c.name)
		if s == nil || s.Kind != topology.KindScheduler || len(g.Out[s]) != 1 {
			t.Fatalf("%s: %+v", c.name, s)
		}
		e := g.Out[s][0]
		if e.To.Name != c.to || e.To.Kind != c.kind || e.Retries != c.retries || e.Awaits != c.awaits || e.Timeout != c.timeout || e.Kind != topology.EdgeDeliver {
			t.Errorf("%s: edge to %s (%s) retries %d awaits %v timeout %v", c.name, e.To.Name, e.To.Kind, e.Retries, e.Awaits, e.Timeout)
		}
	}
	if ie := loadErr(t, "bad.yaml", "name: projects/p/locations/l/jobs/j\nschedule: x\nretryConfig: {retryCount: 9}\n"); !strings.HasPrefix(ie.Error(), "bad.yaml:3:27: retryConfig.retryCount: expected 0 to 5") {
		t.Errorf("error %v", ie)
	}
}

func TestNonYAMLIsSkipped(t *testing.T) {
	g, err := topology.LoadBytes("README.md", []byte("# Title\n\nkey: value: more\n"), topology.Options{})
	if err != nil {
		t.Fatalf("a non-YAML file named README.md: %v, want it skipped", err)
	}
	if len(g.Skipped) != 1 || len(g.Components) != 0 {
		t.Errorf("skipped %v, components %v", g.Skipped, names(g))
	}
	if _, err := topology.LoadBytes("broken.yaml", []byte("key: value: more\n"), topology.Options{}); err == nil {
		t.Error("a broken .yaml file loads without error")
	}
}
