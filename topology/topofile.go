package topology

import (
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/input"
)

// isTopologyFile recognises the topology file: `version: 1` plus
// `components:` (SPEC §5).
func isTopologyFile(r *yaml.Node) bool {
	return val(r, "version") != nil && val(r, "components") != nil
}

// notTopologyFile is the error of a file named as a topology file
// (retrylint.yaml, *.topology.yaml) whose documents are not all topology
// files: its declarations would be left out without a word, and its
// schema refuses it.
func notTopologyFile(file string, docs []*yaml.Node) error {
	if len(docs) == 0 {
		return errorf(Pos{File: file, Line: 1, Col: 1}, "empty topology file: expected `version: 1` and `components:`")
	}
	for _, doc := range docs {
		r := root(doc)
		switch {
		case r == nil || r.Kind != yaml.MappingNode:
			return errorf(posOf(file, r), "a topology file is a mapping with `version: 1` and `components:`, got %s", shown(r))
		case val(r, "version") == nil:
			return errorf(posOf(file, r), "topology file: `version: 1` is missing")
		case val(r, "components") == nil:
			return errorf(posOf(file, r), "topology file: `components:` is missing (write `components: {}` for none)")
		}
	}
	return nil
}

// decl is one component of a topology file.
type decl struct {
	pipeline string
	file     string
	name     string
	pos      Pos
	kind     Kind
	kindPos  Pos
	set      map[string]Pos // fields written, with their key's position
	c        Component      // the values written
	calls    []*Call
	dir      string // the directory of the file, absolute
}

// Keys the topology file accepts, per level.
var (
	topKeys       = []string{"version", "budget", "include", "components"}
	componentKeys = []string{"kind", "description", "source", "url", "calls", "emits", "notifies", "runs",
		"push_to", "max_retries", "task_count", "task_timeout", "max_delivery_attempts",
		"retention", "min_backoff", "max_backoff", "ack_deadline"}
	callKeys    = []string{"to", "func", "retries", "on", "backoff", "timeout", "awaits"}
	backoffKeys = []string{"initial", "max", "multiplier", "jitter"}
	// kindFields says which kinds a kind-specific field applies to.
	kindFields = map[string][]Kind{
		"source":                {KindApp, KindService},
		"url":                   {KindExternal},
		"runs":                  {KindJob, KindK8sJob},
		"max_retries":           {KindJob, KindK8sJob},
		"task_count":            {KindJob},
		"task_timeout":          {KindJob},
		"push_to":               {KindSubscription, KindTrigger},
		"max_delivery_attempts": {KindSubscription, KindTrigger},
		"retention":             {KindSubscription, KindTrigger},
		"min_backoff":           {KindSubscription, KindTrigger},
		"max_backoff":           {KindSubscription, KindTrigger},
		"ack_deadline":          {KindSubscription, KindTrigger},
	}
)

// checkKeys reports the first key of mapping n that is not in allowed.
func checkKeys(file string, n *yaml.Node, allowed []string, where string) error {
	if n.Kind != yaml.MappingNode {
		return errorf(posOf(file, n), "%s: expected a mapping", where)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		ok := false
		for _, a := range allowed {
			if k.Value == a {
				ok = true
				break
			}
		}
		if !ok {
			return errorf(posOf(file, k), "%s: unknown key %q (expected one of: %s)", where, k.Value, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// topologyFile decodes a topology file strictly and loads its includes.
func (ld *loader) topologyFile(file, abs string, r *yaml.Node) error {
	if err := checkKeys(file, r, topKeys, "topology file"); err != nil {
		return err
	}
	vn := val(r, "version")
	if v, ok := jsonNumber(decoded(vn)); !ok || v != 1 {
		return errorf(posOf(file, vn), "version: expected 1, got %s", shown(vn))
	}
	if k, n := get(r, "budget"); n != nil {
		b, err := topoInt(file, n, "budget", 1)
		if err != nil {
			return err
		}
		ld.budget, ld.budgetPos = b, posOf(file, k)
		ld.setBudget(ld.pipelineOf(abs), b, posOf(file, k))
	}
	comps := val(r, "components")
	if comps.Kind != yaml.MappingNode {
		if isNull(comps) {
			comps = &yaml.Node{Kind: yaml.MappingNode}
		} else {
			return errorf(posOf(file, comps), "components: expected a mapping of component names")
		}
	}
	for i := 0; i+1 < len(comps.Content); i += 2 {
		d, err := decodeDecl(file, comps.Content[i], resolve(comps.Content[i+1]))
		if err != nil {
			return err
		}
		d.dir = filepath.Dir(abs)
		d.pipeline = ld.pipelineOf(abs)
		ld.decls = append(ld.decls, d)
	}
	if inc := val(r, "include"); inc != nil {
		items := []*yaml.Node{inc}
		if inc.Kind == yaml.SequenceNode {
			items = inc.Content
		}
		// What a topology file includes is part of its pipeline.
		prev := ld.includer
		ld.includer = ld.pipelineOf(abs)
		defer func() { ld.includer = prev }()
		for _, it := range items {
			if err := ld.include(file, abs, resolve(it)); err != nil {
				return err
			}
		}
	}
	return nil
}

// include loads one `include:` entry, relative to the topology file, never
// outside the given roots.
func (ld *loader) include(file, abs string, it *yaml.Node) error {
	s, err := topoString(file, it, "include", "a path or glob relative to this file", true)
	if err != nil {
		return err
	}
	p := filepath.FromSlash(s)
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(abs), p)
	}
	matches := []string{p}
	if strings.ContainsAny(s, "*?[") {
		m, err := filepath.Glob(p)
		if err != nil {
			return errorf(posOf(file, it), "include %q: bad pattern: %v", s, err)
		}
		matches = m
	}
	for _, m := range matches {
		real, err := filepath.EvalSymlinks(m)
		if err != nil {
			return errorf(posOf(file, it), "include %q: %s", s, input.PathErr(err))
		}
		if !ld.within(real) {
			return errorf(posOf(file, it), "include %q is outside the given paths; only files under %s are read", s, ld.display(ld.roots[0]))
		}
		fi, err := os.Stat(real)
		if err != nil {
			return errorf(posOf(file, it), "include %q: %s", s, input.PathErr(err))
		}
		if fi.IsDir() {
			err = ld.walk(real)
		} else {
			err = ld.file(real, true)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// decodeDecl decodes one component entry.
func decodeDecl(file string, kn, n *yaml.Node) (*decl, error) {
	if kn.Kind != yaml.ScalarNode || kn.Value == "" {
		return nil, errorf(posOf(file, kn), "components: expected a component name")
	}
	d := &decl{file: file, name: kn.Value, pos: posOf(file, kn), set: map[string]Pos{}}
	where := "component " + kn.Value
	if n == nil || isNull(n) {
		return d, nil
	}
	if err := checkKeys(file, n, componentKeys, where); err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolve(n.Content[i+1])
		d.set[k.Value] = posOf(file, k)
		if err := d.field(file, k.Value, v, where); err != nil {
			return nil, err
		}
	}
	if d.kind != "" {
		if err := d.checkKindFields(); err != nil {
			return nil, err
		}
	}
	if dl := d.c.Delivery; dl != nil && d.set["min_backoff"].IsValid() && d.set["max_backoff"].IsValid() && dl.MaxBackoff < dl.MinBackoff {
		return nil, errorf(posOf(file, val(n, "max_backoff")), "%s: max_backoff: %s is below min_backoff, %s", where, secsText(dl.MaxBackoff), secsText(dl.MinBackoff))
	}
	return d, nil
}

// checkKindFields rejects kind-specific fields on the wrong kind.
func (d *decl) checkKindFields() error {
	for _, f := range slices.Sorted(maps.Keys(d.set)) {
		kinds, ok := kindFields[f]
		if !ok {
			continue
		}
		fits := false
		for _, k := range kinds {
			fits = fits || k == d.kind
		}
		if !fits {
			return errorf(d.set[f], "component %s: %s applies to %s, not %s", d.name, f, kindList(kinds), d.kind)
		}
	}
	return nil
}

func kindList(ks []Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, " or ")
}

func (d *decl) field(file, key string, v *yaml.Node, where string) error {
	c := &d.c
	at := where + ": " + key
	var err error
	switch key {
	case "kind":
		s, _ := scalar(v)
		if !ValidKind(Kind(s)) {
			return errorf(posOf(file, v), "%s: expected one of %s", at, strings.ReplaceAll(kindList(Kinds), " or ", ", "))
		}
		d.kind, d.kindPos = Kind(s), posOf(file, v)
	case "description":
		_, err = topoString(file, v, at, "a string", false)
	case "source":
		c.Source, err = topoString(file, v, at, "Go package patterns such as ./cmd/app", false)
	case "url":
		s, _ := topoString(file, v, at, "", false)
		host := urlHost(s)
		if host == "" {
			return errorf(posOf(file, v), "%s: expected a URL or host such as https://api.example.com, got %s", at, shown(v))
		}
		c.URL, c.Host = s, host
	case "emits":
		c.Emits, err = signalList(file, v, at)
		c.EmitsSet, c.EmitsPos = true, posOf(file, v)
	case "notifies":
		names, poss, err := nameList(file, v, at)
		if err != nil {
			return err
		}
		for i, name := range names {
			d.calls = append(d.calls, &Call{To: name, ToKind: KindSink, Kind: EdgeNotify, Pos: poss[i]})
		}
	case "runs":
		d.job().Runs, err = topoName(file, v, at)
		d.job().RunsPos = posOf(file, v)
	case "push_to":
		d.delivery().PushTo, err = topoName(file, v, at)
		d.delivery().PushToPos = posOf(file, v)
	case "max_retries":
		d.job().MaxRetries, err = topoInt(file, v, at, 0)
	case "task_count":
		d.job().TaskCount, err = topoInt(file, v, at, 1)
	case "task_timeout":
		d.job().TaskTimeout, err = topoDuration(file, v, at)
	case "max_delivery_attempts":
		d.delivery().MaxDeliveryAttempts, err = topoInt(file, v, at, 1)
	case "retention":
		d.delivery().Retention, err = topoDuration(file, v, at)
	case "min_backoff":
		d.delivery().MinBackoff, err = topoDuration(file, v, at)
	case "max_backoff":
		d.delivery().MaxBackoff, err = topoDuration(file, v, at)
	case "ack_deadline":
		d.delivery().AckDeadline, err = topoDuration(file, v, at)
	case "calls":
		if v.Kind != yaml.SequenceNode {
			return errorf(posOf(file, v), "%s: expected a list of calls", at)
		}
		for _, it := range v.Content {
			call, err := decodeCall(file, resolve(it), at)
			if err != nil {
				return err
			}
			d.calls = append(d.calls, call)
		}
	}
	return err
}

func (d *decl) job() *JobSpec {
	if d.c.Job == nil {
		d.c.Job = &JobSpec{}
	}
	return d.c.Job
}

func (d *decl) delivery() *Delivery {
	if d.c.Delivery == nil {
		d.c.Delivery = &Delivery{}
	}
	return d.c.Delivery
}

func signalList(file string, v *yaml.Node, at string) (Signals, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, errorf(posOf(file, v), "%s: expected a list of signals such as [http-503, timeout]", at)
	}
	var out Signals
	for _, it := range v.Content {
		s, ok := scalar(it)
		if !ok || !ValidSignal(Signal(s)) {
			return nil, errorf(posOf(file, it), "%s: %q is not a signal (expected exit-nonzero, http-429, http-5xx, http-503, http-4xx, connection, timeout, operation-error, workflow-failed, nack or any)", at, s)
		}
		out = append(out, Signal(s))
	}
	return out.Normalize(), nil
}

func nameList(file string, v *yaml.Node, at string) ([]string, []Pos, error) {
	items := []*yaml.Node{v}
	switch v.Kind {
	case yaml.SequenceNode:
		items = v.Content
	case yaml.ScalarNode:
	default:
		return nil, nil, errorf(posOf(file, v), "%s: expected a component name or a list of them", at)
	}
	var names []string
	var poss []Pos
	for _, it := range items {
		s, err := topoName(file, resolve(it), at)
		if err != nil {
			return nil, nil, err
		}
		names, poss = append(names, s), append(poss, posOf(file, it))
	}
	return names, poss, nil
}

func decodeCall(file string, n *yaml.Node, where string) (*Call, error) {
	if n == nil {
		return nil, errorf(Pos{File: file, Line: 1, Col: 1}, "%s: expected a call", where)
	}
	if err := checkKeys(file, n, callKeys, where); err != nil {
		return nil, err
	}
	call := &Call{Kind: EdgeCall, Pos: posOf(file, n), Predicate: Predicate{Any: true, Known: true}}
	toK, to := get(n, "to")
	if toK == nil {
		return nil, errorf(posOf(file, n), "%s: a call needs `to:` naming the component it invokes", where)
	}
	s, err := topoName(file, to, where+": to")
	if err != nil {
		return nil, err
	}
	call.To, call.Pos = s, posOf(file, to)
	if k, v := get(n, "retries"); v != nil {
		call.RetryPos = posOf(file, k)
		if err := readRetries(file, v, where, call); err != nil {
			return nil, err
		}
	}
	if k, v := get(n, "func"); v != nil {
		s, err := topoString(file, v, where+": func", `a Go function such as "example.com/app/client.(*Client).Do"`, true)
		if err != nil {
			return nil, err
		}
		call.Func, call.FuncPos = s, posOf(file, k)
	}
	if k, v := get(n, "on"); v != nil {
		call.OnPos = posOf(file, k)
		sigs, err := signalList(file, v, where+": on")
		if err != nil {
			return nil, err
		}
		call.Predicate = Predicate{Signals: sigs, Known: true, Custom: true, Any: sigs.Has(SigAny)}
	}
	if v := val(n, "timeout"); v != nil {
		t, err := topoDuration(file, v, where+": timeout")
		if err != nil {
			return nil, err
		}
		call.Timeout, call.TimeoutSet = t, true
	}
	if v := val(n, "awaits"); v != nil {
		b, err := topoBool(file, v, where+": awaits")
		if err != nil {
			return nil, err
		}
		call.Awaits = b
	}
	if k, v := get(n, "backoff"); v != nil {
		b, err := decodeBackoff(file, k, v, where)
		if err != nil {
			return nil, err
		}
		call.Backoff = b
	}
	return call, nil
}

// readRetries reads a call's `retries:`: a count, or `unbounded`.
func readRetries(file string, v *yaml.Node, where string, call *Call) error {
	if s, ok := decoded(v).(string); ok && s == "unbounded" {
		call.Unbounded = true
		return nil
	}
	if f, ok := jsonNumber(decoded(v)); !ok || f != math.Trunc(f) {
		return errorf(posOf(file, v), "%s: retries: expected a number or `unbounded`, got %s", where, shown(v))
	}
	r, err := topoInt(file, v, where+": retries", 0)
	call.Retries = r
	return err
}

// decodeBackoff reads a call's `backoff:`; its max may not be below its
// initial wait.
func decodeBackoff(file string, k, v *yaml.Node, where string) (*Backoff, error) {
	if err := checkKeys(file, v, backoffKeys, where+": backoff"); err != nil {
		return nil, err
	}
	b := &Backoff{Pos: posOf(file, k), Multiplier: 1}
	for _, f := range []struct {
		key string
		dst *float64
	}{{"initial", &b.Initial}, {"max", &b.Max}} {
		if fv := val(v, f.key); fv != nil {
			d, err := topoDuration(file, fv, where+": backoff."+f.key)
			if err != nil {
				return nil, err
			}
			*f.dst = d
		}
	}
	if fv := val(v, "max"); fv != nil && b.Max < b.Initial {
		return nil, errorf(posOf(file, fv), "%s: backoff.max: %s is below backoff.initial, %s", where, secsText(b.Max), secsText(b.Initial))
	}
	if fv := val(v, "multiplier"); fv != nil {
		m, err := topoNumber(file, fv, where+": backoff.multiplier", 1)
		if err != nil {
			return nil, err
		}
		b.Multiplier = m
	}
	if fv := val(v, "jitter"); fv != nil {
		j, _ := decoded(fv).(string)
		switch j {
		case "none", "full", "equal", "decorrelated":
		default:
			return nil, errorf(posOf(file, fv), "%s: backoff.jitter: expected none, full, equal or decorrelated, got %s", where, shown(fv))
		}
		b.Jitter = j
	}
	return b, nil
}
