package topology

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/retrylint/retrylint/internal/input"
	"github.com/retrylint/retrylint/internal/lazyre"
	"github.com/retrylint/retrylint/topology/terraform"
	"github.com/retrylint/retrylint/topology/workflows"
)

// terraformFile reports whether name is a Terraform configuration file: .tf,
// or .tf.json in Terraform's JSON syntax (another .json file is not).
func terraformFile(name string) bool {
	return strings.EqualFold(filepath.Ext(name), ".tf") || strings.HasSuffix(strings.ToLower(name), ".tf.json")
}

// addTerraform records a .tf or .tf.json file: the files of one directory are one module,
// read together once every input has been walked.
func (ld *loader) addTerraform(abs string, named bool) {
	if named {
		if ld.tfNamed == nil {
			ld.tfNamed = map[string]bool{}
		}
		ld.tfNamed[abs] = true
	}
	dir := filepath.Dir(abs)
	if ld.tfFiles == nil {
		ld.tfFiles = map[string][]string{}
	}
	if _, ok := ld.tfFiles[dir]; !ok {
		ld.tfDirs = append(ld.tfDirs, dir)
	}
	ld.tfFiles[dir] = append(ld.tfFiles[dir], abs)
	ld.countRead()
}

// markdownFence matches a Markdown code fence at the start of a line: a
// .tf file holding one is documentation with HCL in it, not a module.
var markdownFence = lazyre.New("(?m)^```")

// loadModule reads the module of files. When one met in a directory walk
// does not parse and is not recognisably Terraform of a retry layer (it
// names no resource type retrylint reads, or it is Markdown: a generated
// sample with code fences around its HCL), it is skipped and counted and
// the rest is read again; nil when nothing is left. A named file, or a
// broken one naming such a resource, is an error at the place it breaks.
// Files are read a second time only on an error.
func (ld *loader) loadModule(files []string, budget *terraform.Budget) (*terraform.Module, error) {
	sort.Strings(files)
	for len(files) > 0 {
		m, err := terraform.Load(files, terraform.Options{Roots: ld.tfRoots(), MaxFileSize: ld.opts.MaxFileSize, Display: ld.display, Budget: budget})
		var te *terraform.Error
		if err == nil || !errors.As(err, &te) {
			return m, err
		}
		i := slices.IndexFunc(files, func(abs string) bool { return ld.display(abs) == te.Pos.File })
		if i < 0 || ld.tfNamed[files[i]] {
			return nil, terraformError(err)
		}
		data, rerr := input.Read(files[i], ld.opts.MaxFileSize)
		if rerr != nil || terraform.CheckSyntax(te.Pos.File, data) == nil {
			return nil, terraformError(err) // not a syntax error: Terraform refuses the module
		}
		if terraform.NamesResourceType(data) && !markdownFence.Regexp().Match(data) {
			ie := terraformError(err).(*InputError)
			return nil, &InputError{Pos: ie.Pos, Msg: ie.Msg + ignoreHint}
		}
		ld.skip(te.Pos.File, SkipNotTerraform)
		files = slices.Delete(slices.Clone(files), i, i+1)
	}
	return nil, nil
}

// tfRoots are where Terraform may read file(), templatefile() and local
// module sources from: the paths named, and the repository each lies in
// (the nearest directory above it with a .git), so that naming one module
// directory still reads the workflow sources beside it in the repository.
func (ld *loader) tfRoots() []string {
	roots := append([]string(nil), ld.roots...)
	seen := map[string]bool{}
	for _, r := range ld.roots {
		for dir := r; ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
				if !seen[dir] {
					seen[dir] = true
					roots = append(roots, dir)
				}
				break
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return roots
}

// loadTerraform reads the recorded modules. A module that another one calls
// is read only through that call, with its inputs. The reads share one
// budget: what one run may take is bounded, however many modules it holds.
func (ld *loader) loadTerraform() error {
	var mods []*terraform.Module
	called := map[string]bool{}
	budget := &terraform.Budget{}
	for _, dir := range ld.tfDirs {
		m, err := ld.loadModule(ld.tfFiles[dir], budget)
		if err != nil {
			return err
		}
		if m == nil {
			continue
		}
		mods = append(mods, m)
		for _, d := range m.ModuleDirs {
			called[d] = true
		}
	}
	read := map[string]bool{}
	for _, m := range mods {
		if called[m.Dir] {
			continue
		}
		before := len(ld.manifests)
		if err := ld.terraformModule(m); err != nil {
			return err
		}
		p := ld.tfPipeline(m.Dir)
		ld.tag(ld.manifests[before:], p)
		for _, f := range append(append([]string(nil), m.Files...), m.ReadFiles()...) {
			ld.fileIn(f, p)
		}
		for _, f := range m.ReadFiles() {
			read[f] = true
		}
	}
	ld.dropSources(read)
	return nil
}

// dropSources removes the workflows loaded on their own from files that a
// Terraform workflow reads as its source (file(), templatefile()): the
// resource is that workflow, and a template read raw would call "${job}".
func (ld *loader) dropSources(read map[string]bool) {
	if len(read) == 0 {
		return
	}
	kept := ld.manifests[:0]
	for _, c := range ld.manifests {
		if c.Kind == KindWorkflow && len(c.Files) == 1 && read[c.Files[0]] {
			continue
		}
		kept = append(kept, c)
	}
	ld.manifests = kept
}

func terraformError(err error) error {
	var te *terraform.Error
	if errors.As(err, &te) {
		return &InputError{Pos: tfPos(te.Pos), Msg: te.Msg}
	}
	return err
}

func tfPos(p terraform.Pos) Pos { return Pos{File: p.File, Line: p.Line, Col: p.Col} }

// retryingModule matches the source of a module not followed (registry,
// git, or a local directory that is missing) whose name says it deploys a
// retry layer retrylint reads (terraform-google-modules/
// pubsub/google, …/cloud-run/google, a "workflows" module): one it cannot
// follow hides that layer, so it stays a finding.
var retryingModule = lazyre.New(`(?i)(pub-?sub|cloud-?run|workflows?|eventarc|cloud-?tasks|tasks-queue|scheduler|functions?|run-?job)`)

// terraformModule turns the resources of one module into components.
func (ld *loader) terraformModule(m *terraform.Module) error {
	for _, n := range m.Notes {
		if n.Module != "" && !retryingModule.Regexp().MatchString(n.Module) {
			// A module for projects, networks or IAM not followed (from a
			// registry, or a local directory that is missing): listed
			// under --verbose, not a finding on every run.
			ld.unfollowed = append(ld.unfollowed, tfPos(n.Pos).String()+": Terraform: "+n.Msg)
			continue
		}
		ld.findings = append(ld.findings, Finding{Rule: "unresolved-reference", Pos: tfPos(n.Pos),
			Message: "Terraform: " + n.Msg})
	}
	if len(m.Resources) == 0 {
		for _, f := range m.Files {
			ld.skip(f, SkipTerraform)
		}
	}
	tm := &tfMapper{ld: ld, mod: m, targets: map[string]tfTarget{}}
	for _, r := range m.Resources {
		name, _ := tfName(r)
		switch r.Type {
		case "google_cloud_run_v2_job":
			tm.targets[r.Address] = tfTarget{name, KindJob}
		case "google_cloud_run_v2_service", "google_cloud_run_service",
			"google_cloudfunctions_function", "google_cloudfunctions2_function":
			tm.targets[r.Address] = tfTarget{name, KindService}
		case "google_workflows_workflow":
			tm.targets[r.Address] = tfTarget{name, KindWorkflow}
		}
	}
	for _, r := range m.Resources {
		comps, err := tm.resource(r)
		if err != nil {
			return err
		}
		why := mayNotExist(r)
		for _, c := range comps {
			if len(c.Files) == 0 {
				c.Files = []string{r.Pos.File}
			}
			c.MayNotExist = why
			ld.manifests = append(ld.manifests, c)
		}
	}
	// Suppressions: the configuration files and the files the mapping read
	// through file() and templatefile().
	for _, f := range append(append([]string(nil), m.Files...), m.ReadFiles()...) {
		ld.supp.scan(f, m.Text(f))
	}
	return terraformError(m.Err()) // an evaluation past the caps made what followed unknown
}

// tfTarget is the component a resource address stands for.
type tfTarget struct {
	name string
	kind Kind
}

// tfMapper maps the resources of one module.
type tfMapper struct {
	ld      *loader
	mod     *terraform.Module
	targets map[string]tfTarget // by resource address
}

// tfName names a resource's component: its `name` argument (last segment),
// with Wildcard for unknown parts; the resource address when nothing of the
// name is known.
// mayNotExist says why a resource with count or for_each may not exist:
// the value is not known statically, or it is 0 or empty; "" when it does.
func mayNotExist(r *terraform.Resource) string {
	if !r.Repeated {
		return ""
	}
	for _, arg := range []string{"count", "for_each"} {
		v := r.Attr(arg)
		if v == nil {
			continue
		}
		n, ok := v.Len()
		switch {
		case !ok:
			return fmt.Sprintf("%s has %s not known statically: it may not exist", r.Address, arg)
		case n == 0:
			return fmt.Sprintf("%s has %s = %s: it does not exist as written", r.Address, arg, map[string]string{"count": "0", "for_each": "an empty collection"}[arg])
		}
	}
	return ""
}

func tfName(r *terraform.Resource) (string, Pos) {
	if v := r.NameArg(); v != nil && strings.Trim(v.Pattern, terraform.Wildcard+"/") != "" {
		return lastSegment(v.Pattern), tfPos(v.Pos)
	}
	return r.Address, tfPos(r.Pos)
}

// resource maps one resource; topics give no component.
func (tm *tfMapper) resource(r *terraform.Resource) ([]*Component, error) {
	name, pos := tfName(r)
	switch r.Type {
	case "google_cloud_run_v2_job":
		c, err := tm.job(r, name, pos)
		return []*Component{c}, err
	case "google_cloud_run_v2_service":
		c := &Component{Name: name, Kind: KindService, Pos: pos}
		c.Timeout = tm.seconds(r, "template.timeout", 0)
		return []*Component{c}, nil
	case "google_cloud_run_service":
		c := &Component{Name: name, Kind: KindService, Pos: pos}
		c.Timeout = tm.seconds(r, "template.spec.timeout_seconds", 0)
		return []*Component{c}, nil
	case "google_workflows_workflow":
		c, err := tm.workflow(r, name, pos)
		return []*Component{c}, err
	case "google_eventarc_trigger":
		c, err := tm.trigger(r, name, pos)
		return []*Component{c}, err
	case "google_pubsub_subscription":
		c, err := tm.subscription(r, name, pos)
		return []*Component{c}, err
	case "google_cloud_scheduler_job":
		c, err := tm.scheduler(r, name, pos)
		return []*Component{c}, err
	case "google_cloud_tasks_queue":
		c, err := tm.queue(r, name, pos)
		return []*Component{c}, err
	case "google_cloudfunctions_function", "google_cloudfunctions2_function":
		return tm.function(r, name, pos)
	}
	return nil, nil
}

// tfInt is an integer argument as read.
type tfInt struct {
	v       int
	pos     Pos
	written bool // a known value is written
	unknown bool // written, but not known statically: v is the worst value
}

// tfWorst is what an integer argument not known statically is taken as: its
// worst value, and the words that say so.
type tfWorst struct {
	v    int
	says string
}

// integer reads an integer argument in [lo, hi]; absent or null gives def
// (the platform's default); a value not known statically gives the worst
// value and an unresolved-reference finding that says so.
func (tm *tfMapper) integer(r *terraform.Resource, comp, path string, def, lo, hi int, worst tfWorst) (tfInt, error) {
	v := r.Attr(path)
	if v == nil || v.IsNull() {
		return tfInt{v: def}, nil
	}
	out := tfInt{v: def, pos: tfPos(v.Pos)}
	if !v.Known {
		out.v, out.unknown = worst.v, true
		tm.unknown(r, comp, v, "unknown, assumed "+worst.says)
		return out, nil
	}
	n, ok := v.Int()
	if !ok {
		return out, &InputError{Pos: tfPos(v.ExprPos), Msg: fmt.Sprintf("%s: expected an integer, got %q", path, v.Pattern)}
	}
	if n < int64(lo) || n > int64(hi) {
		return out, &InputError{Pos: tfPos(v.ExprPos), Msg: fmt.Sprintf("%s: expected %d to %d, got %d", path, lo, hi, n)}
	}
	out.v, out.written = int(n), true
	return out, nil
}

// unknown reports a retry setting that is not known statically.
func (tm *tfMapper) unknown(r *terraform.Resource, comp string, v *terraform.Value, assumed string) {
	tm.ld.findings = append(tm.ld.findings, Finding{Rule: "unresolved-reference", Pos: tfPos(v.Pos), Component: comp,
		Message: fmt.Sprintf("%s of %s is not known statically (a variable without default, a data source or a computed attribute): %s",
			v.Path, r.Address, assumed)})
}

// seconds reads a duration argument; absent, null or unknown gives def.
func (tm *tfMapper) seconds(r *terraform.Resource, path string, def float64) float64 {
	v := r.Attr(path)
	if v == nil {
		return def
	}
	if d, ok := v.Seconds(); ok && d > 0 {
		return d
	}
	return def
}

// target names the component an argument refers to: a referenced resource
// of one of kinds, else the argument's text (last segment), else a name
// that says what was not known.
func (tm *tfMapper) target(r *terraform.Resource, v *terraform.Value, kinds ...Kind) (string, Kind) {
	for _, ref := range v.Refs {
		t, ok := tm.targets[ref]
		if !ok {
			continue
		}
		for _, k := range kinds {
			if t.kind == k {
				return t.name, k
			}
		}
	}
	k := Kind("")
	if len(kinds) > 0 {
		k = kinds[0]
	}
	if s := lastSegment(v.Pattern); strings.Trim(s, terraform.Wildcard) != "" {
		return s, k
	}
	return r.Address + "." + v.Path, k
}

func (tm *tfMapper) job(r *terraform.Resource, name string, pos Pos) (*Component, error) {
	c := &Component{Name: name, Kind: KindJob, Pos: pos}
	j := defaultJob(KindJob, pos)
	mr, err := tm.integer(r, name, "template.template.max_retries", DefaultJobMaxRetries, 0, 10, tfWorst{10, "10, the most (the worst case)"})
	if err != nil {
		return nil, err
	}
	switch {
	case mr.written:
		j.MaxRetries, j.MaxRetriesDefault, j.MaxRetriesPos = mr.v, false, mr.pos
	case mr.unknown:
		j.MaxRetries, j.MaxRetriesDefault = mr.v, false
		j.MaxRetriesPos, j.MaxRetriesNote = mr.pos, "max_retries unknown, assumed 10 (the worst case)"
	}
	if v := r.Attr("template.template.timeout"); v != nil {
		if d, ok := v.Seconds(); ok && d > 0 {
			j.TaskTimeout, j.TaskTimeoutPos = d, tfPos(v.Pos)
		}
	}
	tc, err := tm.integer(r, name, "template.task_count", DefaultJobTaskCount, 0, 1<<20, tfWorst{DefaultJobTaskCount, "the default 1"})
	if err != nil {
		return nil, err
	}
	if tc.v > 0 {
		j.TaskCount = tc.v
	}
	c.Job = j
	return c, nil
}

// workflow reads source_contents with the Workflows analysis; positions map
// back into the .tf file (or the file that file()/templatefile() read).
func (tm *tfMapper) workflow(r *terraform.Resource, name string, pos Pos) (*Component, error) {
	src := r.Source("source_contents")
	if src == nil || !src.Known {
		c := &Component{Name: name, Kind: KindWorkflow, Pos: pos}
		why := "no source_contents"
		if src != nil {
			why = src.Note
		}
		tm.ld.findings = append(tm.ld.findings, Finding{Rule: "unresolved-reference", Pos: pos, Component: name,
			Message: fmt.Sprintf("the source of workflow %s (%s) is not known statically (%s); assumed it may end FAILED", name, r.Address, why)})
		return c, nil
	}
	doc, err := workflows.Decode(src.File, []byte(src.Text))
	if err != nil {
		return nil, workflowError(err, src)
	}
	wf, err := workflows.ParseNode(src.File, doc, 0, 0)
	if err != nil {
		return nil, workflowError(err, src)
	}
	mapWorkflow(wf, src)
	c := workflowComponent(src.File, name, wf)
	c.Pos = pos
	c.Files = []string{pos.File}
	if src.File != pos.File {
		c.Files = append(c.Files, src.File)
	}
	return c, nil
}

func workflowError(err error, src *terraform.Source) error {
	var we *workflows.Error
	if errors.As(err, &we) {
		return &InputError{Pos: tfPos(src.Map(we.Pos.Line, we.Pos.Col)), Msg: we.Msg}
	}
	return &InputError{Pos: tfPos(src.Pos), Msg: err.Error()}
}

// mapWorkflow moves every position of wf from the source text into the file
// that holds it.
func mapWorkflow(wf *workflows.Workflow, src *terraform.Source) {
	done := map[*workflows.Pos]bool{}
	m := func(p *workflows.Pos) {
		if p.Line <= 0 || done[p] {
			return
		}
		done[p] = true
		q := src.Map(p.Line, p.Col)
		p.File, p.Line, p.Col = q.File, q.Line, q.Col
	}
	m(&wf.Pos)
	for i := range wf.FailPaths {
		m(&wf.FailPaths[i].Pos)
	}
	for i := range wf.DoubleFaultPaths {
		m(&wf.DoubleFaultPaths[i].Pos)
	}
	for i := range wf.Notifications {
		m(&wf.Notifications[i].Pos)
	}
	for i := range wf.ParamReads {
		m(&wf.ParamReads[i].Pos)
	}
	for _, c := range wf.Calls {
		m(&c.Pos)
		m(&c.Target.Pos)
		if c.Retry != nil {
			m(&c.Retry.Pos)
			if c.Retry.Backoff != nil {
				m(&c.Retry.Backoff.Pos)
			}
		}
	}
}

func (tm *tfMapper) trigger(r *terraform.Resource, name string, pos Pos) (*Component, error) {
	c := &Component{Name: name, Kind: KindTrigger, Pos: pos}
	c.Delivery = &Delivery{Eventarc: true, Retention: DefaultEventarcRetention,
		RetryPolicy: true, MinBackoff: DefaultMinBackoff, MaxBackoff: DefaultMaxBackoff}
	if v := r.Attr("retry_policy.max_attempts"); v != nil && !v.IsNull() {
		if !v.Known {
			tm.unknown(r, name, v, "unknown, assumed default: redelivery for up to 24 h")
		} else if n, ok := v.Int(); !ok || n != 1 {
			return nil, &InputError{Pos: tfPos(v.ExprPos), Msg: fmt.Sprintf("retry_policy.max_attempts: expected 1 (the only valid value), got %s", v.Pattern)}
		} else {
			c.Delivery.SingleAttempt = true
		}
	}
	switch {
	case r.Attr("destination.workflow") != nil:
		v := r.Attr("destination.workflow")
		to, _ := tm.target(r, v, KindWorkflow)
		setDestination(c, KindWorkflow, to, tfPos(v.Pos))
	case r.Attr("destination.cloud_run_service.service") != nil:
		v := r.Attr("destination.cloud_run_service.service")
		to, _ := tm.target(r, v, KindService)
		setDestination(c, KindService, to, tfPos(v.Pos))
	case r.Attr("destination.cloud_function") != nil:
		v := r.Attr("destination.cloud_function")
		to, _ := tm.target(r, v, KindService)
		setDestination(c, KindService, to, tfPos(v.Pos))
	case r.Attr("destination.http_endpoint.uri") != nil:
		v := r.Attr("destination.http_endpoint.uri")
		setDestination(c, KindExternal, endpointName(v.Pattern), tfPos(v.Pos))
	case r.Attr("destination.gke.service") != nil:
		v := r.Attr("destination.gke.service")
		setDestination(c, KindExternal, "gke:"+v.Pattern, tfPos(v.Pos))
	}
	return c, nil
}

func (tm *tfMapper) subscription(r *terraform.Resource, name string, pos Pos) (*Component, error) {
	c := &Component{Name: name, Kind: KindSubscription, Pos: pos}
	d := &Delivery{Retention: DefaultRetention, AckDeadline: DefaultAckDeadline}
	c.Delivery = d
	if v := tm.seconds(r, "ack_deadline_seconds", 0); v > 0 {
		d.AckDeadline = v
	}
	if v := tm.seconds(r, "message_retention_duration", 0); v > 0 {
		d.Retention = v
	}
	if r.BlockAt("retry_policy") != nil {
		d.RetryPolicy = true
		d.MinBackoff = tm.seconds(r, "retry_policy.minimum_backoff", DefaultMinBackoff)
		d.MaxBackoff = tm.seconds(r, "retry_policy.maximum_backoff", DefaultMaxBackoff)
	}
	if b := r.BlockAt("dead_letter_policy"); b != nil && b.MayBeAbsent {
		// A dead-letter policy ends redelivery: one that may be absent is
		// taken as absent, the worst case.
		tm.ld.findings = append(tm.ld.findings, Finding{Rule: "unresolved-reference", Pos: tfPos(b.Pos), Component: name,
			Message: fmt.Sprintf("dead_letter_policy of %s is a dynamic block whose for_each may be empty or is not known statically: it may be absent, and is taken as absent (the worst case)", r.Address)})
	} else if b != nil && b.Attr("dead_letter_topic") != nil {
		d.DeadLetter, d.DeadLetterPos = true, tfPos(b.Pos)
		n, err := tm.integer(r, name, "dead_letter_policy.max_delivery_attempts", DefaultDeadLetterAttempts, 0, 100, tfWorst{100, "100, the most (the worst case)"})
		if err != nil {
			return nil, err
		}
		d.MaxDeliveryAttempts = n.v
		if n.v == 0 {
			d.MaxDeliveryAttempts = DefaultDeadLetterAttempts
		}
	}
	if v := r.Attr("push_config.push_endpoint"); v != nil && !v.IsNull() && v.Pattern != "" {
		d.Push, d.Endpoint, d.PushToPos = true, v.Pattern, tfPos(v.Pos)
		if to, _ := tm.target(r, v, KindService); tm.resolved(v, KindService) {
			d.PushTo = to
		} else if strings.Contains(v.Pattern, terraform.Wildcard) {
			d.PushTo = r.Address + ".push_config.push_endpoint"
			d.PushToUnknown = v.Expr
			if d.PushToUnknown == "" {
				d.PushToUnknown = v.Pattern
			}
		}
	}
	return c, nil
}

// resolved reports whether v refers to a component of one of kinds.
func (tm *tfMapper) resolved(v *terraform.Value, kinds ...Kind) bool {
	for _, ref := range v.Refs {
		if t, ok := tm.targets[ref]; ok {
			for _, k := range kinds {
				if t.kind == k {
					return true
				}
			}
		}
	}
	return false
}

// scheduler reads a Cloud Scheduler job as readScheduler does: retry_count
// (default 0) re-sends when the target does not answer 2xx; a Workflows
// executions or Cloud Run jobs:run target only acknowledges the start.
func (tm *tfMapper) scheduler(r *terraform.Resource, name string, pos Pos) (*Component, error) {
	c := &Component{Name: name, Kind: KindScheduler, Pos: pos}
	call := &Call{Kind: EdgeDeliver, Pos: pos, RetryPos: pos,
		Predicate: Predicate{Name: "any non-2xx answer", Any: true, Known: true},
		Timeout:   DefaultSchedulerAttemptDeadline}
	n, err := tm.integer(r, name, "retry_config.retry_count", 0, 0, 5, tfWorst{5, "5, the most (the worst case)"})
	if err != nil {
		return nil, err
	}
	call.Retries = n.v
	if n.written || n.unknown {
		call.RetryPos = n.pos
	}
	if n.unknown {
		call.Note = "retry_count unknown, assumed 5 (the worst case)"
	}
	if d := tm.seconds(r, "attempt_deadline", 0); d > 0 {
		call.Timeout, call.TimeoutSet = d, true
	}
	v := r.Attr("http_target.uri")
	if v == nil || v.IsNull() {
		return c, nil // a Pub/Sub or App Engine target: nothing invoked that we model
	}
	call.Pos = tfPos(v.Pos)
	uri := v.Pattern
	switch {
	case tm.resolved(v, KindJob):
		call.To, call.ToKind = tm.target(r, v, KindJob)
	case tm.resolved(v, KindWorkflow):
		call.To, call.ToKind = tm.target(r, v, KindWorkflow)
	case tm.resolved(v, KindService):
		call.To, call.ToKind = tm.target(r, v, KindService)
		call.Awaits = true
	case runJobURL.MatchString(uri):
		call.To, call.ToKind = runJobURL.FindStringSubmatch(uri)[1], KindJob
	case workflowExecutionsURL.MatchString(uri):
		call.To, call.ToKind = workflowExecutionsURL.FindStringSubmatch(uri)[1], KindWorkflow
	case strings.Trim(uri, terraform.Wildcard) == "":
		call.To, call.Awaits = r.Address+".http_target.uri", true
		call.Unknown = v.Expr
		if call.Unknown == "" {
			call.Unknown = uri
		}
	default:
		call.To, call.Awaits = "url:"+uri, true
	}
	c.Calls = append(c.Calls, call)
	return c, nil
}

// queue reads a Cloud Tasks queue: max_attempts counts the first attempt
// (default 100, -1 unlimited). Its target is the queue's HTTP override or
// App Engine routing when it has one; otherwise the tasks name it, and the
// topology file declares it (calls).
func (tm *tfMapper) queue(r *terraform.Resource, name string, pos Pos) (*Component, error) {
	c := &Component{Name: name, Kind: KindQueue, Pos: pos}
	rc := &RetryConfig{Retries: DefaultQueueMaxAttempts - 1, Default: true, Pos: pos,
		MinBackoff: DefaultQueueMinBackoff, MaxBackoff: DefaultQueueMaxBackoff}
	n, err := tm.integer(r, name, "retry_config.max_attempts", DefaultQueueMaxAttempts, -1, 1<<30, tfWorst{-1, "-1, unlimited attempts (the worst case)"})
	if err != nil {
		return nil, err
	}
	switch {
	case n.written && n.v == -1:
		rc.Unbounded, rc.Retries, rc.Default, rc.Pos = true, 0, false, n.pos
	case n.written && n.v > 0:
		rc.Retries, rc.Default, rc.Pos = n.v-1, false, n.pos
	case n.unknown:
		rc.Unbounded, rc.Retries, rc.Default = true, 0, false
		rc.Pos, rc.Note = n.pos, "max_attempts unknown, assumed unlimited (the worst case)"
	}
	rc.MinBackoff = tm.seconds(r, "retry_config.min_backoff", DefaultQueueMinBackoff)
	rc.MaxBackoff = tm.seconds(r, "retry_config.max_backoff", DefaultQueueMaxBackoff)
	c.Retry = rc
	if v := r.Attr("http_target.uri_override.host"); v != nil && v.Known {
		uri := "https://" + v.Pattern
		if p := r.Attr("http_target.uri_override.path_override.path"); p != nil && p.Known {
			uri += p.Pattern
		}
		c.Calls = append(c.Calls, &Call{To: "url:" + uri, Kind: EdgeDeliver, Pos: tfPos(v.Pos), Awaits: true})
	} else if v := r.Attr("app_engine_routing_override.service"); v != nil && v.Known {
		c.Calls = append(c.Calls, &Call{To: "appengine:" + v.Pattern, ToKind: KindExternal, Kind: EdgeDeliver,
			Pos: tfPos(v.Pos), Awaits: true})
	}
	return c, nil
}

// function maps a Cloud Function: the function is a service (its handler),
// and an event trigger is a deliverer in front of it. Gen 1
// event_trigger.failure_policy.retry and gen 2 event_trigger.retry_policy
// RETRY_POLICY_RETRY redeliver a failed event for up to 7 days; without them
// an event is delivered once.
func (tm *tfMapper) function(r *terraform.Resource, name string, pos Pos) ([]*Component, error) {
	f := functionSpec{name: name, pos: pos, gen2: r.Type == "google_cloudfunctions2_function"}
	if f.gen2 {
		f.timeout = tm.seconds(r, "service_config.timeout_seconds", DefaultFunctionTimeout)
	} else {
		f.timeout = tm.seconds(r, "timeout", DefaultFunctionTimeout)
	}
	et := r.BlockAt("event_trigger")
	if et == nil {
		return f.components(), nil
	}
	f.event, f.eventPos = true, tfPos(et.Pos)
	if f.gen2 {
		if v := r.Attr("event_trigger.retry_policy"); v != nil && !v.IsNull() {
			f.retryPos = tfPos(v.Pos)
			switch {
			case !v.Known:
				tm.unknown(r, name, v, "unknown, assumed RETRY_POLICY_RETRY: redelivery for up to 7 days (the worst case)")
				f.retry = true
			case v.Pattern == "RETRY_POLICY_RETRY":
				f.retry = true
			}
		}
		return f.components(), nil
	}
	if v := r.Attr("event_trigger.failure_policy.retry"); v != nil && !v.IsNull() {
		f.retryPos = tfPos(v.Pos)
		b, ok := v.Bool()
		switch {
		case !v.Known:
			tm.unknown(r, name, v, "unknown, assumed true: redelivery for up to 7 days (the worst case)")
			f.retry = true
		case !ok:
			return nil, &InputError{Pos: tfPos(v.ExprPos), Msg: "event_trigger.failure_policy.retry: expected true or false"}
		default:
			f.retry = b
		}
	}
	return f.components(), nil
}
