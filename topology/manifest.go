package topology

import (
	"fmt"
	"net/url"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/lazyre"
)

// manifestLoader reads one kind of manifest document.
type manifestLoader struct {
	name string
	// group and kind detect a Kubernetes-style manifest by its apiVersion
	// group and kind; detect, when they are empty, any other format.
	group, kind string
	detect      func(r *yaml.Node) bool
	load        func(file string, r *yaml.Node) (*Component, error)
	// loadAll reads a format that gives several components (a function and
	// its event trigger); used when load is nil.
	loadAll func(file string, r *yaml.Node) ([]*Component, error)
}

var (
	v2JobName      = lazyre.New(`^projects/[^/]+/locations/[^/]+/jobs/[^/]+$`)
	v2ServiceName  = lazyre.New(`^projects/[^/]+/locations/[^/]+/services/[^/]+$`)
	subscriptionRE = lazyre.New(`^projects/[^/]+/subscriptions/[^/]+$`)
	triggerRE      = lazyre.New(`^projects/[^/]+/locations/[^/]+/triggers/[^/]+$`)
	// placeholderRE is a name that is wholly a placeholder left to fill:
	// ${JOB_NAME}, $(JOB_NAME), $JOB_NAME.
	placeholderRE = lazyre.New(`^(?:\$\{[^{}]*\}|\$\([^()]*\)|\$[A-Za-z_][A-Za-z0-9_]*)$`)
	queueRE       = lazyre.New(`^projects/[^/]+/locations/[^/]+/queues/[^/]+$`)
	functionRE    = lazyre.New(`^projects/[^/]+/locations/[^/]+/functions/[^/]+$`)
)

func apiKind(r *yaml.Node, group, kind string) bool {
	api, k := str(r, "apiVersion"), str(r, "kind")
	return k == kind && (api == group || strings.HasPrefix(api, group+"/"))
}

// manifestLoaders lists the manifest formats in detection order.
var manifestLoaders = []manifestLoader{
	{name: "Cloud Run job (run.googleapis.com/v1 Job)", group: "run.googleapis.com", kind: "Job", load: loadJobV1},
	{name: "Cloud Run job (Config Connector RunJob)", group: "run.cnrm.cloud.google.com", kind: "RunJob", load: loadJobKCC},
	{name: "Cloud Scheduler job (gcloud describe)", detect: isSchedulerGcloud, load: loadSchedulerGcloud},
	{name: "Cloud Scheduler job (Config Connector CloudSchedulerJob)", group: "cloudscheduler.cnrm.cloud.google.com", kind: "CloudSchedulerJob", load: loadSchedulerKCC},
	{name: "Cloud Run job (Admin API v2)", detect: func(r *yaml.Node) bool {
		return v2JobName.MatchString(str(r, "name")) && val(r, "template") != nil
	}, load: loadJobV2},
	{name: "Cloud Run service (serving.knative.dev/v1 Service)", group: "serving.knative.dev", kind: "Service", load: loadServiceV1},
	{name: "Cloud Run service (Config Connector RunService)", group: "run.cnrm.cloud.google.com", kind: "RunService", load: loadServiceKCC},
	{name: "Cloud Run service (Admin API v2)", detect: func(r *yaml.Node) bool {
		return v2ServiceName.MatchString(str(r, "name")) && val(r, "template") != nil
	}, load: loadServiceV2},
	{name: "Pub/Sub subscription (Config Connector PubSubSubscription)", group: "pubsub.cnrm.cloud.google.com", kind: "PubSubSubscription", load: loadSubscriptionKCC},
	{name: "Pub/Sub subscription (gcloud describe)", detect: func(r *yaml.Node) bool {
		return subscriptionRE.MatchString(str(r, "name")) && val(r, "topic") != nil
	}, load: loadSubscriptionGcloud},
	{name: "Eventarc trigger (Config Connector EventarcTrigger)", group: "eventarc.cnrm.cloud.google.com", kind: "EventarcTrigger", load: loadTriggerKCC},
	{name: "Eventarc trigger (gcloud describe)", detect: func(r *yaml.Node) bool {
		return triggerRE.MatchString(str(r, "name")) && val(r, "destination") != nil
	}, load: loadTriggerGcloud},
	{name: "Cloud Tasks queue (gcloud describe)", detect: func(r *yaml.Node) bool {
		return queueRE.MatchString(str(r, "name"))
	}, load: loadQueueGcloud},
	{name: "Cloud Tasks queue (Config Connector CloudTasksQueue)", group: "cloudtasks.cnrm.cloud.google.com", kind: "CloudTasksQueue", load: loadQueueKCC},
	{name: "Kubernetes Job (batch/v1 Job)", group: "batch", kind: "Job", load: loadK8sJob},
	{name: "Kubernetes CronJob (batch/v1 CronJob)", group: "batch", kind: "CronJob", load: loadK8sCronJob},
	{name: "Cloud Function (gcloud functions describe)", detect: func(r *yaml.Node) bool {
		return functionRE.MatchString(str(r, "name"))
	}, loadAll: loadFunctionGcloud},
	{name: "Cloud Function (Config Connector CloudFunctionsFunction)", group: "cloudfunctions.cnrm.cloud.google.com", kind: "CloudFunctionsFunction", loadAll: loadFunctionKCC},
}

// detects reports whether r is of ml's format.
func (ml manifestLoader) detects(r *yaml.Node) bool {
	if ml.kind != "" {
		return apiKind(r, ml.group, ml.kind)
	}
	return ml.detect(r)
}

// loadManifest detects and loads a manifest document; ok is false when the
// document is of no known kind.
func loadManifest(file string, r *yaml.Node) (cs []*Component, ok bool, err error) {
	for _, ml := range manifestLoaders {
		if !ml.detects(r) {
			continue
		}
		if ml.load != nil {
			c, err := ml.load(file, r)
			if err != nil {
				return nil, true, err
			}
			cs = []*Component{c}
		} else if cs, err = ml.loadAll(file, r); err != nil {
			return nil, true, err
		}
		for _, c := range cs {
			c.Files = []string{file}
		}
		return cs, true, nil
	}
	return nil, false, nil
}

// metadataName reads metadata.name of a Kubernetes-style resource, else
// its metadata.generateName: the prefix the API server completes, which
// names the one object a `kubectl create` of the file makes.
func metadataName(file string, r *yaml.Node, what string) (string, Pos, error) {
	n := path(r, "metadata", "name")
	s, ok := scalar(n)
	if !ok || strings.TrimSpace(s) == "" {
		n = path(r, "metadata", "generateName")
		s, ok = scalar(n)
	}
	if !ok || strings.TrimSpace(s) == "" {
		at := r
		if m := val(r, "metadata"); m != nil {
			at = m
		}
		return "", Pos{}, errorf(posOf(file, at), "%s: expected metadata.name (or metadata.generateName)", what)
	}
	if placeholderRE.MatchString(s) {
		// The whole name is filled at deploy time (envsubst, a pipeline
		// variable): the manifests so named are resources of their own,
		// each known by its file, not one declared twice.
		s = fmt.Sprintf("%s (%s)", s, file)
	}
	return s, posOf(file, n), nil
}

// resourceName reads the `name` of an API resource (last segment).
func resourceName(file string, r *yaml.Node) (string, Pos) {
	n := val(r, "name")
	s, _ := scalar(n)
	return lastSegment(s), posOf(file, n)
}

// expectMapping checks that n, when present, is a mapping.
func expectMapping(file string, n *yaml.Node, what string) error {
	if n != nil && n.Kind != yaml.MappingNode && !isNull(n) {
		return errorf(posOf(file, n), "%s: expected a mapping", what)
	}
	return nil
}

// jobFields reads maxRetries, the task timeout and taskCount of a job.
type jobFields struct {
	exec, task      *yaml.Node // execution template and task template
	timeoutKey      string     // "timeoutSeconds" or "timeout"
	timeoutDuration bool
}

func readJob(file string, c *Component, f jobFields) error {
	for _, m := range []struct {
		n    *yaml.Node
		what string
	}{{f.exec, "execution template"}, {f.task, "task template"}} {
		if err := expectMapping(file, m.n, m.what); err != nil {
			return err
		}
	}
	j := &JobSpec{MaxRetries: DefaultJobMaxRetries, MaxRetriesDefault: true,
		TaskCount: DefaultJobTaskCount, TaskTimeout: DefaultJobTaskTimeout}
	j.MaxRetriesPos, j.TaskTimeoutPos = c.Pos, c.Pos
	if k, n := get(f.task, "maxRetries"); n != nil && !isNull(n) {
		v, err := intValue(file, n, "maxRetries")
		if err != nil {
			return err
		}
		if v < 0 {
			return errorf(posOf(file, n), "maxRetries: expected 0 to 10, got %d", v)
		}
		j.MaxRetries, j.MaxRetriesDefault, j.MaxRetriesPos = v, false, posOf(file, k)
	}
	if k, n := get(f.task, f.timeoutKey); n != nil && !isNull(n) {
		var v float64
		var err error
		if f.timeoutDuration {
			v, err = durationValue(file, n, f.timeoutKey)
		} else {
			var i int
			i, err = intValue(file, n, f.timeoutKey)
			v = float64(i)
		}
		if err != nil {
			return err
		}
		if v > 0 {
			j.TaskTimeout, j.TaskTimeoutPos = v, posOf(file, k)
		}
	}
	if n := val(f.exec, "taskCount"); n != nil && !isNull(n) {
		v, err := intValue(file, n, "taskCount")
		if err != nil {
			return err
		}
		if v < 0 {
			return errorf(posOf(file, n), "taskCount: expected a positive integer, got %d", v)
		}
		if v > 0 {
			j.TaskCount = v
		}
	}
	j.Pods = c.Name + ".pods"
	c.Job = j
	return nil
}

// loadJobV1 reads a run.googleapis.com/v1 Job (gcloud run jobs export).
func loadJobV1(file string, r *yaml.Node) (*Component, error) {
	name, pos, err := metadataName(file, r, "Cloud Run Job")
	if err != nil {
		return nil, err
	}
	c := &Component{Name: name, Kind: KindJob, Pos: pos}
	exec := path(r, "spec", "template", "spec")
	task := path(exec, "template", "spec")
	return c, readJob(file, c, jobFields{exec: exec, task: task, timeoutKey: "timeoutSeconds"})
}

// loadJobKCC reads a Config Connector RunJob (v2 shape under spec).
func loadJobKCC(file string, r *yaml.Node) (*Component, error) {
	name, pos, err := metadataName(file, r, "RunJob")
	if err != nil {
		return nil, err
	}
	c := &Component{Name: name, Kind: KindJob, Pos: pos}
	exec := path(r, "spec", "template")
	return c, readJob(file, c, jobFields{exec: exec, task: val(exec, "template"), timeoutKey: "timeout", timeoutDuration: true})
}

// loadJobV2 reads a Cloud Run Admin API v2 Job.
func loadJobV2(file string, r *yaml.Node) (*Component, error) {
	name, pos := resourceName(file, r)
	c := &Component{Name: name, Kind: KindJob, Pos: pos}
	exec := val(r, "template")
	return c, readJob(file, c, jobFields{exec: exec, task: val(exec, "template"), timeoutKey: "timeout", timeoutDuration: true})
}

func serviceTimeout(file string, c *Component, n *yaml.Node, duration bool) error {
	if n == nil || isNull(n) {
		return nil
	}
	var err error
	if duration {
		c.Timeout, err = durationValue(file, n, "timeout")
	} else {
		var i int
		i, err = intValue(file, n, "timeoutSeconds")
		c.Timeout = float64(i)
	}
	return err
}

// loadServiceV1 reads a serving.knative.dev/v1 Service (gcloud run services export).
func loadServiceV1(file string, r *yaml.Node) (*Component, error) {
	name, pos, err := metadataName(file, r, "Cloud Run Service")
	if err != nil {
		return nil, err
	}
	c := &Component{Name: name, Kind: KindService, Pos: pos}
	return c, serviceTimeout(file, c, path(r, "spec", "template", "spec", "timeoutSeconds"), false)
}

// loadServiceKCC reads a Config Connector RunService.
func loadServiceKCC(file string, r *yaml.Node) (*Component, error) {
	name, pos, err := metadataName(file, r, "RunService")
	if err != nil {
		return nil, err
	}
	c := &Component{Name: name, Kind: KindService, Pos: pos}
	return c, serviceTimeout(file, c, path(r, "spec", "template", "timeout"), true)
}

// loadServiceV2 reads a Cloud Run Admin API v2 Service.
func loadServiceV2(file string, r *yaml.Node) (*Component, error) {
	name, pos := resourceName(file, r)
	c := &Component{Name: name, Kind: KindService, Pos: pos}
	return c, serviceTimeout(file, c, path(r, "template", "timeout"), true)
}

// subscriptionFields names the fields of one subscription format.
type subscriptionFields struct {
	spec         *yaml.Node
	deadLetterTo string // key of the dead-letter topic
}

func readSubscription(file string, c *Component, f subscriptionFields) error {
	if err := expectMapping(file, f.spec, "spec"); err != nil {
		return err
	}
	d := &Delivery{Retention: DefaultRetention, AckDeadline: DefaultAckDeadline}
	s := f.spec
	if n := val(s, "ackDeadlineSeconds"); n != nil && !isNull(n) {
		v, err := intValue(file, n, "ackDeadlineSeconds")
		if err != nil {
			return err
		}
		if v > 0 {
			d.AckDeadline = float64(v)
		}
	}
	if n := val(s, "messageRetentionDuration"); n != nil && !isNull(n) {
		v, err := durationValue(file, n, "messageRetentionDuration")
		if err != nil {
			return err
		}
		if v > 0 {
			d.Retention = v
		}
	}
	if rp := val(s, "retryPolicy"); rp != nil && !isNull(rp) {
		if err := expectMapping(file, rp, "retryPolicy"); err != nil {
			return err
		}
		d.RetryPolicy, d.MinBackoff, d.MaxBackoff = true, DefaultMinBackoff, DefaultMaxBackoff
		if n := val(rp, "minimumBackoff"); n != nil && !isNull(n) {
			v, err := durationValue(file, n, "minimumBackoff")
			if err != nil {
				return err
			}
			d.MinBackoff = v
		}
		if n := val(rp, "maximumBackoff"); n != nil && !isNull(n) {
			v, err := durationValue(file, n, "maximumBackoff")
			if err != nil {
				return err
			}
			d.MaxBackoff = v
		}
	}
	if k, dl := get(s, "deadLetterPolicy"); dl != nil && !isNull(dl) {
		if err := expectMapping(file, dl, "deadLetterPolicy"); err != nil {
			return err
		}
		if val(dl, f.deadLetterTo) != nil {
			d.DeadLetter, d.DeadLetterPos = true, posOf(file, k)
			d.MaxDeliveryAttempts = DefaultDeadLetterAttempts
		}
		if n := val(dl, "maxDeliveryAttempts"); n != nil && !isNull(n) {
			v, err := intValue(file, n, "maxDeliveryAttempts")
			if err != nil {
				return err
			}
			if v < 0 {
				return errorf(posOf(file, n), "maxDeliveryAttempts: expected 5 to 100, got %d", v)
			}
			if v > 0 {
				d.MaxDeliveryAttempts = v
			}
		}
	}
	if pc := val(s, "pushConfig"); pc != nil && !isNull(pc) {
		if err := expectMapping(file, pc, "pushConfig"); err != nil {
			return err
		}
		if k, n := get(pc, "pushEndpoint"); n != nil {
			ep, ok := scalar(n)
			if !ok {
				return errorf(posOf(file, n), "pushEndpoint: expected a URL")
			}
			if ep != "" {
				d.Push, d.Endpoint, d.PushToPos = true, ep, posOf(file, k)
			}
		}
	}
	c.Delivery = d
	return nil
}

// loadSubscriptionKCC reads a Config Connector PubSubSubscription.
func loadSubscriptionKCC(file string, r *yaml.Node) (*Component, error) {
	name, pos, err := metadataName(file, r, "PubSubSubscription")
	if err != nil {
		return nil, err
	}
	c := &Component{Name: name, Kind: KindSubscription, Pos: pos}
	return c, readSubscription(file, c, subscriptionFields{spec: val(r, "spec"), deadLetterTo: "deadLetterTopicRef"})
}

// loadSubscriptionGcloud reads `gcloud pubsub subscriptions describe` YAML.
func loadSubscriptionGcloud(file string, r *yaml.Node) (*Component, error) {
	name, pos := resourceName(file, r)
	c := &Component{Name: name, Kind: KindSubscription, Pos: pos}
	return c, readSubscription(file, c, subscriptionFields{spec: r, deadLetterTo: "deadLetterTopic"})
}

// refName reads a Config Connector reference ({name} or {external}).
func refName(n *yaml.Node) string {
	if s := str(n, "name"); s != "" {
		return lastSegment(s)
	}
	return lastSegment(str(n, "external"))
}

func triggerDelivery(file string, c *Component, retryPolicy *yaml.Node) error {
	d := &Delivery{Eventarc: true, Retention: DefaultEventarcRetention,
		RetryPolicy: true, MinBackoff: DefaultMinBackoff, MaxBackoff: DefaultMaxBackoff}
	if n := val(retryPolicy, "maxAttempts"); n != nil && !isNull(n) {
		v, err := intValue(file, n, "retryPolicy.maxAttempts")
		if err != nil {
			return err
		}
		if v != 1 {
			return errorf(posOf(file, n), "retryPolicy.maxAttempts: expected 1 (the only valid value), got %d", v)
		}
		d.SingleAttempt = true
	}
	c.Delivery = d
	return nil
}

// setDestination records where a trigger delivers.
func setDestination(c *Component, kind Kind, name string, p Pos) {
	c.Delivery.PushTo, c.Delivery.PushToPos = name, p
	c.Delivery.Push = true
	c.Delivery.AckAtStart = kind == KindWorkflow
	c.Calls = nil
	c.Calls = append(c.Calls, &Call{To: name, ToKind: kind, Kind: EdgeDeliver, Pos: p})
}

// loadTriggerKCC reads a Config Connector EventarcTrigger.
func loadTriggerKCC(file string, r *yaml.Node) (*Component, error) {
	name, pos, err := metadataName(file, r, "EventarcTrigger")
	if err != nil {
		return nil, err
	}
	c := &Component{Name: name, Kind: KindTrigger, Pos: pos}
	spec := val(r, "spec")
	if err := expectMapping(file, spec, "spec"); err != nil {
		return nil, err
	}
	if err := triggerDelivery(file, c, val(spec, "retryPolicy")); err != nil {
		return nil, err
	}
	k, dest := get(spec, "destination")
	if dest == nil || dest.Kind != yaml.MappingNode {
		at := spec
		if k != nil {
			at = k
		}
		return nil, errorf(posOf(file, at), "EventarcTrigger: expected spec.destination with cloudRunService, workflowRef, cloudFunctionRef or httpEndpoint")
	}
	switch {
	case val(dest, "cloudRunService") != nil:
		ref := path(dest, "cloudRunService", "serviceRef")
		setDestination(c, KindService, refName(ref), posOf(file, ref))
	case val(dest, "workflowRef") != nil:
		ref := val(dest, "workflowRef")
		setDestination(c, KindWorkflow, refName(ref), posOf(file, ref))
	case val(dest, "cloudFunctionRef") != nil:
		ref := val(dest, "cloudFunctionRef")
		setDestination(c, KindService, refName(ref), posOf(file, ref))
	case val(dest, "httpEndpoint") != nil:
		n := path(dest, "httpEndpoint", "uri")
		setDestination(c, KindExternal, endpointName(str(dest, "httpEndpoint", "uri")), posOf(file, n))
	}
	return c, nil
}

// loadTriggerGcloud reads `gcloud eventarc triggers describe` YAML.
func loadTriggerGcloud(file string, r *yaml.Node) (*Component, error) {
	name, pos := resourceName(file, r)
	c := &Component{Name: name, Kind: KindTrigger, Pos: pos}
	if err := triggerDelivery(file, c, val(r, "retryPolicy")); err != nil {
		return nil, err
	}
	dest := val(r, "destination")
	if err := expectMapping(file, dest, "destination"); err != nil {
		return nil, err
	}
	switch {
	case val(dest, "cloudRun") != nil:
		n := path(dest, "cloudRun", "service")
		setDestination(c, KindService, lastSegment(str(dest, "cloudRun", "service")), posOf(file, n))
	case val(dest, "workflow") != nil:
		n := val(dest, "workflow")
		setDestination(c, KindWorkflow, lastSegment(str(dest, "workflow")), posOf(file, n))
	case val(dest, "cloudFunction") != nil:
		n := val(dest, "cloudFunction")
		setDestination(c, KindService, lastSegment(str(dest, "cloudFunction")), posOf(file, n))
	case val(dest, "httpEndpoint") != nil:
		n := path(dest, "httpEndpoint", "uri")
		setDestination(c, KindExternal, endpointName(str(dest, "httpEndpoint", "uri")), posOf(file, n))
	}
	return c, nil
}

// endpointName names an external HTTP endpoint by its host.
func endpointName(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	return u.Host
}

// runAppService guesses the Cloud Run service name from a run.app URL
// (https://NAME-HASH-REGION.a.run.app or https://NAME-PROJECT.REGION.run.app).
func runAppHost(raw string) (host string, ok bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", false
	}
	h := u.Hostname()
	return h, strings.HasSuffix(h, ".run.app")
}

// loadQueueGcloud reads `gcloud tasks queues describe` YAML.
func loadQueueGcloud(file string, r *yaml.Node) (*Component, error) {
	name, pos := resourceName(file, r)
	c := &Component{Name: name, Kind: KindQueue, Pos: pos}
	return c, readQueue(file, c, r)
}

// loadQueueKCC reads a Config Connector CloudTasksQueue.
func loadQueueKCC(file string, r *yaml.Node) (*Component, error) {
	name, pos, err := metadataName(file, r, "CloudTasksQueue")
	if err != nil {
		return nil, err
	}
	c := &Component{Name: name, Kind: KindQueue, Pos: pos}
	spec := val(r, "spec")
	if err := expectMapping(file, spec, "spec"); err != nil {
		return nil, err
	}
	return c, readQueue(file, c, spec)
}

// readQueue reads retryConfig: maxAttempts counts the first attempt
// (default 100, -1 unlimited). A queue's targets are in its tasks, not in
// the queue: the topology file names them (calls).
func readQueue(file string, c *Component, spec *yaml.Node) error {
	rc := &RetryConfig{Retries: DefaultQueueMaxAttempts - 1, Default: true, Pos: c.Pos,
		MinBackoff: DefaultQueueMinBackoff, MaxBackoff: DefaultQueueMaxBackoff}
	c.Retry = rc
	cfg := val(spec, "retryConfig")
	if err := expectMapping(file, cfg, "retryConfig"); err != nil {
		return err
	}
	if k, n := get(cfg, "maxAttempts"); n != nil && !isNull(n) {
		v, err := intValue(file, n, "retryConfig.maxAttempts")
		if err != nil {
			return err
		}
		switch {
		case v == -1:
			rc.Unbounded, rc.Retries = true, 0
		case v > 0:
			rc.Retries = v - 1
		case v < -1:
			return errorf(posOf(file, n), "retryConfig.maxAttempts: expected -1 (unlimited) or a positive number, got %d", v)
		}
		rc.Default, rc.Pos = v == 0, posOf(file, k)
	}
	for _, b := range []struct {
		key string
		to  *float64
	}{{"minBackoff", &rc.MinBackoff}, {"maxBackoff", &rc.MaxBackoff}} {
		if n := val(cfg, b.key); n != nil && !isNull(n) {
			v, err := durationValue(file, n, "retryConfig."+b.key)
			if err != nil {
				return err
			}
			*b.to = v
		}
	}
	return nil
}

// loadK8sJob reads a Kubernetes batch/v1 Job: spec.backoffLimit (default 6)
// is the number of retries before the job is marked failed.
func loadK8sJob(file string, r *yaml.Node) (*Component, error) {
	name, pos, err := metadataName(file, r, "Job")
	if err != nil {
		return nil, err
	}
	c := &Component{Name: name, Kind: KindK8sJob, Pos: pos}
	spec := val(r, "spec")
	if err := expectMapping(file, spec, "spec"); err != nil {
		return nil, err
	}
	return c, readK8sJob(file, c, spec)
}

// loadK8sCronJob reads a Kubernetes batch/v1 CronJob: the job template's
// backoffLimit applies to every scheduled run.
func loadK8sCronJob(file string, r *yaml.Node) (*Component, error) {
	name, pos, err := metadataName(file, r, "CronJob")
	if err != nil {
		return nil, err
	}
	c := &Component{Name: name, Kind: KindK8sJob, Pos: pos}
	spec := path(r, "spec", "jobTemplate", "spec")
	if err := expectMapping(file, spec, "spec.jobTemplate.spec"); err != nil {
		return nil, err
	}
	return c, readK8sJob(file, c, spec)
}

// readK8sJob reads backoffLimit. The limit counts failed pods of the whole
// job, not per completion, so the task count stays 1.
func readK8sJob(file string, c *Component, spec *yaml.Node) error {
	j := defaultJob(KindK8sJob, c.Pos)
	if k, n := get(spec, "backoffLimit"); n != nil && !isNull(n) {
		v, err := intValue(file, n, "backoffLimit")
		if err != nil {
			return err
		}
		if v < 0 {
			return errorf(posOf(file, n), "backoffLimit: expected 0 or more, got %d", v)
		}
		j.MaxRetries, j.MaxRetriesDefault, j.MaxRetriesPos = v, false, posOf(file, k)
	}
	if n := val(spec, "activeDeadlineSeconds"); n != nil && !isNull(n) {
		v, err := intValue(file, n, "activeDeadlineSeconds")
		if err != nil {
			return err
		}
		if v < 1 {
			return errorf(posOf(file, n), "activeDeadlineSeconds: expected 1 or more, got %d", v)
		}
		j.Deadline = float64(v)
	}
	j.Pods = c.Name + ".pods"
	c.Job = j
	return nil
}
