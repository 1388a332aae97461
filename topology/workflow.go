package topology

import (
	"errors"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/topology/workflows"
)

// looksLikeWorkflow reports whether a document is Cloud Workflows source.
func looksLikeWorkflow(doc *yaml.Node) bool { return workflows.Looks(doc) }

// loadWorkflow turns a parsed workflow into a component: each call becomes
// a call from the workflow with the step's retry policy; the workflow emits
// workflow-failed iff some path ends FAILED.
func loadWorkflow(file string, doc *yaml.Node) (*Component, error) {
	wf, err := workflows.ParseNode(file, doc, 0, 0)
	if err != nil {
		var we *workflows.Error
		if errors.As(err, &we) {
			return nil, &InputError{Pos: wfPos(we.Pos, file), Msg: we.Msg}
		}
		return nil, &InputError{Pos: Pos{File: file, Line: 1, Col: 1}, Msg: err.Error()}
	}
	return workflowComponent(file, workflowName(file), wf), nil
}

func wfPos(p workflows.Pos, file string) Pos {
	if p.File == "" {
		p.File = file
	}
	if p.Line == 0 {
		p.Line, p.Col = 1, 1
	}
	return Pos{File: p.File, Line: p.Line, Col: p.Col}
}

// workflowComponent converts the parser's result into the component name.
func workflowComponent(file, name string, wf *workflows.Workflow) *Component {
	c := &Component{Name: name, Kind: KindWorkflow, Pos: wfPos(wf.Pos, file),
		Files: []string{file}, Workflow: &WorkflowInfo{Params: wf.Params}}
	if wf.Approximate {
		c.Workflow.Approximate, c.Workflow.ApproxPos = wf.ApproxReason, wfPos(wf.ApproxPos, file)
		if c.Workflow.Approximate == "" {
			c.Workflow.Approximate = "the analysis hit a size bound"
		}
	}
	for _, fp := range wf.FailPaths {
		c.Workflow.FailPaths = append(c.Workflow.FailPaths, FailPath{Pos: wfPos(fp.Pos, file), Reason: fp.Reason, Steps: fp.Steps, Kind: fp.Kind})
	}
	for _, n := range wf.Notifications {
		c.Workflow.Notifications = append(c.Workflow.Notifications, Notification{Pos: wfPos(n.Pos, file), Step: n.Step, URL: n.URL, BeforeFail: n.BeforeFail})
	}
	for _, wc := range wf.Calls {
		if call := workflowCall(file, c.Name, wc); call != nil {
			c.Calls = append(c.Calls, call)
		}
	}
	return c
}

// workflowCall converts one call step; calls of no retry interest (sys.*,
// subworkflows, pure expressions) are dropped.
func workflowCall(file, wfName string, wc *workflows.Call) *Call {
	call := &Call{Kind: EdgeCall, Pos: wfPos(wc.Pos, file), Step: wc.Step, Awaits: wc.Waits,
		Caught: wc.Caught, Timeout: wc.Timeout, TimeoutSet: !wc.TimeoutDefault}
	t := wc.Target
	switch t.Kind {
	case "cloudrun.job":
		call.To, call.ToKind = t.Name, KindJob
		if call.Timeout <= 0 && call.Awaits {
			call.Timeout = DefaultConnectorTimeout
		}
	case "cloudrun.service":
		call.To, call.ToKind = t.Name, KindService
	case "workflow":
		call.To, call.ToKind = t.Name, KindWorkflow
	case "http":
		call.To, call.ToKind = "url:"+externalName(wfName, wc), KindExternal
		call.Awaits = true
	default:
		if !strings.HasPrefix(wc.Function, "googleapis.") {
			return nil
		}
		call.To, call.ToKind = wc.Function, KindExternal
		call.Awaits = true
	}
	if t.Pos.Line > 0 {
		call.Pos = wfPos(t.Pos, file)
	}
	if call.To == "" || call.To == "url:" {
		call.To = "*"
	}
	if strings.Contains(call.To, "*") && strings.Contains(t.Raw, "${") && !strings.HasPrefix(call.To, "url:") {
		call.Computed = t.Raw
	}
	call.TaskTimeout, call.TaskCount = wc.TaskTimeout, wc.TaskCount
	call.Method = wc.Method
	call.StartsWork = call.ToKind == KindJob || call.ToKind == KindWorkflow
	if strings.HasPrefix(wc.Function, "http.") || call.ToKind == KindExternal && strings.HasPrefix(wc.Function, "googleapis.") {
		// An HTTP call raises HttpError only for a status of 400 or more;
		// a 2xx or 3xx answer is a result, whatever the callee may send.
		call.Raises = Signals{SigHTTP4xx, SigHTTP5xx, SigConnection, SigTimeout}
	}
	if wc.Retry != nil {
		for _, r := range append([]*workflows.Retry{wc.Retry}, wc.Outer...) {
			l := retryLayer(file, r)
			call.Tries = append(call.Tries, l)
			call.Raised = append(call.Raised, toSignals(r.Raised)...)
		}
		call.Raised = call.Raised.Normalize()
		l := call.Tries[0]
		call.Retries, call.Unbounded, call.Predicate, call.RetryPos, call.Backoff = l.Retries, l.Unbounded, l.Predicate, l.Pos, l.Backoff
		if l.Note != "" {
			call.Note = l.Note
		}
		if len(call.Tries) == 1 {
			call.Tries = nil
		}
	}
	return call
}

// retryLayer converts one workflow retry policy.
func retryLayer(file string, r *workflows.Retry) RetryLayer {
	l := RetryLayer{Retries: r.MaxRetries, Pos: wfPos(r.Pos, file),
		Predicate: Predicate{Name: r.Predicate, Any: r.Any, Known: r.Known,
			Signals: toSignals(r.Signals), Custom: !strings.HasPrefix(r.Predicate, "http.default_retry")}}
	if r.MaxRetries < 0 {
		// A count computed at run time: assumed at its worst.
		l.Unbounded = true
		l.Note = "max_retries is not known statically, so it is assumed unbounded"
	}
	if b := r.Backoff; b != nil {
		l.Backoff = &Backoff{Initial: b.Initial, Max: b.Max, Multiplier: b.Multiplier, Pos: wfPos(b.Pos, file)}
	}
	return l
}

// externalName names the endpoint of an http.* call: its URL when fully
// known, else the workflow and step.
func externalName(wfName string, wc *workflows.Call) string {
	t := wc.Target
	for _, s := range []string{t.URL, t.Name} {
		if s != "" && !strings.Contains(s, "*") {
			return s
		}
	}
	return "http://" + wfName + "." + wc.Step + ".external"
}

func toSignals(ss []string) Signals {
	out := make(Signals, 0, len(ss))
	for _, s := range ss {
		out = append(out, Signal(s))
	}
	return out.Normalize()
}
