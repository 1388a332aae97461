package workflows

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// defaultConnectorTimeout is the connectors' default wait for a long-running operation, in
// seconds (GCP-SEMANTICS §2.4).
const defaultConnectorTimeout = 1800

// callTarget is what is known about one external call.
type callTarget struct {
	target         Target
	waits          bool
	timeout        float64
	timeoutDefault bool
	taskTimeout    float64
	taskCount      int
}

// resolveCall works out the target of an external call from its function and args.
func (a *analyser) resolveCall(c *callSpec, vars env) callTarget {
	d := a.d
	fn := c.function
	arg := func(key string) (value, *yaml.Node) {
		n := d.mapGet(c.args, key)
		if n == nil {
			return unknownVal(), nil
		}
		return d.valueOf(n, vars), n
	}
	ref := func(kind, key string, name func(string) string) Target {
		v, n := arg(key)
		t := Target{Kind: kind, Name: Wildcard}
		if n != nil {
			t.Raw, t.Pos = rawText(n), d.pos(n)
			t.Name = name(v.text())
		}
		return t
	}
	ct := callTarget{target: Target{Kind: KindUnknown, Name: Wildcard, Raw: fn, Pos: c.pos}}
	connector := d.mapGet(c.args, "connector_params")
	skipPolling := false
	if sp := d.mapGet(connector, "skip_polling"); sp != nil {
		v := d.valueOf(sp, vars)
		skipPolling = v.kind == valBool && v.b
	}
	lro := func() {
		ct.waits = !skipPolling
		ct.timeout, ct.timeoutDefault = defaultConnectorTimeout, true
		if t := d.mapGet(connector, "timeout"); t != nil {
			if v := d.valueOf(t, vars); v.kind == valNumber {
				ct.timeout, ct.timeoutDefault = v.n, false
			} else {
				ct.timeout, ct.timeoutDefault = 0, false
			}
		}
	}
	switch {
	case strings.HasPrefix(fn, "http."):
		v, n := arg("url")
		ct.target = Target{Kind: KindHTTP, Name: Wildcard, URL: Wildcard}
		if n != nil {
			ct.target.URL, ct.target.Raw, ct.target.Pos = v.text(), rawText(n), d.pos(n)
			ct.target.Kind, ct.target.Name = httpTarget(ct.target.URL)
		}
		if t := d.mapGet(c.args, "timeout"); t != nil {
			if v := d.valueOf(t, vars); v.kind == valNumber {
				ct.timeout = v.n
			}
		}
	case isRunJobs(fn) && strings.HasSuffix(fn, ".jobs.run"):
		// Only jobs.run runs the job; jobs.get/create/delete/patch and the
		// executions calls read or administer it (GCP-SEMANTICS §2.4).
		ct.target = ref(KindJob, "name", func(s string) string { return segmentAfter(s, "jobs") })
		lro()
		ct.taskTimeout, ct.taskCount = a.jobOverrides(c, vars)
	case strings.HasPrefix(fn, "googleapis.pubsub.") && strings.HasSuffix(fn, ".topics.publish"):
		ct.target = ref(KindUnknown, "topic", func(s string) string { return segmentAfter(s, "topics") })
	case strings.HasPrefix(fn, "googleapis.cloudtasks.") && strings.HasSuffix(fn, ".tasks.create"):
		ct.target = ref(KindUnknown, "parent", func(s string) string { return segmentAfter(s, "queues") })
	case runsExecution(fn):
		// executions.run waits for the child; executions.create only
		// starts it. executions.get/list/cancel start nothing.
		ct.target = a.workflowTarget(c, vars)
		if strings.HasSuffix(fn, ".run") {
			lro()
		}
	}
	if ct.target.Name == "" {
		ct.target.Name = Wildcard
	}
	return ct
}

// jobOverrides reads the task timeout (seconds) and task count a jobs.run call overrides; 0 when
// not overridden or not known.
func (a *analyser) jobOverrides(c *callSpec, vars env) (float64, int) {
	d := a.d
	body := d.mapGet(c.args, "body")
	ov := d.mapGet(body, "overrides")
	var timeout float64
	// overrides.timeout is the API's field; body.timeout is a common misplacement of it.
	for _, n := range []*yaml.Node{d.mapGet(body, "timeout"), d.mapGet(ov, "timeoutSeconds"), d.mapGet(ov, "timeout")} {
		if n != nil {
			v := d.valueOf(n, vars)
			switch {
			case v.kind == valNumber:
				timeout = v.n
			case v.known() && v.kind == valString:
				if f, err := strconv.ParseFloat(strings.TrimSuffix(v.s, "s"), 64); err == nil {
					timeout = f
				}
			}
		}
	}
	count := 0
	if n := d.mapGet(ov, "taskCount"); n != nil {
		if v := d.valueOf(n, vars); v.kind == valNumber && v.n > 0 && v.n < 1e9 {
			count = int(v.n)
		}
	}
	return timeout, count
}

// workflowTarget names the child workflow of an executions.run/create call.
func (a *analyser) workflowTarget(c *callSpec, vars env) Target {
	d := a.d
	t := Target{Kind: KindWorkflow, Name: Wildcard}
	for _, key := range []string{"workflow_id", "parent", "name"} {
		n := d.mapGet(c.args, key)
		if n == nil {
			continue
		}
		s := d.valueOf(n, vars).text()
		if key != "workflow_id" {
			s = segmentAfter(s, "workflows")
		}
		t.Name, t.Raw, t.Pos = s, rawText(n), d.pos(n)
		break
	}
	return t
}

func isRunJobs(fn string) bool {
	return strings.HasPrefix(fn, "googleapis.run.v1.namespaces.jobs.") ||
		strings.HasPrefix(fn, "googleapis.run.v2.projects.locations.jobs.")
}

// runsExecution reports whether fn starts a workflow execution: the
// Workflow Executions connector's executions.run or executions.create, or
// the older experimental.executions.run.
func runsExecution(fn string) bool {
	if fn == "experimental.executions.run" {
		return true
	}
	return strings.HasPrefix(fn, "googleapis.workflowexecutions.") &&
		(strings.HasSuffix(fn, ".executions.run") || strings.HasSuffix(fn, ".executions.create"))
}

// segmentAfter returns the path segment after "/key/" in a resource name such as
// "projects/P/locations/L/jobs/NAME"; Wildcard when it is not there.
func segmentAfter(name, key string) string {
	parts := strings.Split(name, "/")
	for i := len(parts) - 2; i >= 0; i-- {
		if parts[i] == key {
			if parts[i+1] == "" {
				return Wildcard
			}
			return parts[i+1]
		}
	}
	if !strings.Contains(name, "/") && name != "" {
		return name // a bare name
	}
	return Wildcard
}

// httpTarget classifies a URL: a Cloud Run service (*.run.app) or plain HTTP, with a name.
func httpTarget(url string) (kind, name string) {
	host := url
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndex(host, ":"); i >= 0 && !strings.Contains(host[i:], Wildcard) {
		host = host[:i]
	}
	if host == "" {
		return KindHTTP, Wildcard
	}
	if !strings.HasSuffix(host, ".run.app") {
		return KindHTTP, host
	}
	label := host[:strings.Index(host, ".")]
	parts := strings.Split(label, "-")
	switch {
	case strings.HasSuffix(host, ".a.run.app") && len(parts) > 2:
		// service-HASH-REGION.a.run.app
		label = strings.Join(parts[:len(parts)-2], "-")
	case !strings.HasSuffix(host, ".a.run.app") && len(parts) > 1:
		// service-PROJECT_NUMBER.REGION.run.app
		label = strings.Join(parts[:len(parts)-1], "-")
	}
	if label == "" || strings.Contains(label, Wildcard) {
		label = Wildcard
	}
	return KindService, label
}

// rawText returns the source text of a scalar reference.
func rawText(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return ""
}

// valueOf is what is statically known about a YAML value.
func (d *decoder) valueOf(n *yaml.Node, vars env) value {
	n = d.derefOrNil(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return unknownVal()
	}
	x, isExpr, err := d.expr(n)
	if err != nil {
		return unknownVal()
	}
	if isExpr {
		if x == nil {
			return unknownVal()
		}
		return eval(x, vars)
	}
	switch n.Tag {
	case "!!int", "!!float":
		if f, ok, _ := d.number(n); ok {
			return numVal(f)
		}
		return unknownVal()
	case "!!bool":
		return boolVal(strings.EqualFold(n.Value, "true"))
	case "!!null":
		return value{kind: valNull}
	}
	return strVal(n.Value)
}
