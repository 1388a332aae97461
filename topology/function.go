package topology

import "go.yaml.in/yaml/v3"

// functionSpec is what a Cloud Function says about how events reach it.
type functionSpec struct {
	name     string
	pos      Pos
	timeout  float64 // request timeout, seconds
	event    bool    // an event-driven function: a trigger delivers to it
	eventPos Pos
	gen2     bool
	retry    bool // gen 1 failurePolicy.retry, gen 2 RETRY_POLICY_RETRY
	retryPos Pos  // where the retry setting is written, if it is
}

// components are the function's handler (a service) and, for an event
// function, the trigger in front of it: with retries enabled it redelivers a
// failed event for up to 7 days; without (the default) it delivers once.
func (f functionSpec) components() []*Component {
	fn := &Component{Name: f.name, Kind: KindService, Pos: f.pos, Timeout: f.timeout}
	if !f.event {
		return []*Component{fn}
	}
	tr := &Component{Name: f.name + "-trigger", Kind: KindTrigger, Pos: f.eventPos}
	d := &Delivery{Eventarc: f.gen2, SingleAttempt: true, Retention: DefaultFunctionRetention,
		MinBackoff: DefaultMinBackoff, MaxBackoff: DefaultMaxBackoff}
	if !f.gen2 {
		d.MinBackoff, d.MaxBackoff = 1, 10 // gen 1: backoff capped at 10 s
	}
	at := f.eventPos
	if f.retryPos.IsValid() {
		at = f.retryPos
	}
	if f.retry {
		d.SingleAttempt, d.RetryPolicy = false, true
		tr.Pos = at
	}
	tr.Delivery = d
	setDestination(tr, KindService, f.name, at)
	return []*Component{fn, tr}
}

// loadFunctionGcloud reads `gcloud functions describe` YAML: a 2nd gen
// function (environment GEN_2, serviceConfig, eventTrigger.retryPolicy) or a
// 1st gen one (timeout, eventTrigger.failurePolicy.retry).
func loadFunctionGcloud(file string, r *yaml.Node) ([]*Component, error) {
	name, pos := resourceName(file, r)
	f := functionSpec{name: name, pos: pos, timeout: DefaultFunctionTimeout,
		gen2: str(r, "environment") == "GEN_2" || val(r, "serviceConfig") != nil}
	timeout := val(r, "timeout")
	if f.gen2 {
		timeout = path(r, "serviceConfig", "timeoutSeconds")
	}
	if timeout != nil && !isNull(timeout) {
		d, err := durationValue(file, timeout, "timeout")
		if err != nil {
			return nil, err
		}
		if d > 0 {
			f.timeout = d
		}
	}
	k, et := get(r, "eventTrigger")
	if et == nil || isNull(et) {
		return f.components(), nil
	}
	if err := expectMapping(file, et, "eventTrigger"); err != nil {
		return nil, err
	}
	f.event, f.eventPos = true, posOf(file, k)
	if f.gen2 {
		if rk, rp := get(et, "retryPolicy"); rp != nil && !isNull(rp) {
			f.retryPos = posOf(file, rk)
			f.retry = str(et, "retryPolicy") == "RETRY_POLICY_RETRY"
		}
	} else if rk, rp := get(val(et, "failurePolicy"), "retry"); rk != nil && !isNull(rp) {
		f.retry, f.retryPos = true, posOf(file, rk) // retry: {} enables retries
	}
	return f.components(), nil
}

// loadFunctionKCC reads a Config Connector CloudFunctionsFunction (1st gen):
// spec.eventTrigger.failurePolicy is a bool.
func loadFunctionKCC(file string, r *yaml.Node) ([]*Component, error) {
	name, pos, err := metadataName(file, r, "CloudFunctionsFunction")
	if err != nil {
		return nil, err
	}
	spec := val(r, "spec")
	if err := expectMapping(file, spec, "spec"); err != nil {
		return nil, err
	}
	f := functionSpec{name: name, pos: pos, timeout: DefaultFunctionTimeout}
	if n := val(spec, "timeout"); n != nil && !isNull(n) {
		d, err := durationValue(file, n, "timeout")
		if err != nil {
			return nil, err
		}
		if d > 0 {
			f.timeout = d
		}
	}
	k, et := get(spec, "eventTrigger")
	if et == nil || isNull(et) {
		return f.components(), nil
	}
	if err := expectMapping(file, et, "eventTrigger"); err != nil {
		return nil, err
	}
	f.event, f.eventPos = true, posOf(file, k)
	if rk, rp := get(et, "failurePolicy"); rp != nil && !isNull(rp) {
		b, err := boolValue(file, rp, "eventTrigger.failurePolicy")
		if err != nil {
			return nil, err
		}
		f.retry, f.retryPos = b, posOf(file, rk)
	}
	return f.components(), nil
}
