// Package topology models the retry layers of a deployment: the components
// that run (apps, Cloud Run jobs and services, workflows, subscriptions,
// triggers, sinks), the edges between them with the caller's retry policy,
// and the failure signals each component reports upward. Loaders build the
// model from manifests and from the topology file (SPEC §3, §5).
package topology

import (
	"sort"

	"github.com/retrylint/retrylint/model"
)

// Kind is the kind of a component (SPEC §3).
type Kind string

// Component kinds.
const (
	KindApp          Kind = "app"
	KindExternal     Kind = "external"
	KindJob          Kind = "cloudrun.job"
	KindService      Kind = "cloudrun.service"
	KindWorkflow     Kind = "workflow"
	KindSubscription Kind = "pubsub.subscription"
	KindTrigger      Kind = "eventarc.trigger"
	KindQueue        Kind = "cloudtasks.queue"
	KindScheduler    Kind = "scheduler.job"
	KindK8sJob       Kind = "k8s.job"
	KindSink         Kind = "sink"
)

// Kinds lists every component kind.
var Kinds = []Kind{KindApp, KindExternal, KindJob, KindService, KindWorkflow,
	KindSubscription, KindTrigger, KindQueue, KindScheduler, KindK8sJob, KindSink}

// ValidKind reports whether k is a known kind.
func ValidKind(k Kind) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Pos is a place in an input file: retrylint's one position type.
type Pos = model.Pos

// Default values taken from the platforms' documentation (GCP-SEMANTICS.md).
const (
	DefaultJobMaxRetries       = 3      // Cloud Run job maxRetries, per task
	DefaultJobTaskTimeout      = 600    // seconds, per attempt
	DefaultJobTaskCount        = 1      // tasks per execution
	DefaultConnectorTimeout    = 1800   // seconds, Workflows jobs.run connector
	DefaultRetention           = 604800 // seconds, Pub/Sub message retention (7 d)
	DefaultEventarcRetention   = 86400  // seconds, Eventarc subscription retention (24 h)
	DefaultDeadLetterAttempts  = 5      // Pub/Sub maxDeliveryAttempts when a DLQ is set
	DefaultAckDeadline         = 10     // seconds, Pub/Sub ack deadline
	DefaultMinBackoff          = 10     // seconds, Pub/Sub retry policy minimum
	DefaultMaxBackoff          = 600    // seconds, Pub/Sub retry policy maximum
	DefaultBudget              = 10     // executions per event before amplification warns
	DefaultWorkflowsMaxRetries = 5      // http.default_retry
	DefaultQueueMaxAttempts    = 100    // Cloud Tasks maxAttempts, the first attempt included
	DefaultQueueMinBackoff     = 0.1    // seconds, Cloud Tasks minBackoff
	DefaultQueueMaxBackoff     = 3600   // seconds, Cloud Tasks maxBackoff
	DefaultK8sBackoffLimit     = 6      // Kubernetes Job spec.backoffLimit
	DefaultFunctionRetention   = 604800 // seconds a function event is retried (7 d)
	DefaultFunctionTimeout     = 60     // seconds, Cloud Functions request timeout
)

// Backoff is a retry policy's wait between attempts, in seconds.
type Backoff struct {
	Initial    float64
	Max        float64
	Multiplier float64
	Jitter     string
	Pos        Pos
}

// EdgeKind says how the caller reaches the callee.
type EdgeKind string

// Edge kinds.
const (
	EdgeCall    EdgeKind = "call"    // a synchronous call or an awaited start
	EdgeRuns    EdgeKind = "runs"    // a Cloud Run job runs its container (task retries)
	EdgeDeliver EdgeKind = "deliver" // a push subscription or trigger delivers an event
	EdgeNotify  EdgeKind = "notify"  // an outcome report to a sink
)

// Call is an outgoing reference of a component before linking: who it
// invokes and with what retry policy.
type Call struct {
	To string // component name; may hold "*" glob parts
	// Computed is the expression of a name that is computed at run time
	// (a Workflows "${…}" with parts not known statically): it matches no
	// component, rather than every one its glob would.
	Computed string
	// Unknown is the expression of a target not known statically (a
	// Terraform push endpoint from a variable): To names a placeholder.
	Unknown    string
	ToKind     Kind // expected kind of the target when known ("" = any)
	Kind       EdgeKind
	Pos        Pos    // where the call is written
	Step       string // workflow step name, if any
	Retries    int    // retries after the first attempt
	Unbounded  bool   // retries without limit (redelivery until retention)
	Predicate  Predicate
	Backoff    *Backoff
	Timeout    float64 // seconds the caller waits for one attempt; 0 = unknown
	TimeoutSet bool    // Timeout was written, not a default
	Awaits     bool    // the caller waits for the callee's outcome
	Caught     bool    // a failure of this call is handled by the caller
	RetryPos   Pos     // where the retry policy is written
	Note       string  // how the policy was derived, for messages
	// TaskTimeout and TaskCount override the called job's (jobs.run
	// overrides); 0 when not overridden.
	TaskTimeout float64
	TaskCount   int
	// Func names the Go function that reaches the callee (the topology
	// file's `func:`), read from the caller's `source:`.
	Func    string
	FuncPos Pos
	OnPos   Pos // where `on:` is written
	// FromCode: the policy was read from the caller's Go code; Layers are
	// its retry loops on this call, outermost first, and the policy
	// fields above are the innermost one's. Nested loops multiply.
	FromCode bool
	Layers   []CodeLayer
	// Method is the HTTP method of a workflow's http.* call ("POST");
	// StartsWork marks a call that starts an execution (jobs.run, a
	// workflow executions run or create): neither can be repeated safely.
	Method     string
	StartsWork bool
	// Raises, when not nil, is all the call step itself can raise whatever
	// the callee answers: an http.* call or a connector raises HttpError
	// only for a status of 400 or more, and connection and timeout errors.
	Raises Signals
	// Raised are the signals the caller raises itself inside the try
	// blocks around the call (raise: {code: 202}); its retry layers see
	// them whatever the callee answers.
	Raised Signals
	// Layers are the retry layers around the call, innermost first, when
	// try blocks with retry: nest (in one workflow or across subworkflow
	// calls): each re-runs its whole body, so the effective ones multiply.
	// Linking folds them into Retries and Predicate.
	Tries []RetryLayer
}

// RetryLayer is one try block with retry: around a call.
type RetryLayer struct {
	Retries   int
	Unbounded bool // no count known: assumed without limit
	Predicate Predicate
	Pos       Pos
	Backoff   *Backoff
	Note      string
}

// JobWorstDuration is the longest one task of the called job can take under
// this call's overrides.
func (e *Edge) JobWorstDuration() float64 {
	j := e.To.Job
	if j == nil {
		return 0
	}
	t := j.TaskTimeout
	if e.TaskTimeout > 0 {
		t = e.TaskTimeout
	}
	return float64(j.MaxRetries+1) * t
}

// Predicate is the set of failure signals a retry policy retries on.
type Predicate struct {
	Name    string  // e.g. "http.default_retry_predicate", a subworkflow name, or ""
	Signals Signals // what it matches
	Any     bool    // matches every signal
	Known   bool    // false: the predicate could not be read; assume Any
	Custom  bool    // written by the user (not a platform default)
}

// Matches reports whether the predicate retries on s.
func (p Predicate) Matches(s Signal) bool {
	if p.Any || !p.Known {
		return true
	}
	return p.Signals.Matches(s)
}

// MatchesAny reports whether the predicate retries on some signal of ss.
func (p Predicate) MatchesAny(ss Signals) bool {
	for _, s := range ss {
		if p.Matches(s) {
			return true
		}
	}
	return false
}

// Matched returns the signals of ss the predicate retries on.
func (p Predicate) Matched(ss Signals) Signals {
	var out Signals
	for _, s := range ss {
		if p.Matches(s) {
			out = append(out, s)
		}
	}
	return out
}

// String names the predicate for messages.
func (p Predicate) String() string {
	if p.Name != "" {
		return p.Name
	}
	if p.Any || !p.Known {
		return "any failure"
	}
	return "[" + p.Signals.String() + "]"
}

// JobSpec is what a Cloud Run job (or a Kubernetes job: backoffLimit) says
// about retries.
type JobSpec struct {
	MaxRetries        int
	MaxRetriesDefault bool // absent in the manifest: the platform default (3; Kubernetes 6)
	MaxRetriesPos     Pos
	// MaxRetriesNote, when set, says how MaxRetries was assumed, e.g.
	// "max_retries unknown, assumed default 3".
	MaxRetriesNote string
	TaskCount      int
	TaskTimeout    float64 // seconds per attempt
	TaskTimeoutPos Pos
	// Deadline is a Kubernetes job's activeDeadlineSeconds: how long the
	// whole job, its retries included, may run; 0 when none is set.
	Deadline float64
	Runs     string // the app it runs (topology file)
	RunsPos  Pos
	// Pods names the pods of a Kubernetes job that the topology file does
	// not give a runs: for, so its attempts (backoffLimit + 1) show.
	Pods string
}

// WorstDuration is the longest one task can take: (maxRetries+1) × timeout.
func (j *JobSpec) WorstDuration() float64 {
	return float64(j.MaxRetries+1) * j.TaskTimeout
}

// defaultJob is a job of kind k whose manifest says nothing of retries.
func defaultJob(k Kind, p Pos) *JobSpec {
	j := &JobSpec{MaxRetries: DefaultJobMaxRetries, MaxRetriesDefault: true,
		TaskCount: DefaultJobTaskCount, TaskTimeout: DefaultJobTaskTimeout,
		MaxRetriesPos: p, TaskTimeoutPos: p}
	if k == KindK8sJob {
		j.MaxRetries, j.TaskTimeout = DefaultK8sBackoffLimit, 0
	}
	return j
}

// RetryConfig is a Cloud Tasks queue's retry configuration: how often it
// dispatches a task again when the handler does not answer 2xx.
type RetryConfig struct {
	Retries    int  // dispatches after the first (maxAttempts - 1)
	Unbounded  bool // maxAttempts -1: until maxRetryDuration, if ever
	Default    bool // not written: the platform default of 100 attempts
	Pos        Pos
	MinBackoff float64
	MaxBackoff float64
	Note       string // how an unknown setting was assumed
}

// Delivery is what a subscription or trigger says about delivery.
type Delivery struct {
	Push   bool   // push (or trigger to an HTTP destination); false: pull
	PushTo string // target component name
	// PushToUnknown is the expression of a push endpoint not known
	// statically (a Terraform variable): PushTo then names a placeholder.
	PushToUnknown       string
	PushToPos           Pos
	Endpoint            string // push endpoint URL
	DeadLetter          bool   // a dead-letter policy exists
	DeadLetterPos       Pos
	MaxDeliveryAttempts int // deliveries in all when DeadLetter
	RetryPolicy         bool
	MinBackoff          float64
	MaxBackoff          float64
	Retention           float64
	AckDeadline         float64
	SingleAttempt       bool // Eventarc retryPolicy.maxAttempts: 1
	AckAtStart          bool // destination acknowledges when it starts (Workflows)
	Eventarc            bool
}

// WorkflowInfo is what the Workflows source says about failing and notifying.
type WorkflowInfo struct {
	FailPaths     []FailPath
	Notifications []Notification
	Params        []string
	// Approximate says which analysis bound the source hit (subworkflow
	// calls nested too deep, too many paths), at ApproxPos; "" when none.
	Approximate string
	ApproxPos   Pos
}

// FailPath is a way an execution ends FAILED.
type FailPath struct {
	Pos    Pos
	Reason string
	Steps  []string
	Kind   string // raise, re-raise, call-error, unassigned-read
}

// Notification is a report to an outside system (e.g. a SAGA coordinator).
type Notification struct {
	Pos        Pos
	Step       string
	URL        string
	BeforeFail bool // sent on a path that then fails the execution
}

// Component is something that runs.
type Component struct {
	pipeline string // see loader.pipelineOf
	Name     string
	Kind     Kind
	Pos      Pos      // where it is declared (its name)
	Files    []string // manifests that describe it
	Emits    Signals  // what it reports upward when it gives up
	EmitsSet bool     // Emits was declared
	EmitsPos Pos
	Calls    []*Call
	Job      *JobSpec
	Delivery *Delivery
	Retry    *RetryConfig // a Cloud Tasks queue's retries
	Workflow *WorkflowInfo
	Timeout  float64 // request timeout of a service, seconds; 0 = unknown
	Source   string  // Go package patterns of an app (topology file)
	// SourcePos is where `source:` is written; SourceDir the directory
	// its patterns are relative to (the topology file's).
	SourcePos Pos
	SourceDir string
	// URL is an external API's address (topology file `url:`), Host its
	// host: a call to it without `func:` is matched to the code's calls
	// of URLs on that host.
	URL, Host string
	// Assumed: no manifest or declaration describes it; a reference created
	// it with its kind's defaults.
	Assumed bool
	// Overridden lists manifest fields the topology file replaced.
	Overridden []string
	// Declared: named in a topology file.
	Declared bool
	// MayNotExist says why the component may not exist (a Terraform
	// resource whose count or for_each is unknown or empty); "" when it does.
	MayNotExist string
}

// Edge is a linked call: From invokes To with From's retry policy.
type Edge struct {
	From, To *Component
	*Call
}

// Finding is a diagnostic produced while loading or linking (the rules
// package turns them into report findings).
type Finding struct {
	Rule      string
	Pos       Pos
	Message   string
	Component string
}

// A Skip is a file a run read and left out: of no known kind, a template, a
// file that does not parse and has no manifest shape, or one the
// configuration ignores.
type Skip struct {
	File string
	Why  string
}

// Why a file is skipped.
const (
	SkipUnknown      = "no known manifest kind"
	SkipTemplate     = "a template ({{ … }}), not a manifest"
	SkipNotYAML      = "not valid YAML and not shaped like a manifest"
	SkipIgnored      = "ignored by the configuration"
	SkipTerraform    = "Terraform with no resource retrylint reads"
	SkipTooLarge     = "larger than the size cap and not shaped like a manifest"
	SkipNotTerraform = "not valid Terraform and names no resource retrylint reads"
	SkipPatch        = "a patch a kustomization applies, not a manifest of its own"
)

// Graph is the linked model of one pipeline.
type Graph struct {
	// Pipeline names the pipeline: the directory of its topology file or
	// Terraform root module; "" for the rest of what was named.
	Pipeline   string
	Components []*Component // sorted by name
	Edges      []*Edge
	Out        map[*Component][]*Edge
	In         map[*Component][]*Edge
	Budget     int // 0: none declared
	BudgetPos  Pos
	Findings   []Finding // from loading and linking (unresolved-reference)
	Suppress   *Suppressions
	Skipped    []Skip // files read and left out, with why
	// Unfollowed lists what was met and not read, each "place: reason":
	// symbolic links in a directory walk (outside the paths named,
	// dangling), registry modules of no retry layer.
	Unfollowed []string
	byName     map[string]*Component
}

// Component returns the component named name, or nil.
func (g *Graph) Component(name string) *Component { return g.byName[name] }

// Roots returns the components nothing invokes, plus one member (the
// least name) of each cycle nothing outside invokes, sorted by name.
func (g *Graph) Roots() []*Component {
	var roots []*Component
	for _, c := range g.Components {
		if len(g.In[c]) == 0 {
			roots = append(roots, c)
		}
	}
	// Cycles that nothing outside reaches: take the least member.
	reached := map[*Component]bool{}
	stack := append([]*Component(nil), roots...)
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reached[c] {
			continue
		}
		reached[c] = true
		for _, e := range g.Out[c] {
			stack = append(stack, e.To)
		}
	}
	for _, c := range g.Components { // sorted: least name first
		if reached[c] {
			continue
		}
		roots = append(roots, c)
		stack = append(stack[:0], c)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if reached[x] {
				continue
			}
			reached[x] = true
			for _, e := range g.Out[x] {
				stack = append(stack, e.To)
			}
		}
	}
	sort.Slice(roots, func(i, j int) bool { return roots[i].Name < roots[j].Name })
	return roots
}

// EmitsTo returns the failure signals To reports to From over e: what the
// caller observes when the callee gives up (SPEC §3 defaults by kind).
func (e *Edge) EmitsTo() Signals {
	s := e.calleeEmits()
	if e.Call == nil {
		return s
	}
	if e.Raises != nil {
		var capped Signals
		for _, sig := range s {
			if sig == SigAny {
				capped = append(capped, e.Raises...)
				continue
			}
			if e.Raises.Matches(sig) {
				capped = append(capped, sig)
			}
		}
		s = capped.Normalize()
	}
	if len(e.Raised) > 0 {
		s = append(append(Signals(nil), s...), e.Raised...).Normalize()
	}
	return s
}

// calleeEmits is what e's callee reports to e's caller when it fails.
func (e *Edge) calleeEmits() Signals {
	c := e.To
	switch c.Kind {
	case KindJob:
		if e.Kind == EdgeDeliver || !e.Awaits {
			return nil // a start-only call: the job's outcome is not seen
		}
		s := Signals{SigOperationError}
		if c.Job != nil && e.Timeout > 0 && e.JobWorstDuration() > e.Timeout {
			s = append(s, SigTimeout)
		}
		return s.Normalize()
	case KindWorkflow:
		if !e.Awaits {
			return nil // acknowledged when the execution starts
		}
		if c.EmitsSet {
			return c.Emits
		}
		if c.Workflow != nil && len(c.Workflow.FailPaths) == 0 {
			return nil
		}
		return Signals{SigWorkflowFailed}
	case KindSink:
		if c.EmitsSet {
			return c.Emits
		}
		return nil
	case KindSubscription, KindTrigger, KindQueue, KindScheduler:
		return nil // deliverers acknowledge to their publisher
	}
	s := c.DefaultEmits()
	if e.Timeout > 0 && e.Kind != EdgeNotify {
		if d := WorstDuration(c); d > e.Timeout && !s.Has(SigTimeout) {
			s = append(s, SigTimeout).Normalize()
		}
	}
	return s
}

// DefaultEmits is what c reports when it gives up, ignoring the caller.
func (c *Component) DefaultEmits() Signals {
	if c.EmitsSet {
		return c.Emits
	}
	switch c.Kind {
	case KindExternal:
		return Signals{SigAny}
	case KindApp, KindK8sJob:
		return Signals{SigExitNonzero}
	case KindService:
		return Signals{SigHTTP5xx}
	case KindJob:
		return Signals{SigOperationError}
	case KindWorkflow:
		if c.Workflow != nil && len(c.Workflow.FailPaths) == 0 {
			return nil
		}
		return Signals{SigWorkflowFailed}
	}
	return nil
}

// WorstDuration is the longest c may take for one invocation, in seconds,
// from what is known of its own retries; 0 when unknown.
func WorstDuration(c *Component) float64 {
	if c.Job != nil {
		return c.Job.WorstDuration()
	}
	var worst float64
	for _, call := range c.Calls {
		if call.Timeout <= 0 || call.Unbounded || call.Kind == EdgeNotify {
			continue
		}
		d := float64(call.Retries+1) * call.Timeout
		d += BackoffTotal(call.Backoff, call.Retries)
		if d > worst {
			worst = d
		}
	}
	return worst
}

// BackoffTotal is the sum of the waits before retries 1..n.
func BackoffTotal(b *Backoff, n int) float64 {
	if b == nil || n <= 0 {
		return 0
	}
	var total float64
	d := b.Initial
	m := b.Multiplier
	if m < 1 {
		m = 1
	}
	for i := 0; i < n && i < 1000; i++ {
		w := d
		if b.Max > 0 && w > b.Max {
			w = b.Max
		}
		total += w
		d *= m
	}
	return total
}

// NewGraph builds a graph from components and edges (for tests and
// generated topologies); components are sorted by name.
func NewGraph(comps []*Component, edges []*Edge) *Graph {
	g := &Graph{Components: append([]*Component(nil), comps...), Edges: edges,
		Out: map[*Component][]*Edge{}, In: map[*Component][]*Edge{}, byName: map[string]*Component{}}
	sort.SliceStable(g.Components, func(i, j int) bool { return g.Components[i].Name < g.Components[j].Name })
	for _, c := range g.Components {
		g.byName[c.Name] = c
	}
	for _, e := range edges {
		g.Out[e.From] = append(g.Out[e.From], e)
		g.In[e.To] = append(g.In[e.To], e)
	}
	return g
}
