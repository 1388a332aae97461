package topology

import (
	"fmt"
	"math"
	"net/url"
	pathpkg "path"
	"sort"
	"strconv"
	"strings"

	"github.com/retrylint/retrylint/internal/lazyre"
)

// linker resolves names to components.
type linker struct {
	ld          *loader
	comps       []*Component
	byName      map[string][]*Component
	placeholder map[string]*Component
	findings    []Finding
	// probes counts the components resolveURL examines: the measure of
	// its work.
	probes int
}

func (lk *linker) add(c *Component) {
	lk.comps = append(lk.comps, c)
	lk.byName[c.Name] = append(lk.byName[c.Name], c)
}

// find returns the component named name, preferring kind k.
func (lk *linker) find(name string, k Kind) *Component {
	cands := lk.byName[name]
	for _, c := range cands {
		if k == "" || c.Kind == k {
			return c
		}
	}
	if len(cands) > 0 && k != KindJob && k != KindWorkflow {
		return cands[0]
	}
	return nil
}

// link merges the declarations, derives the edges and resolves names.
func (ld *loader) link() (*Graph, error) {
	lk := &linker{ld: ld, byName: map[string][]*Component{}, placeholder: map[string]*Component{},
		findings: append([]Finding(nil), ld.findings...)}
	qualifyWorkflowNames(ld.manifests)
	lk.findings = append(lk.findings, qualifyConflicts(ld.manifests, ld.named)...)
	for _, c := range ld.manifests {
		if prev := lk.find(c.Name, c.Kind); prev != nil && prev.Kind == c.Kind {
			if a, b := settings(prev), settings(c); a != b {
				return nil, errorf(c.Pos, "%s %s is declared again with other settings (first at %s): %s here, %s there; "+
					"if they are two environments or two designs, give each directory a topology file (each is then a pipeline of its own), "+
					"or leave one out with `ignore:` in .retrylint.yaml", c.Kind, c.Name, prev.Pos, b, a)
			}
			prev.Files = append(prev.Files, c.Files...)
			continue
		}
		lk.add(c)
	}
	declared := map[string]*decl{}
	for _, d := range ld.decls {
		if prev, ok := declared[d.name]; ok {
			return nil, errorf(d.pos, "component %s is declared twice (first at %s)", d.name, prev.pos)
		}
		declared[d.name] = d
		if err := lk.merge(d); err != nil {
			return nil, err
		}
	}
	for _, c := range append([]*Component(nil), lk.comps...) {
		// A Kubernetes job runs its pods: with no runs: from the topology
		// file, they are an app of their own, started backoffLimit+1 times
		// at worst.
		if j := c.Job; c.Kind == KindK8sJob && j != nil && j.Runs == "" && j.Pods != "" && lk.find(j.Pods, "") == nil {
			j.Runs, j.RunsPos = j.Pods, c.Pos
			lk.add(&Component{Name: j.Pods, Kind: KindApp, Pos: c.Pos, Files: c.Files})
		}
	}
	for _, c := range lk.comps {
		if err := lk.fromCode(c); err != nil {
			return nil, err
		}
		c.derive()
		if w := c.Workflow; w != nil && w.Approximate != "" && !c.Assumed {
			lk.findings = append(lk.findings, Finding{Rule: "unresolved-reference", Pos: w.ApproxPos, Component: c.Name,
				Message: fmt.Sprintf("workflow %s is read only in part: %s, so its calls, attempts and failure paths are a lower bound, not the worst case", c.Name, w.Approximate)})
		}
	}
	g := &Graph{Out: map[*Component][]*Edge{}, In: map[*Component][]*Edge{},
		Budget: ld.budget, BudgetPos: ld.budgetPos, Suppress: ld.supp,
		Skipped: ld.skipped, Unfollowed: ld.unfollowed, byName: map[string]*Component{}}
	comps := append([]*Component(nil), lk.comps...)
	for _, c := range comps {
		for _, call := range c.Calls {
			for _, t := range lk.resolve(c, call) {
				e := &Edge{From: c, To: t, Call: call}
				g.Edges = append(g.Edges, e)
			}
		}
	}
	// Disambiguate names shared by components of different kinds.
	for name, cs := range lk.byName {
		for _, c := range cs[1:] {
			c.Name = string(c.Kind) + "/" + name
		}
	}
	g.Components = lk.comps
	sort.SliceStable(g.Components, func(i, j int) bool { return g.Components[i].Name < g.Components[j].Name })
	for _, c := range g.Components {
		g.byName[c.Name] = c
	}
	sort.SliceStable(g.Edges, func(i, j int) bool {
		a, b := g.Edges[i], g.Edges[j]
		if a.From.Name != b.From.Name {
			return a.From.Name < b.From.Name
		}
		return a.To.Name < b.To.Name
	})
	for _, e := range g.Edges {
		if len(e.Tries) > 1 {
			foldLayers(e)
		}
		g.Out[e.From] = append(g.Out[e.From], e)
		g.In[e.To] = append(g.In[e.To], e)
	}
	g.Findings = lk.findings
	return g, nil
}

// qualifyWorkflowNames names each of the workflow sources that share a file
// stem (every demo of a repository in its own workflow.yaml) by its
// directory too, "cloud-run-jobs/workflow": they are different workflows,
// not one described twice.
func qualifyWorkflowNames(cs []*Component) {
	files := map[string]map[string]bool{}
	for _, c := range cs {
		if c.Kind == KindWorkflow && len(c.Files) > 0 {
			if files[c.Name] == nil {
				files[c.Name] = map[string]bool{}
			}
			files[c.Name][c.Files[0]] = true
		}
	}
	for _, c := range cs {
		if c.Kind != KindWorkflow || len(c.Files) == 0 || len(files[c.Name]) < 2 {
			continue
		}
		dir := pathpkg.Base(pathpkg.Dir(c.Files[0]))
		if dir == "." || dir == "/" || dir == ".." {
			continue
		}
		c.Name = dir + "/" + c.Name
	}
}

// qualifyConflicts keeps apart the manifests met in a directory walk that
// give one component different settings from different directories (the
// create and update fixtures of a samples repository, two environments
// without a topology file each): each is named by its directory too, and a
// warning says so — a reference to the bare name then matches neither. Two
// such manifests in one directory, or named on the command line, are left
// for link to refuse.
func qualifyConflicts(cs []*Component, named map[string]bool) []Finding {
	type key struct {
		kind Kind
		name string
	}
	groups := map[key][]*Component{}
	var order []key
	for _, c := range cs {
		if c.Kind == KindWorkflow || len(c.Files) == 0 {
			continue
		}
		k := key{c.Kind, c.Name}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], c)
	}
	var out []Finding
	for _, k := range order {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		dirs, conflict, walked := map[string]bool{}, false, true
		for _, c := range g {
			dirs[pathpkg.Dir(c.Files[0])] = true
			conflict = conflict || settings(c) != settings(g[0])
			walked = walked && !named[c.Files[0]]
		}
		if !conflict || !walked || len(dirs) < 2 {
			continue
		}
		// Each directory's declarations become one component of its own
		// name: copies in one directory merge, different ones there are
		// refused by link, naming that directory's pair.
		label := dirLabels(dirs)
		var where []string
		for _, c := range g {
			c.Name = label[pathpkg.Dir(c.Files[0])] + "/" + c.Name
			where = append(where, c.Pos.String())
		}
		for _, c := range g {
			out = append(out, Finding{Rule: "unresolved-reference", Pos: c.Pos, Component: c.Name,
				Message: fmt.Sprintf("%s %s is declared with different settings in %d directories (%s): checked as %d components named by their directory, and a reference to %s matches none of them; "+
					"a topology file in each directory makes each its own pipeline", k.kind, k.name, len(dirs), strings.Join(where, ", "), len(dirs), k.name)})
		}
	}
	return out
}

// dirLabels names each directory by its last element, or by its whole
// path when two share the last element (envs/a/prod, envs/b/prod).
func dirLabels(dirs map[string]bool) map[string]string {
	label, seen := map[string]string{}, map[string]int{}
	for d := range dirs {
		seen[pathpkg.Base(d)]++
	}
	for d := range dirs {
		label[d] = pathpkg.Base(d)
		if seen[label[d]] > 1 {
			label[d] = d
		}
	}
	return label
}

// settings renders what a component's manifest sets, to tell one resource
// described twice (a create and an export of the same job) from two
// different ones of one name.
func settings(c *Component) string {
	var b strings.Builder
	if j := c.Job; j != nil && c.Kind == KindK8sJob {
		deadline := "no activeDeadlineSeconds"
		if j.Deadline > 0 {
			deadline = "activeDeadlineSeconds " + secsText(j.Deadline)
		}
		fmt.Fprintf(&b, "backoffLimit %d, %s", j.MaxRetries, deadline)
	} else if j != nil {
		fmt.Fprintf(&b, "maxRetries %d, %d task(s), task timeout %s", j.MaxRetries, j.TaskCount, secsText(j.TaskTimeout))
	}
	if d := c.Delivery; d != nil {
		fmt.Fprintf(&b, "push %v to %q, dead-letter %v (%d deliveries), retry policy %v %s–%s, retention %s, ack deadline %s",
			d.Push, d.Endpoint+d.PushTo, d.DeadLetter, d.MaxDeliveryAttempts, d.RetryPolicy, secsText(d.MinBackoff), secsText(d.MaxBackoff),
			secsText(d.Retention), secsText(d.AckDeadline))
	}
	if r := c.Retry; r != nil {
		fmt.Fprintf(&b, "retries %d (unbounded %v)", r.Retries, r.Unbounded)
	}
	if c.Timeout > 0 {
		fmt.Fprintf(&b, "timeout %s", secsText(c.Timeout))
	}
	if b.Len() == 0 {
		return "no retry settings"
	}
	return b.String()
}

func secsText(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) + " s" }

// foldLayers turns the nested retry layers of a call into the edge's one
// policy: the product of the factors of the layers whose predicate matches
// what the call reports ((5+1)×(5+1) = 36 for two http.default_retry
// blocks), with the predicate of the innermost such layer. Layers that
// match nothing count 1 (the ineffective-retry-predicate rule reports each).
func foldLayers(e *Edge) {
	c := *e.Call
	c.Tries = append([]RetryLayer(nil), e.Tries...)
	e.Call = &c
	emitted := e.EmitsTo()
	product, n, first, unbounded := int64(1), 0, -1, false
	var terms []string
	for i, l := range c.Tries {
		if !l.Unbounded && l.Retries < 1 || len(emitted) == 0 || !l.Predicate.MatchesAny(emitted) {
			continue
		}
		n++
		if first < 0 {
			first = i
		}
		if l.Unbounded {
			unbounded = true
			terms = append(terms, "∞")
			continue
		}
		product *= int64(l.Retries) + 1
		if product > math.MaxInt32 {
			product = math.MaxInt32
		}
		terms = append(terms, fmt.Sprintf("(%d+1)", l.Retries))
	}
	if first < 0 {
		return // every layer is dead: the innermost stands for them
	}
	l := c.Tries[first]
	c.Retries, c.Unbounded, c.Predicate, c.RetryPos, c.Backoff, c.Note = int(product-1), unbounded, l.Predicate, l.Pos, l.Backoff, l.Note
	if unbounded {
		c.Retries = 0
	}
	if n > 1 {
		total := strconv.FormatInt(product, 10) + " attempts"
		if unbounded {
			total = "unbounded (a max_retries not known statically is assumed unbounded)"
		}
		c.Note = fmt.Sprintf("%d nested try blocks retry it: %s = %s", n, strings.Join(terms, "×"), total)
	}
}

// merge applies a topology file declaration to the manifest component of
// the same name, or creates the component.
func (lk *linker) merge(d *decl) error {
	c := lk.find(d.name, d.kind)
	if c == nil && d.kind != "" {
		if other := lk.find(d.name, ""); other != nil {
			return errorf(d.kindPos, "component %s: declared %s, but %s describes a %s", d.name, d.kind, strings.Join(other.Files, ", "), other.Kind)
		}
	}
	if c == nil {
		if d.kind == "" {
			return errorf(d.pos, "component %s: `kind:` is required (no manifest of that name was loaded)", d.name)
		}
		c = &Component{Name: d.name, Kind: d.kind, Pos: d.pos, Files: []string{d.file}}
		lk.add(c)
	} else {
		c.Files = append(c.Files, d.file)
	}
	c.Declared = true
	kind := c.Kind
	d.kind = kind
	if err := d.checkKindFields(); err != nil {
		return err
	}
	manifest := !c.Assumed && len(c.Files) > 1
	over := func(field string) {
		if manifest {
			c.Overridden = append(c.Overridden, fmt.Sprintf("%s (%s)", field, d.set[field]))
		}
	}
	if p, ok := d.set["source"]; ok {
		c.Source, c.SourcePos, c.SourceDir = d.c.Source, p, d.dir
	}
	if _, ok := d.set["url"]; ok {
		c.URL, c.Host = d.c.URL, d.c.Host
	}
	if _, ok := d.set["emits"]; ok {
		c.Emits, c.EmitsSet, c.EmitsPos = d.c.Emits, true, d.c.EmitsPos
		over("emits")
	}
	if dj := d.c.Job; dj != nil {
		if c.Job == nil {
			c.Job = defaultJob(kind, d.pos)
		}
		if p, ok := d.set["max_retries"]; ok {
			c.Job.MaxRetries, c.Job.MaxRetriesDefault, c.Job.MaxRetriesPos = dj.MaxRetries, false, p
			over("max_retries")
		}
		if _, ok := d.set["task_count"]; ok {
			c.Job.TaskCount = dj.TaskCount
			over("task_count")
		}
		if p, ok := d.set["task_timeout"]; ok {
			c.Job.TaskTimeout, c.Job.TaskTimeoutPos = dj.TaskTimeout, p
			over("task_timeout")
		}
		if _, ok := d.set["runs"]; ok {
			c.Job.Runs, c.Job.RunsPos = dj.Runs, dj.RunsPos
		}
	}
	if dd := d.c.Delivery; dd != nil {
		if c.Delivery == nil {
			c.Delivery = &Delivery{Retention: DefaultRetention, AckDeadline: DefaultAckDeadline}
			if kind == KindTrigger {
				c.Delivery.Eventarc, c.Delivery.Retention = true, DefaultEventarcRetention
				c.Delivery.RetryPolicy, c.Delivery.MinBackoff, c.Delivery.MaxBackoff = true, DefaultMinBackoff, DefaultMaxBackoff
			}
		}
		cd := c.Delivery
		if _, ok := d.set["push_to"]; ok {
			cd.Push, cd.PushTo, cd.PushToPos = true, dd.PushTo, dd.PushToPos
			cd.AckAtStart = false
			if kind == KindTrigger { // a declared destination replaces the manifest's
				c.Calls = nil
			}
			over("push_to")
		}
		if p, ok := d.set["max_delivery_attempts"]; ok {
			cd.DeadLetter, cd.DeadLetterPos, cd.MaxDeliveryAttempts = true, p, dd.MaxDeliveryAttempts
			cd.SingleAttempt = kind == KindTrigger && dd.MaxDeliveryAttempts == 1
			over("max_delivery_attempts")
		}
		if _, ok := d.set["retention"]; ok {
			cd.Retention = dd.Retention
			over("retention")
		}
		if _, ok := d.set["min_backoff"]; ok {
			cd.RetryPolicy, cd.MinBackoff = true, dd.MinBackoff
			if cd.MaxBackoff == 0 {
				cd.MaxBackoff = DefaultMaxBackoff
			}
			over("min_backoff")
		}
		if _, ok := d.set["max_backoff"]; ok {
			cd.RetryPolicy, cd.MaxBackoff = true, dd.MaxBackoff
			if cd.MinBackoff == 0 {
				cd.MinBackoff = DefaultMinBackoff
			}
			over("max_backoff")
		}
		if _, ok := d.set["ack_deadline"]; ok {
			cd.AckDeadline = dd.AckDeadline
			over("ack_deadline")
		}
	}
	c.Calls = append(c.Calls, d.calls...)
	return nil
}

// derive fills kind defaults and the edges implied by kind fields.
func (c *Component) derive() {
	switch c.Kind {
	case KindJob, KindK8sJob:
		if c.Job == nil {
			c.Job = defaultJob(c.Kind, c.Pos)
		}
		if c.Job.Runs != "" {
			pred := Predicate{Name: "maxRetries (per task)", Signals: Signals{SigExitNonzero, SigTimeout}, Known: true}
			if c.Kind == KindK8sJob {
				pred.Name = "backoffLimit (per job)"
			}
			c.Calls = append(c.Calls, &Call{To: c.Job.Runs, Kind: EdgeRuns, Pos: c.Job.RunsPos,
				Retries: c.Job.MaxRetries, RetryPos: c.Job.MaxRetriesPos, Awaits: true,
				Timeout: c.Job.TaskTimeout, TimeoutSet: c.Job.TaskTimeout > 0,
				Predicate: pred, Note: c.Job.MaxRetriesNote})
		}
	case KindQueue, KindScheduler:
		// A queue or a scheduler job delivers to an HTTP target and retries
		// when the target answers non-2xx.
		for _, call := range c.Calls {
			if call.Kind == EdgeCall {
				call.Kind, call.Awaits = EdgeDeliver, true
				if call.Predicate.Name == "" && call.Predicate.Any {
					call.Predicate.Name = "any non-2xx answer"
				}
			}
			if c.Kind == KindQueue && call.Kind == EdgeDeliver {
				c.queueCall(call)
			}
		}
	case KindSubscription, KindTrigger:
		d := c.Delivery
		if d == nil {
			d = &Delivery{Retention: DefaultRetention, AckDeadline: DefaultAckDeadline}
			c.Delivery = d
		}
		if d.DeadLetter && d.MaxDeliveryAttempts == 0 {
			d.MaxDeliveryAttempts = DefaultDeadLetterAttempts
		}
		if c.Kind == KindSubscription && d.Push {
			to, toKind := d.PushTo, Kind("")
			if to == "" {
				to = "url:" + d.Endpoint
			}
			c.Calls = append(c.Calls, &Call{To: to, ToKind: toKind, Kind: EdgeDeliver, Pos: d.PushToPos, Unknown: d.PushToUnknown})
		}
		for _, call := range c.Calls {
			if call.Kind != EdgeDeliver {
				continue
			}
			call.Predicate = Predicate{Name: "any non-2xx answer", Any: true, Known: true}
			call.Awaits = !d.AckAtStart
			call.RetryPos = c.Pos
			if d.DeadLetter {
				call.RetryPos = d.DeadLetterPos
			}
			switch {
			case d.SingleAttempt, d.AckAtStart:
				// Acknowledged at the execution start: a redelivery only
				// covers a start that failed, never an execution.
				call.Retries, call.Unbounded = 0, false
			case d.DeadLetter:
				call.Retries, call.Unbounded = d.MaxDeliveryAttempts-1, false
			default:
				call.Retries, call.Unbounded = 0, true
			}
			if c.Kind == KindSubscription {
				call.Timeout, call.TimeoutSet = d.AckDeadline, true
			}
			if d.RetryPolicy {
				call.Backoff = &Backoff{Initial: d.MinBackoff, Max: d.MaxBackoff, Multiplier: 2}
			}
		}
	}
}

// queueCall gives a queue's delivery its retry configuration: the queue's
// (default 100 attempts), unless the topology file gave the call retries; a
// task is dispatched again on any non-2xx answer unless the call says `on:`.
func (c *Component) queueCall(call *Call) {
	r := c.Retry
	if r == nil {
		r = &RetryConfig{Retries: DefaultQueueMaxAttempts - 1, Default: true, Pos: c.Pos,
			MinBackoff: DefaultQueueMinBackoff, MaxBackoff: DefaultQueueMaxBackoff}
		c.Retry = r
	}
	if !call.Predicate.Custom {
		call.Predicate = Predicate{Name: "any non-2xx answer", Any: true, Known: true}
	}
	if call.RetryPos.IsValid() {
		return // the topology file says how often
	}
	call.Retries, call.Unbounded, call.RetryPos = r.Retries, r.Unbounded, r.Pos
	if call.Backoff == nil {
		call.Backoff = &Backoff{Initial: r.MinBackoff, Max: r.MaxBackoff, Multiplier: 2, Pos: r.Pos}
	}
	if r.Note != "" {
		call.Note = r.Note
	}
}

// resolve finds the targets of a call; an unresolved name becomes a
// placeholder with its kind's defaults and an unresolved-reference finding.
func (lk *linker) resolve(from *Component, call *Call) []*Component {
	to := call.To
	if strings.HasPrefix(to, "url:") {
		return []*Component{lk.resolveURL(from, call, strings.TrimPrefix(to, "url:"))}
	}
	// A name computed at run time (call.Computed) could be any component
	// of its kind, or none: it is not matched.
	switch {
	case call.Computed != "":
	case strings.Contains(to, "*"):
		var out []*Component
		for _, c := range lk.comps {
			if c.Assumed || c == from || call.ToKind != "" && c.Kind != call.ToKind {
				continue
			}
			if ok, _ := pathpkg.Match(to, c.Name); ok {
				out = append(out, c)
			}
		}
		if len(out) > 0 {
			return out
		}
	default:
		if c := lk.find(to, call.ToKind); c != nil {
			return []*Component{c}
		}
	}
	kind := call.ToKind
	if kind == KindExternal && !strings.Contains(to, "*") {
		// An external API needs no manifest: it is what it is called.
		key := string(kind) + "\x00" + to
		if p := lk.placeholder[key]; p != nil {
			return []*Component{p}
		}
		c := &Component{Name: to, Kind: KindExternal, Pos: call.Pos, Files: []string{call.Pos.File}, Assumed: true}
		lk.placeholder[key] = c
		lk.add(c)
		return []*Component{c}
	}
	if kind == "" {
		switch call.Kind {
		case EdgeNotify:
			kind = KindSink
		case EdgeRuns:
			kind = KindApp
		default:
			kind = KindExternal
		}
	}
	return []*Component{lk.assume(from, call, to, kind)}
}

// resolveURL finds the component a push endpoint URL names.
func (lk *linker) resolveURL(from *Component, call *Call, raw string) *Component {
	host, isRun := runAppHost(raw)
	if isRun {
		if c := lk.find(runServiceName(host), KindService); c != nil && (c.Kind == KindService || c.Kind == KindApp) {
			return c
		}
		if c := lk.servicePrefixOf(host); c != nil {
			return c
		}
		return lk.assume(from, call, runServiceName(host), KindService)
	}
	if fn, ok := functionURLName(raw); ok {
		if c := lk.find(fn, KindService); c != nil && c.Kind == KindService {
			return c
		}
	}
	name := endpointName(raw)
	if c := lk.find(name, ""); c != nil {
		return c
	}
	if p := lk.placeholder[name]; p != nil {
		return p
	}
	c := &Component{Name: name, Kind: KindExternal, Pos: call.Pos, Files: []string{call.Pos.File}, Assumed: true}
	lk.placeholder[name] = c
	lk.add(c)
	return c
}

// servicePrefixOf finds the service or app with the longest name that
// begins host and ends before a "-" or "." of it (svc for
// svc-v2-x.a.run.app), the first declared of that name; nil when none. It
// looks each such beginning up by name rather than examining every
// component, so n push endpoints cost O(n), not O(n²).
func (lk *linker) servicePrefixOf(host string) *Component {
	for i := len(host) - 1; i >= 0; i-- {
		if host[i] != '-' && host[i] != '.' {
			continue
		}
		for _, c := range lk.byName[host[:i]] {
			lk.probes++
			if c.Kind == KindService || c.Kind == KindApp {
				return c
			}
		}
	}
	return nil
}

// functionURLName reads the function name of a 1st gen Cloud Functions URL,
// https://REGION-PROJECT.cloudfunctions.net/NAME.
func functionURLName(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || !strings.HasSuffix(u.Hostname(), ".cloudfunctions.net") {
		return "", false
	}
	name, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	return name, name != ""
}

// assume creates (once) a placeholder component and reports the reference.
func (lk *linker) assume(from *Component, call *Call, name string, kind Kind) *Component {
	what := describeRef(from, call)
	ref := fmt.Sprintf("%q, which matches no loaded component", name)
	switch {
	case call.Computed != "":
		ref = fmt.Sprintf("a name computed at run time, %s, which matches no component", call.Computed)
	case call.Unknown != "":
		ref = fmt.Sprintf("an endpoint not known statically, %s, which matches no component", call.Unknown)
	}
	lk.findings = append(lk.findings, Finding{
		Rule:      "unresolved-reference",
		Pos:       call.Pos,
		Component: from.Name,
		Message: fmt.Sprintf("%s %s; assumed %s %s with its defaults (%s)",
			what, ref, article(string(kind)), kind, KindDefaults(kind)),
	})
	key := string(kind) + "\x00" + name
	if p := lk.placeholder[key]; p != nil {
		return p
	}
	c := &Component{Name: name, Kind: kind, Pos: call.Pos, Files: []string{call.Pos.File}, Assumed: true}
	c.derive()
	lk.placeholder[key] = c
	lk.add(c)
	return c
}

func describeRef(from *Component, call *Call) string {
	switch call.Kind {
	case EdgeDeliver:
		return fmt.Sprintf("%s %s delivers to", from.Kind, from.Name)
	case EdgeNotify:
		return fmt.Sprintf("%s %s notifies", from.Kind, from.Name)
	case EdgeRuns:
		return fmt.Sprintf("job %s runs", from.Name)
	}
	if call.Step != "" {
		return fmt.Sprintf("%s %s (step %s) calls", from.Kind, from.Name, call.Step)
	}
	return fmt.Sprintf("%s %s calls", from.Kind, from.Name)
}

// KindDefaults describes what is assumed of a component of kind k that no
// manifest describes.
func KindDefaults(k Kind) string {
	switch k {
	case KindJob:
		return "maxRetries 3 per task, task timeout 600 s, 1 task"
	case KindService:
		return "answers http-5xx when it fails"
	case KindWorkflow:
		return "may end FAILED: emits workflow-failed"
	case KindApp:
		return "exits non-zero when it fails"
	case KindExternal:
		return "may fail with any signal"
	case KindSink:
		return "receives notifications, emits nothing"
	case KindSubscription:
		return "pull, no dead-letter policy"
	case KindTrigger:
		return "redelivery for up to 24 h"
	case KindQueue:
		return "100 attempts per task"
	case KindScheduler:
		return "retryCount 0"
	case KindK8sJob:
		return "backoffLimit 6"
	}
	return "no retries"
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

var (
	runAppHashed  = lazyre.New(`^(.+)-[a-z0-9]{6,12}-[a-z]{2,4}$`) // NAME-HASH-REGION.a.run.app
	runAppProject = lazyre.New(`^(.+)-[0-9]+$`)                    // NAME-PROJECTNUMBER.REGION.run.app
)

// runServiceName guesses a Cloud Run service's name from its run.app host.
func runServiceName(host string) string {
	label := host
	if i := strings.Index(host, "."); i > 0 {
		label = host[:i]
	}
	if strings.HasSuffix(host, ".a.run.app") {
		if m := runAppHashed.FindStringSubmatch(label); m != nil {
			return m[1]
		}
	} else if m := runAppProject.FindStringSubmatch(label); m != nil {
		return m[1]
	}
	return label
}
